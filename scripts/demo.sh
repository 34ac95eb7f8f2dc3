#!/usr/bin/env bash
# `make demo`: run curator's main job on a copy of the sample store shipped in this repo.
# Each step lives in scripts/demo.d/NN-topic.sh and runs in order, in the demo store.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
DEMO="$REPO/build/demo"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1767225600}"   # 2026-01-01: reproducible output
rm -rf "$DEMO"
mkdir -p "$DEMO"
cp "$REPO/curator.toml" "$DEMO/"
cp -r "$REPO/goldens" "$REPO/adversarial" "$DEMO/"
mkdir -p "$DEMO/.curator"
export CURATOR_STORE="$DEMO" REPO DEMO
for step in "$REPO"/scripts/demo.d/*.sh; do
  echo
  echo "=== $(basename "$step" .sh)"
  bash "$step"
done
echo
echo "demo store: $DEMO"
