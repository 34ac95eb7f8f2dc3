"""Run a command and write its peak resident memory (KiB) to a file: `peak_rss.py OUT CMD...`.

Why a middleman: Linux keeps a process's peak RSS across exec, and a child forked from a
large process (pytest, a benchmark holding its inputs) starts with its parent's RSS as its
peak. This script is small; the command it forks starts from its size, so the peak that
os.wait4 reports is the command's own (or its largest waited-for descendant's: an OCR
worker, a Tesseract). It exits with the command's exit code (128 + N for signal N).
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    out, command = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w") as handle:
        handle.write(str(usage.ru_maxrss))
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
