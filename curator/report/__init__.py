"""`curator report`: one self-contained HTML page over a bundle and, when given, a gate
report and eval runs. `write_report` is the entry point; `svg.py` draws the charts."""

from curator.report.page import write_report

__all__ = ["write_report"]
