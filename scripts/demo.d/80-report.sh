# See the results: one self-contained HTML report of the demo bundle, the regressed gate
# run (against the good one) and, when an eval step wrote them, its eval runs (oldest
# first), plus `curator view --check` and a PR comment for the newest run.
set -euo pipefail
BUNDLE="$(find "$CURATOR_STORE/bundles" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' 2>/dev/null | sort -V | tail -1)"
GATE="$REPO/build/gate-demo/regressed/report.json"
OUT="$REPO/build/report"
mkdir -p "$OUT"
runs=()
while IFS= read -r run; do runs+=(--runs "$run"); done < <(find "$REPO/build" -path "$REPO/build/demo" -prune -o -name 'evals.jsonl' -print 2>/dev/null | sort)
curator report --bundle "$BUNDLE" --gate "$GATE" "${runs[@]}" --out "$OUT/report.html"
if [ "${#runs[@]}" -gt 0 ]; then
  newest="${runs[-1]}"
  status=0
  curator view "$newest" --check --comment "$OUT/comment.md" || status=$?
  echo "curator view --check exited $status; PR comment: $OUT/comment.md"
fi
echo
echo "HTML report: $OUT/report.html (open it in a browser; it fetches nothing)"
