# Import the synthetic production inputs in examples/: threads, a chat log, PDFs and scans.
set -euo pipefail
curator import "$REPO/examples/threads/lease-question.json" \
  --rubric "The answer states the monthly rent." --rubric "The answer states the lease start date."
curator import "$REPO/examples/threads/maintenance-channel.json" --split-threads
curator import "$REPO/examples/chat/office-chat.jsonl"
curator import "$REPO/examples/pdfs" --json > "$DEMO/import.json"
python -c 'import json,sys; r=json.load(open(sys.argv[1])); [print("created", c["id"], c["doc_type"], [p["origin"] for p in c["pages"]]) for c in r["created"]]' "$DEMO/import.json"
# Importing the same sources again creates nothing.
curator import "$REPO/examples/pdfs" "$REPO/examples/threads/lease-question.json"
curator list
