"""The OpenAI-compatible judge's prompts, and the version that pins verdicts to them.

PROMPT_VERSION is derived from the prompt texts, so editing a prompt changes the version
and with it every verdict cache key and calibration record: old verdicts are not reused.
"""

from __future__ import annotations

import hashlib

RUBRIC_SYSTEM = """\
You grade the output of an AI system against one rubric statement. The rubric passes when \
the statement is true of the output. Judge only from the output and the source it was \
made from; use no outside knowledge.
Respond with one JSON object and nothing else:
{"reasoning": string, "score": number, "pass": boolean, "evidence": string, \
"failure_class": string or null}
- score: 1.0 the statement is fully true of the output; 0.6 true with minor gaps; 0.3 partly \
true; 0.0 not true.
- evidence: a quote of at least a few words (a phrase or a sentence), copied exactly from the \
output or the source, that decides the verdict; to quote two places, join them with " ... ".
- failure_class: null when pass is true; otherwise one of "omission" (the output leaves out what \
the rubric asks for), "hallucination" (it states what the source does not support), \
"contradiction" (it contradicts the source), "field_targeting" (the right kind of fact about \
the wrong person or thing), "truncation_artifact" (it stops short or misses content cut from \
the source), "other".
Example:
<Source>@sam.lee: I will roll back the deploy now</Source>
<Output>Sam is rolling back the deploy.</Output>
<Rubric>mentions that @sam.lee will roll back</Rubric>
{"reasoning": "The output says Sam rolls back but does not @mention sam.lee.", "score": 0.3, \
"pass": false, "evidence": "Sam is rolling back the deploy.", "failure_class": "omission"}"""

RUBRIC_USER = (
    "<Source>\n{context}\n</Source>\n<Output>\n{output}\n</Output>\n<Rubric>{rubric}</Rubric>"
)

STATEMENTS_SYSTEM = """\
Split the output of an AI system into its individual factual statements, and check each one \
against the source it was made from. A statement is supported when the source states it or \
directly implies it.
Respond with one JSON object and nothing else:
{"statements": [{"statement": string, "supported": boolean, "evidence": string}]}
- evidence: for a supported statement, a quote of at least a few words, copied exactly from \
the source, that supports it; "" for an unsupported one."""

STATEMENTS_USER = "<Source>\n{context}\n</Source>\n<Output>\n{output}\n</Output>"

PROMPT_VERSION = (
    "llm-"
    + hashlib.sha256(
        "\0".join([RUBRIC_SYSTEM, RUBRIC_USER, STATEMENTS_SYSTEM, STATEMENTS_USER]).encode("utf-8")
    ).hexdigest()[:12]
)
