"""Looking at eval runs: a summary, a Markdown PR comment, and the Textual app (`app.py`),
thin layers over reading, per-item results and comparison in curator.eval.

Importing this package pulls in no Textual: only `app.py` does.
"""
