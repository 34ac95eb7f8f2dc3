# Score two sample systems against the demo bundle: a good one passes every floor, a
# regressed one fails them, measured against the good run's report as the baseline.
set -euo pipefail
BUNDLE="$(find "$CURATOR_STORE/bundles" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' 2>/dev/null | sort -V | tail -1)"
if [ -z "$BUNDLE" ]; then
  echo "no bundle in $CURATOR_STORE/bundles: the bundle demo step builds one first" >&2
  exit 1
fi
OUT="$REPO/build/gate-demo"
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"   # relative paths keep the reports free of this machine's folders
python "$REPO/scripts/make_predictions.py" "$BUNDLE" --quality good --out good.jsonl
python "$REPO/scripts/make_predictions.py" "$BUNDLE" --quality regressed --out regressed.jsonl
cat > floors.toml <<'TOML'
[floors]
overall_accuracy = 0.946      # the golden set's measured baseline
adversarial_accuracy = 0.9
max_brier = 0.1
max_faithfulness_drop = 0.05

[weights]                     # the retrieval-quality composite
context_recall = 0.35
faithfulness = 0.40
answer_relevancy = 0.25
TOML

echo "--- good predictions (expect exit 0)"
curator gate --bundle "$BUNDLE" --predictions good.jsonl --floors floors.toml --out good --plot

echo
echo "--- regressed predictions against the good baseline (expect exit 1)"
status=0
curator gate --bundle "$BUNDLE" --predictions regressed.jsonl --floors floors.toml \
  --baseline good/report.json --out regressed --plot || status=$?
if [ "$status" -ne 1 ]; then
  echo "expected the regressed run to fail the gate with exit 1, got $status" >&2
  exit 1
fi
echo
echo "--- the pull-request comment for the regressed run ($OUT/regressed/summary.md)"
sed -n '1,12p' regressed/summary.md
