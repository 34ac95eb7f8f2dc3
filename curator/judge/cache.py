"""The verdict cache: a judge is asked once per (fixture line, rubric, output, judge, prompt).

Keys hash the fixture's bundle-line sha256, the rubric, the output's sha256, the judge's
name (with its model), its prompt version and the evidence rule its verdicts were settled
under, so a rerun with nothing changed calls no judge, relabelling a fixture (a new line
hash) invalidates exactly its verdicts, and a new model, prompt or evidence rule starts
afresh. Verdicts with an error are not kept: the next run asks again.
Concurrent asks for one key (the repetitions of a run, in parallel) share one judge call.

On disk: `verdicts.jsonl` in the judge folder (see `location.py`), one verdict per line,
appended under an exclusive lock so pytest-xdist workers share it; a torn last line (a
killed run) is skipped when read. `--offline` replays it and fails on a missing verdict.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from curator.errors import CuratorError
from curator.judge.verdict import (
    DEFAULT_EVIDENCE,
    EvidenceRule,
    Faithfulness,
    Judge,
    RubricCase,
    Statement,
    Verdict,
)

VERDICTS_FILE = "verdicts.jsonl"
RUBRIC, FAITHFULNESS = "rubric", "faithfulness"


class MissingVerdict(CuratorError):
    """--offline, and the cache lacks a verdict the run needs."""


def cache_key(
    kind: str,
    case: RubricCase,
    judge: str,
    prompt_version: str,
    evidence: EvidenceRule = DEFAULT_EVIDENCE,
) -> str:
    output_sha256 = hashlib.sha256(case.output.encode("utf-8")).hexdigest()
    rubric = case.rubric if kind == RUBRIC else ""
    # NUL cannot occur in the parts' JSON-safe texts, so the joined string is unambiguous.
    parts = "\0".join(
        (kind, case.fixture_sha256, rubric, output_sha256, judge, prompt_version, evidence.key())
    )
    return hashlib.sha256(parts.encode("utf-8")).hexdigest()


class VerdictCache:
    """key -> verdict, read once from the judge folder and appended to as verdicts come.
    Entries are held already marked `cached`, so serving one copies nothing."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / VERDICTS_FILE
        self._lock = threading.Lock()
        self._entries: dict[str, Verdict | Faithfulness] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
                entry = _decode(line)
                if entry is not None:
                    self._entries[entry[0]] = replace(entry[1], cached=True)

    def get(self, key: str) -> Verdict | Faithfulness | None:
        return self._entries.get(key)

    def put(self, key: str, value: Verdict | Faithfulness) -> None:
        kind = RUBRIC if isinstance(value, Verdict) else FAITHFULNESS
        data = asdict(replace(value, cached=False))
        line = json.dumps({"key": key, "kind": kind, "value": data}, ensure_ascii=False) + "\n"
        with self._lock:
            self._entries[key] = replace(value, cached=True)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                try:
                    handle.write(line)
                    handle.flush()
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class JudgeCounts:
    calls: int = 0  # verdicts the judge was asked for
    cached: int = 0  # verdicts served from the cache
    errors: int = 0  # verdicts that are judge errors


class CachedJudge:
    """A judge behind the verdict cache; with `offline`, the cache alone (inner may be None)."""

    def __init__(self, inner: Judge, cache: VerdictCache, *, offline: bool = False) -> None:
        self.inner = inner
        self.name = inner.name
        self.prompt_version = inner.prompt_version
        self.measures_faithfulness = inner.measures_faithfulness
        self.evidence = inner.evidence
        self.cache = cache
        self.offline = offline
        self.counts = JudgeCounts()
        self._lock = threading.Lock()
        self._inflight: dict[str, Future[Verdict | Faithfulness | None]] = {}

    def judge(self, case: RubricCase) -> Verdict:
        verdict = self._ask(RUBRIC, case, self.inner.judge)
        assert isinstance(verdict, Verdict)
        return verdict

    def faithfulness(self, case: RubricCase) -> Faithfulness | None:
        if not self.measures_faithfulness:
            return None
        result = self._ask(FAITHFULNESS, case, self.inner.faithfulness)
        assert result is None or isinstance(result, Faithfulness)
        return result

    def _ask(
        self,
        kind: str,
        case: RubricCase,
        call: Callable[[RubricCase], Verdict | Faithfulness | None],
    ) -> Verdict | Faithfulness | None:
        key = cache_key(kind, case, self.name, self.prompt_version, self.evidence)
        with self._lock:
            found = self._lookup(key, kind, case)
            if found is not None:
                return found
            pending = self._inflight.get(key)
            if pending is None:
                mine: Future[Verdict | Faithfulness | None] = Future()
                self._inflight[key] = mine
        if pending is not None:  # another thread is asking the judge this very question
            shared = pending.result()
            with self._lock:
                self.counts.cached += shared is not None and shared.error is None
            return shared
        try:
            result = call(case)
            if result is not None and result.error is None:
                self.cache.put(key, result)  # before the key leaves _inflight: no second call
        except BaseException as error:
            with self._lock:
                self._inflight.pop(key, None)
            mine.set_exception(error)
            raise
        with self._lock:
            self._inflight.pop(key, None)
            self.counts.calls += 1
            self.counts.errors += result is not None and result.error is not None
        mine.set_result(result)
        return result

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()

    def _lookup(self, key: str, kind: str, case: RubricCase) -> Verdict | Faithfulness | None:
        """The cached answer (counted), None to ask the judge; MissingVerdict when offline."""
        found = self.cache.get(key)
        if found is not None:
            self.counts.cached += 1
            return found
        if self.offline:
            what = f"rubric {case.rubric!r}" if kind == RUBRIC else "faithfulness"
            raise MissingVerdict(
                f"--offline: no cached verdict on {what} of {case.fixture_id} from judge "
                f"{self.name} (prompt {self.prompt_version}); run once without --offline"
            )
        return None


def _decode(line: str) -> tuple[str, Verdict | Faithfulness] | None:
    try:
        entry = json.loads(line)
        value: dict[str, Any] = entry["value"]
        if entry["kind"] == RUBRIC:
            return entry["key"], Verdict(**value)
        statements = tuple(Statement(**s) for s in value.pop("statements"))
        return entry["key"], Faithfulness(statements=statements, **value)
    except (ValueError, KeyError, TypeError):
        return None
