"""The rules judge: rubrics checked without a model, from what the rubric text declares.

A rubric declares its checks in its own words, so the same rubric reads well to a person,
an LLM judge and this one:

    "quoted phrase"    the output holds the phrase (case and spacing aside)
    @handle            the output @mentions the handle
    @mentions          the output @mentions people of the thread, and only them: Mattermost's
                       "contains the usernames involved as @mentions" (@mention, @-mentions)
    /regex/            the regular expression matches the output (case-insensitive)
    $1,840.00, EUR 12  the output holds the amount, in any form (1840, USD 1,840)
    January 3, 2024    the output holds the date, in any form (2024-01-03, 3 Jan 2024)

Every check must hold for a pass; the score is the share that hold. A rubric that
declares nothing checkable gets a judge error, never a pass; `refuse_uncheckable` says so
for a whole run before it starts. The evidence is the sentence of the output where the
first check holds (the whole output when that sentence is too short to be a quote), so it
is held to the same evidence rule as any judge's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from curator.errors import CuratorError
from curator.judge.context import MENTION, thread_usernames
from curator.judge.verdict import EvidenceRule, Faithfulness, RubricCase, Verdict, settle
from curator.model import FieldType, JudgeSettings
from curator.normalise import find_value, typed_values

NAME = "rules"
PROMPT_VERSION = "rules-2"  # bump when what a rubric declares, or how it is checked, changes

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
# "@mentions" in a rubric is the word for a kind of reference, not a user called "mentions"
_ANY_MENTION = re.compile(r"(?<![\w@])@-?mention(?:s|ed|ing)?\b", re.IGNORECASE)
_SHOWN_USERS = 5
_NOTIFIES = {"all", "channel", "here"}  # Mattermost's mentions of everyone: no person
_WHAT_RULES_CHECK = (
    'a rule rubric quotes a "phrase" or names an @handle, @mentions, a /regex/, an amount or a date'
)
_REGEX = re.compile(r"(?:^|(?<=\s))/((?:\\.|[^/\\\n])+)/(?=$|[\s.,;:!?)])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
Span = tuple[int, int]


@dataclass(frozen=True)
class Check:
    label: str
    find: Callable[[str], Span | None]


def checks(rubric: str, context: str = "") -> list[Check]:
    """What the rubric text declares, in order of appearance; `context`, the fixture's text,
    says who the thread's people are."""
    found: list[tuple[int, Check]] = []
    for match in _QUOTED.finditer(rubric):
        phrase = match.group(1) or match.group(2)
        found.append((match.start(), Check(f'"{phrase}"', _finder(phrase, FieldType.text))))
    generic = [match.span() for match in _ANY_MENTION.finditer(rubric)]
    for start, _ in generic[:1]:  # one check, however often the rubric says it
        found.append((start, _thread_mentions(thread_usernames(context))))
    for match in MENTION.finditer(rubric):
        if any(start <= match.start() < end for start, end in generic):
            continue
        found.append((match.start(), Check(f"@{match.group(1)}", _mention(match.group(1)))))
    for match in _REGEX.finditer(rubric):
        found.append((match.start(), Check(f"/{match.group(1)}/", _pattern(match.group(1)))))
    for kind, value in typed_values(rubric):
        found.append(
            (
                rubric.find(value),
                Check(
                    f"{value} ({'date' if kind is FieldType.date else 'amount'})",
                    _finder(value, kind),
                ),
            )
        )
    return [check for _, check in sorted(found, key=lambda hit: hit[0])]


class RulesJudge:
    name = NAME
    prompt_version = PROMPT_VERSION
    measures_faithfulness = False  # statements need a model to be split and checked

    def __init__(self, settings: JudgeSettings | None = None) -> None:
        self.evidence = EvidenceRule.of(settings or JudgeSettings())

    def judge(self, case: RubricCase) -> Verdict:
        declared = checks(case.rubric, case.context)
        if not declared:
            return Verdict.failed(
                f"the rules judge finds nothing to check in this rubric: {_WHAT_RULES_CHECK}"
            )
        try:
            spans = [(check, check.find(case.output)) for check in declared]
        except re.error as error:
            return Verdict.failed(f"the rubric's regular expression does not compile: {error}")
        held = [(check, span) for check, span in spans if span is not None]
        missing = [check.label for check, span in spans if span is None]
        reasoning = "; ".join(
            filter(
                None,
                [
                    f"found {', '.join(check.label for check, _ in held)}" if held else "",
                    f"missing {', '.join(missing)}" if missing else "",
                ],
            )
        )
        evidence = _passage(case.output, held[0][1], self.evidence) if held else ""
        verdict = Verdict(
            reasoning=reasoning,
            score=len(held) / len(declared),
            passed=not missing,
            evidence=evidence,
            failure_class="omission" if missing else None,
        )
        return settle(case, verdict, self.evidence)

    def faithfulness(self, case: RubricCase) -> Faithfulness | None:
        return None


def _passage(output: str, span: Span, rule: EvidenceRule) -> str:
    """The sentence (or line) of the output holding `span`; the whole output when that is
    too short to be a quote."""
    start = end = 0
    for match in _SENTENCE_END.finditer(output):
        if match.start() >= span[1]:
            end = match.start()
            break
        start = match.end()
    sentence = output[start : end or len(output)].strip()
    return sentence if rule.admits(sentence) else output.strip()


def uncheckable(rubrics: Iterable[str]) -> list[str]:
    """The rubrics that declare nothing the rules judge can check, each once, in order."""
    return [rubric for rubric in dict.fromkeys(rubrics) if not checks(rubric)]


def refuse_uncheckable(rubrics: Iterable[str]) -> None:
    """One line before a run, instead of a judge error per verdict, when rubrics of it
    declare nothing to check (Mattermost's "is a summary" needs a model)."""
    given = list(dict.fromkeys(rubrics))
    unchecked = uncheckable(given)
    if unchecked:
        raise CuratorError(
            f"the rules judge cannot check {len(unchecked)} of the {len(given)} rubrics, first "
            f"{unchecked[0]!r}: {_WHAT_RULES_CHECK}; reword them or use --judge openai"
        )


def _thread_mentions(usernames: list[str]) -> Check:
    shown = ", ".join(f"@{name}" for name in usernames[:_SHOWN_USERS])
    more = f", +{len(usernames) - _SHOWN_USERS} more" if len(usernames) > _SHOWN_USERS else ""
    involved = {name.lower() for name in usernames}

    def find(output: str) -> Span | None:
        people = [m for m in MENTION.finditer(output) if m.group(1).lower() not in _NOTIFIES]
        if not people or any(m.group(1).lower() not in involved for m in people):
            return None  # no one @mentioned, or a handle the thread does not know
        return people[0].span()

    label = f"@mentions of the thread's people ({shown}{more})" if usernames else "@mentions"
    return Check(label, find)


def _finder(value: str, kind: FieldType) -> Callable[[str], Span | None]:
    def find(output: str) -> Span | None:
        spans = find_value(output, value, kind)
        return spans[0] if spans else None

    return find


def _mention(handle: str) -> Callable[[str], Span | None]:
    pattern = re.compile(rf"(?<![\w@])@{re.escape(handle)}(?![\w-]|\.[\w])", re.IGNORECASE)
    return _searcher(pattern)


def _pattern(source: str) -> Callable[[str], Span | None]:
    return _searcher(re.compile(source, re.IGNORECASE | re.DOTALL))


def _searcher(pattern: re.Pattern[str]) -> Callable[[str], Span | None]:
    def find(output: str) -> Span | None:
        match = pattern.search(output)
        return match.span() if match else None

    return find
