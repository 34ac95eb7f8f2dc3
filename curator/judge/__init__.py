"""Judges: the verdict on one rubric statement about one output, behind one interface.

`rules` checks what a rubric declares (quoted phrases, @mentions, /regexes/, amounts and
dates) without a model; `openai` asks any OpenAI-compatible chat-completions server. Both
are wrapped in the verdict cache (`cache.py`), which also replays verdicts `--offline`.
Every verdict's evidence quote is checked against the fixture and the output
(`verdict.py`); calibration (`calibration.py`) measures a judge before the gate trusts it,
on answers whose verdict is known, most of them made from the fixtures (`known_answers.py`).
"""

from curator.judge.verdict import Faithfulness, Judge, RubricCase, Statement, Verdict

__all__ = ["Faithfulness", "Judge", "RubricCase", "Statement", "Verdict"]
