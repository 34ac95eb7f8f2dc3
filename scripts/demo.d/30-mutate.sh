# Adversarial variants whose ground truth follows them: truncation, OCR noise (simulated
# and really rendered + Tesseract, calibrated), bilingual labels, contradictory amendments,
# a chain, and staleness refresh after the parent's labels change. Every variant's truth
# is checked against its text before it is written; the noise spares labelled values
# unless --noise-values asks otherwise.
set -euo pipefail
PY="$(command -v python || command -v python3)"

# Pick a lease document with labelled values, and a thread, from the demo store.
pick() {  # pick KIND [DOC_TYPE]
  curator list --json | "$PY" -c '
import json, sys
kind, doc_type = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
rows = [r for r in json.load(sys.stdin) if r["kind"] == kind and not r["adversarial"]
        and (doc_type is None or r["doc_type"] == doc_type)]
print(rows[0]["id"] if rows else "")' "$@"
}
first_field() {  # first_field ID [TYPE]: a field with a value (of TYPE, if given)
  curator show "$1" --json | "$PY" -c '
import json, sys
labels = json.load(sys.stdin)["labels"] or {"fields": {}}
wanted = sys.argv[1] if len(sys.argv) > 1 else None
names = [n for n, f in labels["fields"].items() if f["value"] and (wanted is None or f["type"] == wanted)]
print(names[0] if names else "")' "${2:-}"
}

LEASE="$(pick document lease)"
THREAD="$(pick thread)"

if [ -n "$LEASE" ]; then
  echo "--- lease $LEASE"
  curator mutate "$LEASE" --truncate                      # cut at 60%, mid-sentence
  curator mutate "$LEASE" --ocr-noise 0.08 --seed 1       # calibrated Tesseract-like noise
  # These two refuse (exit 2, nothing written) when the document lacks what they need.
  curator mutate "$LEASE" --bilingual fr || echo "(bilingual refused for $LEASE)"   # French labels, English values
  FIELD="$(first_field "$LEASE" money)"; FIELD="${FIELD:-$(first_field "$LEASE")}"
  if [ -n "$FIELD" ]; then
    curator mutate "$LEASE" --contradict "$FIELD" --amendment-first || echo "(contradict refused for $LEASE)"
  fi
  curator mutate "$LEASE" --truncate 0.8 --ocr-noise 0.05   # a chain, in this order
  curator mutate "$LEASE" --ocr-noise 0.05 --render       # the real path: Pillow + Tesseract, calibrated
  curator mutate "$LEASE" --ocr-noise 0.1 --noise-values --seed 2    # values hit too: the truth says what is left
  echo "--- one variant, with its lineage and transformed labels"
  VARIANT="$(curator mutate "$LEASE" --ocr-noise 0.08 --seed 1 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["variants"][0]["id"])')"
  curator show "$VARIANT"
  echo "--- every variant's ground truth against the text at its evidence span"
  for id in $(curator list --adversarial --json | "$PY" -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)))'); do
    curator show "$id" --json | "$PY" -c '
import json, sys
shown = json.load(sys.stdin)
for name, f in (shown["labels"] or {"fields": {}})["fields"].items():
    if f["value"]:
        note = " (unanswerable)" if f.get("unanswerable") else (" accepted: %r" % f["variants"] if f["variants"] else "")
        print("  %-48s %-18s %-32r text at span: %r%s" % (shown["fixture"]["id"][:48], name, f["value"],
                                                         f["evidence_text"] or f["value"], note))'
  done
fi

if [ -n "$THREAD" ]; then
  echo "--- thread $THREAD"
  curator mutate "$THREAD" --truncate 0.5 || echo "(not truncatable: $THREAD)"
fi

if [ -n "$LEASE" ] && [ -n "${FIELD:-}" ]; then
  echo "--- staleness: a new label revision on the parent makes its variants stale"
  VALUE="$(curator show "$LEASE" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["labels"]["fields"][sys.argv[1]]["value"])' "$FIELD")"
  curator label set "$LEASE" "$FIELD=$VALUE" --reason "re-checked in the demo" --author demo
  curator validate || true        # exit 1: the variants are stale
  curator mutate --refresh        # variants keep their status: their truth followed by rule
  curator validate
  curator status --to active --where status=needs-review,adversarial=true --dry-run || true
fi
