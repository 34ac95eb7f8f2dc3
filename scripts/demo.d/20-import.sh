# New production inputs arrive: synthetic threads, a chat log, PDFs and scans, with other
# (made-up) people than the shipped examples the sample store was built from.
set -euo pipefail
INBOX="$DEMO/inbox"
python "$REPO/examples/generate.py" "$INBOX" 7 >/dev/null
curator import "$INBOX/threads/lease-question.json" \
  --rubric "The answer states the monthly rent." --rubric "The answer states the lease start date."
curator import "$INBOX/threads/maintenance-channel.json" --split-threads
curator import "$INBOX/chat/office-chat.jsonl"
curator import "$INBOX/pdfs" --json > "$DEMO/import.json"
python -c 'import json,sys; r=json.load(open(sys.argv[1])); [print("created", c["id"], c["doc_type"], [p["origin"] for p in c["pages"]]) for c in r["created"]]' "$DEMO/import.json"
# Importing the same sources again creates nothing; nor do the examples the store was built from.
curator import "$INBOX/pdfs" "$INBOX/threads/lease-question.json"
curator import "$REPO/examples/pdfs/lease-maple.pdf"
curator list --status draft
