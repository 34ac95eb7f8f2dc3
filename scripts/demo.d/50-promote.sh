# Production failures become anonymised adversarial fixtures; repeats and near-duplicates don't.
set -euo pipefail
# A batch: a PDF extraction, a thread summary and a plain-text lease, each with its bad output.
# (The PDF is one that 20-import already imported, so it is reported as already covered.)
curator promote "$REPO/examples/failures/failures.jsonl"
# The same lease seen again under another trace, one word different: already covered.
curator promote "$REPO/examples/failures/failure.json"
# Promoting the same traces again writes nothing.
curator promote "$REPO/examples/failures/failures.jsonl" --json \
  | python3 -c 'import json, sys; print("again:", json.load(sys.stdin)["counts"])'
curator list --adversarial
# Nothing from a promoted record survives: the audit finds no leak in adversarial/.
report="$(mktemp)"
curator audit --json > "$report" || [ $? -eq 1 ]   # 1 = leaks somewhere; judged below
python3 - "$report" <<'PY'
import json, sys
leaks = [l for l in json.load(open(sys.argv[1]))["leaks"] if str(l.get("location", "")).startswith("adversarial/")]
print("audit of promoted fixtures:", "no leaks" if not leaks else leaks)
sys.exit(1 if leaks else 0)
PY
rm -f "$report"
