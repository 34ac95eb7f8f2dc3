# Production failures become anonymised adversarial fixtures; repeats and near-duplicates don't.
set -euo pipefail
# A batch: a PDF extraction, a thread summary and a plain-text lease, each with its bad output.
curator promote "$REPO/examples/failures/failures.jsonl"
# The same lease seen again under another trace, one word different: already covered.
curator promote "$REPO/examples/failures/failure.json"
# Promoting the same traces again writes nothing.
curator promote "$REPO/examples/failures/failures.jsonl" --json | python3 -c 'import json,sys; print("again:", json.load(sys.stdin)["counts"])'
curator list --adversarial
curator audit
