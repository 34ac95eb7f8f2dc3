"""Import of production inputs: Mattermost threads, chat JSONL logs and PDFs (with OCR).

Readers (threads, chat_jsonl, pdf) parse and validate; suggest proposes labels; api's
`import_sources` anonymises and writes, all or nothing.
"""

from curator.ingest.api import ImportReport, import_sources, read_rubric_file

__all__ = ["ImportReport", "import_sources", "read_rubric_file"]
