"""Import of production inputs: Mattermost threads, bulk and compliance exports, Slack
exports, chat JSONL logs, LLM conversations, PDFs and scanned images (with OCR).

Readers (threads, chat_jsonl, conversations, mattermost_bulk, compliance, slack, documents
with pdf, image and ocr)
parse and validate under the store's [limits]; selection picks a workspace export's
threads; suggest proposes labels; api's `import_sources` anonymises and writes, all or
nothing (or, with keep_going, every good source).
"""

from curator.ingest.api import ImportReport, import_sources, read_rubric_file, task_rubrics
from curator.ingest.selection import Selection

__all__ = ["ImportReport", "Selection", "import_sources", "read_rubric_file", "task_rubrics"]
