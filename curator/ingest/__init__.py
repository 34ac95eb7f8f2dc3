"""Import of production inputs: Mattermost threads, chat JSONL logs, PDFs and scanned
images (with OCR).

Readers (threads, chat_jsonl, documents with pdf, image and ocr) parse and validate under
the store's [limits]; suggest proposes labels; api's `import_sources` anonymises and
writes, all or nothing (or, with keep_going, every good source).
"""

from curator.ingest.api import ImportReport, import_sources, read_rubric_file

__all__ = ["ImportReport", "import_sources", "read_rubric_file"]
