"""Looking at eval runs: loading evals.jsonl, per-item results, comparing two runs, a
Markdown PR comment, and the Textual app (`app.py`) that is a thin layer over them.

Importing this package pulls in no Textual: only `app.py` does.
"""
