# Run a system over the bundle (the example system of docs/guide/evals.md): judged by the
# rules judge, then by an OpenAI-compatible judge over HTTP (the loopback server the tests
# use); each judge is calibrated on the bundle's known answers, then the gate decides.
set -euo pipefail
BUNDLE="$(find "$CURATOR_STORE/bundles" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' 2>/dev/null | sort -V | tail -1)"
[ -n "$BUNDLE" ] || { echo "no bundle in $CURATOR_STORE/bundles" >&2; exit 1; }
OUT="$REPO/build/eval-demo"
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"
export PYTHONPATH="$REPO/examples/evals${PYTHONPATH:+:$PYTHONPATH}"   # the example system
export CURATOR_JUDGE_DIR="$OUT/judge"                                 # verdict cache, calibrations

gate() {  # gate PREDICTIONS OUT: 0 passes, 1 a floor failed (shown), anything else is a fault
  local status=0
  curator gate --bundle "$BUNDLE" --predictions "$1" --out "$2" || status=$?
  [ "$status" -le 1 ] || exit "$status"
  [ "$status" -eq 0 ] || echo "(the example extractor misses the adversarial fixtures: the gate says no, as it should)"
}

echo "--- the example system, 3 runs, rules judge"
curator eval run "$BUNDLE" --system extractor:answer --judge rules --repeat 3 --out rules
curator judge calibrate "$BUNDLE" --judge rules
gate rules/predictions.jsonl rules-gate
head -c 600 rules/evals.jsonl; echo " ..."

echo
echo "--- the same, judged over HTTP by an OpenAI-compatible server on loopback"
python "$REPO/tests/eval/judge_server.py" --policy reader > server.url &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s server.url ] && break; sleep 0.2; done
export OPENAI_BASE_URL="$(cat server.url)" OPENAI_API_KEY="demo-key-not-a-secret"
curator eval run "$BUNDLE" --system extractor:answer --judge openai --judge-model demo-judge --out http
curator judge calibrate "$BUNDLE" --judge openai --judge-model demo-judge
gate http/predictions.jsonl http-gate
echo "--- nothing changed: replayed from the verdict cache, no judge call"
curator eval run "$BUNDLE" --system extractor:answer --judge openai --judge-model demo-judge --offline --out replay
cmp http/predictions.jsonl replay/predictions.jsonl && echo "replay: same predictions"
