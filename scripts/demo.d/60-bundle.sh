# Bundles: release the golden set as a versioned, verifiable bundle; relabel; release again; diff.
set -euo pipefail
bundles="$CURATOR_STORE/bundles"

curator stats --status active
curator bundle build 1.0.0 --archive
curator bundle verify "$bundles/1.0.0"
curator bundle verify "$bundles/1.0.0.tar.gz"
python -c 'import sys, curator.bundle as b; items = list(b.load(sys.argv[1])); print(f"loaded {len(items)} fixtures with curator.bundle.load")' "$bundles/1.0.0"

# A reviewer corrects one lease's rent; the next release records it field by field.
lease=$(curator list --status active --kind document --json \
  | python -c 'import json, sys; print(next(f["id"] for f in json.load(sys.stdin) if f["doc_type"] == "lease"))')
# The new rent is in no page of the document, so it needs a stated reason (--no-evidence).
curator label set "$lease" monthly_rent='$2,150.00' --reason "demo: rent corrected after review" \
  --no-evidence "raised by the landlord's letter, which is not in the fixture"
curator bundle build 1.1.0 --archive --strict    # refused if an active fixture left unretired
curator bundle diff 1.0.0 1.1.0
cat "$bundles/1.1.0/CHANGELOG.md"

# Same content again is a no-op; 1.0.0 with new content is refused (versions are immutable).
curator bundle build 1.1.0
if curator bundle build 1.0.0 2>/dev/null; then echo "1.0.0 was rebuilt with new content" >&2; exit 1; fi
echo "rebuilding 1.0.0 with new content: refused, as it must be"

# A tampered copy fails verification, naming the file.
tampered="$(mktemp -d)/1.1.0"
cp -r "$bundles/1.1.0" "$tampered"
echo '- sneaked in' >> "$tampered/CHANGELOG.md"
if curator bundle verify "$tampered"; then echo "tampering went unnoticed" >&2; exit 1; fi
rm -rf "$(dirname "$tampered")"
