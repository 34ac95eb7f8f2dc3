"""A harness's results as curator predictions: what `curator gate --predictions` reads
besides its own predictions JSONL.

- an inspect_ai eval log (`--log-format json`, or the default `.eval` archive): each
  sample's final completion is the answer (first epoch only: the gate scores one run);
- promptfoo's results JSON (`promptfoo eval -o results.json`): each test's output is the
  answer, its `llm-rubric` results the rubric verdicts.

Answers are read with the same parser the adapters use (curator.harness.verdicts), so the
gate's verdicts are the harness's. A sample or test naming a fixture the bundle lacks, or a
fixture answered twice, is an error naming it (exit 2), as in a predictions file.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from curator.errors import CuratorError
from curator.harness.samples import HASH_PREFIX
from curator.harness.verdicts import prediction_of
from curator.json_input import parse
from curator.limits import DEFAULT
from curator.model import LabelRevision, LimitSettings, Prediction, RubricVerdict, task_label
from curator.score.scoring import Case, SimpleCase

ZIP_MAGIC = b"PK\x03\x04"
ZIP_ZSTANDARD = 93  # the zip compression method number of Zstandard


def harness_format(data: bytes) -> str | None:
    """ "inspect" or "promptfoo" when `data` is one of their results files, else None."""
    if data.startswith(ZIP_MAGIC):
        return "inspect"
    if not data.lstrip().startswith(b"{"):
        return None
    head = data[:4096]
    if b'"eval"' in head and b'"samples"' in data or b'"version"' in head and b'"plan"' in data:
        return "inspect"
    if b'"evalId"' in head or b'"results"' in head and b'"testCase"' in data:
        return "promptfoo"
    return None


def predictions_from(
    data: bytes,
    kind: str,
    path: Path,
    cases: Iterable[Case],
    limits: LimitSettings = DEFAULT,
    line_hashes: dict[str, str] | None = None,
) -> dict[str, Prediction]:
    """case name (fixture id, `fixture/task` for a named task) -> its prediction, from an
    inspect_ai log or promptfoo results file.

    With `line_hashes` (fixture id -> its fixtures.jsonl line's sha256, from the manifest),
    a sample whose metadata names another sha256 was run on other content than this
    bundle's (a stale export): refused rather than scored against labels it never had."""
    by_name = {task_label(case.fixture.id, _task_of(case)): case for case in cases}
    answers = _inspect_answers(data, path, limits) if kind == "inspect" else None
    if answers is None:
        answers = _promptfoo_answers(data, path, limits)
    predictions: dict[str, Prediction] = {}
    for name, output, verdicts, digest in answers:
        if name not in by_name:
            raise CuratorError(f"{path}: fixture {name!r} is not in the bundle")
        case = by_name[name]
        fixture_id = case.fixture.id
        known = (line_hashes or {}).get(fixture_id)
        if digest is not None and known is not None and digest != HASH_PREFIX + known:
            raise CuratorError(
                f"{path}: fixture {fixture_id!r} was run on other content than this bundle's "
                "(its sha256 differs: a stale export?); export this bundle and run it again"
            )
        if name in predictions:
            raise CuratorError(f"{path}: fixture {name!r} is answered twice")
        truth = case.labels or LabelRevision(rev=1, time="", author="", source="manual")
        predictions[name] = prediction_of(fixture_id, output, truth, verdicts, _task_of(case))
    return predictions


def _task_of(case: Case) -> str | None:
    return case.task if isinstance(case, SimpleCase) else None


def _name(metadata: dict[str, Any], fixture_id: str) -> str:
    """The case a sample answers: its fixture, and the named task its metadata gives."""
    task = metadata.get("task")
    return task_label(fixture_id, task if isinstance(task, str) else None)


# case name, the output, rubric verdicts, the fixture_sha256 its metadata names (or None)
Answer = tuple[str, Any, list[RubricVerdict], str | None]


def _inspect_answers(data: bytes, path: Path, limits: LimitSettings) -> Iterator[Answer]:
    for sample in _inspect_samples(data, path, limits):
        if not isinstance(sample, dict) or sample.get("epoch", 1) != 1:
            continue
        metadata = sample.get("metadata") or {}
        name = _name(metadata, str(metadata.get("fixture_id") or sample.get("id")))
        output = (sample.get("output") or {}).get("completion")
        yield name, output if isinstance(output, str) else None, [], _digest(metadata)


def _inspect_samples(data: bytes, path: Path, limits: LimitSettings) -> list[Any]:
    if not data.startswith(ZIP_MAGIC):
        log = _json(data, str(path), limits)
        samples = log.get("samples") if isinstance(log, dict) else None
        if not isinstance(samples, list):
            raise CuratorError(f"{path}: an inspect_ai log without samples")
        return samples
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = sorted(n for n in archive.namelist() if n.startswith("samples/"))
        found = []
        for name in names:
            info = archive.getinfo(name)
            if info.file_size > limits.json_bytes:
                raise CuratorError(f"{path}: {name} is larger than max_json_mb")
            found.append(_json(_member(data, archive, info), f"{path}:{name}", limits))
        return found
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise CuratorError(f"{path}: not a readable inspect_ai log ({error})") from None


def _member(data: bytes, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """One member's bytes. inspect_ai compresses with Zstandard, which Python's zipfile
    cannot read before 3.14: its raw bytes are decompressed with pyarrow's zstd codec."""
    if info.compress_type != ZIP_ZSTANDARD:
        return archive.read(info)
    import pyarrow as pa

    start = info.header_offset
    if data[start : start + 4] != ZIP_MAGIC:
        raise zipfile.BadZipFile(f"no local header for {info.filename}")
    name_length, extra_length = struct.unpack("<HH", data[start + 26 : start + 30])
    begin = start + 30 + name_length + extra_length
    raw = data[begin : begin + info.compress_size]
    return pa.Codec("zstd").decompress(raw, decompressed_size=info.file_size).to_pybytes()


def _promptfoo_answers(data: bytes, path: Path, limits: LimitSettings) -> Iterator[Answer]:
    document = _json(data, str(path), limits)
    results = (document.get("results") or {}).get("results") if isinstance(document, dict) else None
    if not isinstance(results, list):
        raise CuratorError(f"{path}: promptfoo results without results.results")
    for number, result in enumerate(results, 1):
        test = result.get("testCase") or {}
        metadata = test.get("metadata") or result.get("metadata") or {}
        fixture_id = metadata.get("fixture_id")
        if not isinstance(fixture_id, str):
            raise CuratorError(f"{path}: result {number} names no fixture_id in its metadata")
        output = (result.get("response") or {}).get("output")
        components = (result.get("gradingResult") or {}).get("componentResults") or []
        verdicts = [_rubric_verdict(c) for c in components if _is_rubric(c)]
        answer = output if isinstance(output, str) else None
        yield _name(metadata, fixture_id), answer, verdicts, _digest(metadata)


def _digest(metadata: Any) -> str | None:
    digest = metadata.get("fixture_sha256") if isinstance(metadata, dict) else None
    return digest if isinstance(digest, str) else None


def _is_rubric(component: Any) -> bool:
    assertion = component.get("assertion") if isinstance(component, dict) else None
    return isinstance(assertion, dict) and assertion.get("type") == "llm-rubric"


def _rubric_verdict(component: dict[str, Any]) -> RubricVerdict:
    score = component.get("score")
    return RubricVerdict.model_validate(
        {
            "rubric": str(component["assertion"].get("value", "")) or "?",
            "pass": bool(component.get("pass")),
            "score": float(score) if isinstance(score, int | float) and 0 <= score <= 1 else None,
        }
    )


def _json(data: bytes, where: str, limits: LimitSettings) -> Any:
    return parse(data, where, limits)  # bad JSON: a JsonInputError naming where (exit 2)
