"""The pytest plugin (entry point `pytest11`): eval tests parametrised over a bundle.

    pytest --curator-bundle bundles/1.2.0 --curator-judge rules

A test that asks for the `curator_item` fixture runs once per bundle fixture and task (test
ids are fixture ids, `<id>[<task>]` for a named task, `curator_item.task` its name; with
CURATOR_EVALS=N, N times each: `<id>-run<k>`), narrowed by `--curator-category`,
`--curator-mutation`, `--curator-doc-type`, `--curator-kind`, `--curator-task`,
`--curator-adversarial/--curator-golden` and by a `@pytest.mark.curator(kind=..., ...)`
marker (`task="summary"`: a test that runs one prompt takes that task's items only).
Without a bundle those tests are skipped, as Mattermost's evals skip without GOEVALS.
`assert_fields` and `assert_rubric` record evals.jsonl lines (`--curator-evals`, default
./evals.jsonl); under pytest-xdist each worker writes its part and the controller merges
them, sorted, when the session ends. A session over a bundle that recorded no line is an
error (exit 2, one line), never a pass, and leaves an empty evals.jsonl, which
`curator view --check` refuses too: a stale file from an earlier run must not stand in.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

BUNDLE_ENV = "CURATOR_BUNDLE"
NO_RESULTS_EXIT = 2  # bad input, as the CLI's: nothing was recorded to judge the run by
_STATE = pytest.StashKey["_Session"]()
MARKER = "curator"
_MARKER_FILTERS = {
    "kind": "kinds",
    "category": "categories",
    "mutation": "mutations",
    "doc_type": "doc_types",
    "task": "tasks",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("curator", "curator: eval tests over a fixture bundle")
    group.addoption(
        "--curator-bundle",
        metavar="PATH",
        help=f"bundle directory or .tar.gz to parametrise curator_item over (or ${BUNDLE_ENV})",
    )
    group.addoption(
        "--curator-judge", metavar="NAME", help="judge for assert_rubric: rules or openai"
    )
    group.addoption("--curator-judge-model", metavar="MODEL", help="model of the openai judge")
    group.addoption(
        "--curator-judge-dir", metavar="DIR", help="verdict cache and calibrations folder"
    )
    group.addoption(
        "--curator-offline", action="store_true", help="replay verdicts from the cache only"
    )
    group.addoption(
        "--curator-threshold",
        type=float,
        metavar="SCORE",
        help="score a rubric verdict needs (default: [judge] threshold, 0.6)",
    )
    group.addoption(
        "--curator-evals",
        metavar="FILE",
        default="evals.jsonl",
        help="where assertions record evals.jsonl lines (default: ./evals.jsonl)",
    )
    for name, what in (
        ("category", "category"),
        ("mutation", "mutation kind ('none': goldens)"),
        ("doc-type", "doc type"),
        ("kind", "kind (document, thread)"),
        ("task", "named task ('default': fixtures without named tasks)"),
    ):
        group.addoption(
            f"--curator-{name}",
            action="append",
            default=[],
            metavar="NAME",
            help=f"only fixtures of this {what} (repeatable)",
        )
    group.addoption(
        "--curator-adversarial",
        dest="curator_adversarial",
        action="store_const",
        const=True,
        help="only adversarial fixtures",
    )
    group.addoption(
        "--curator-golden",
        dest="curator_adversarial",
        action="store_const",
        const=False,
        help="only fixtures that are not adversarial",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(kind=, category=, mutation=, doc_type=, task=, adversarial=): "
        "narrow the bundle fixtures curator_item runs over",
    )
    session = _Session(config)
    config.stash[_STATE] = session
    if session.evals is not None and not _is_worker(config):
        _clear(session.parts)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "curator_item" not in metafunc.fixturenames:
        return
    session = metafunc.config.stash[_STATE]
    if session.bundle_path is None:
        reason = f"no bundle: run pytest --curator-bundle PATH (or set ${BUNDLE_ENV})"
        metafunc.parametrize(
            "curator_item",
            [pytest.param(None, marks=pytest.mark.skip(reason=reason))],
            ids=["no-bundle"],
            indirect=True,
        )
        return
    from curator.eval.items import select
    from curator.eval.runner import repetitions

    chosen = select(session.items(), **session.filters())
    for marker in metafunc.definition.iter_markers(MARKER):  # each narrows further
        unknown = set(marker.kwargs) - set(_MARKER_FILTERS) - {"adversarial"}
        if unknown:
            raise pytest.UsageError(f"@pytest.mark.{MARKER}: unknown filter {sorted(unknown)[0]!r}")
        narrowed = {
            _MARKER_FILTERS[key]: _listed(value)
            for key, value in marker.kwargs.items()
            if key in _MARKER_FILTERS
        }
        chosen = select(chosen, **narrowed, adversarial=marker.kwargs.get("adversarial"))
    if not chosen:
        nothing = pytest.param(
            None, marks=pytest.mark.skip(reason="no fixture of the bundle matches the filters")
        )
        metafunc.parametrize("curator_item", [nothing], ids=["no-fixture"], indirect=True)
        return
    repeat = repetitions(None)
    params = [item.for_run(number) for item in chosen for number in range(repeat)]
    ids = [
        _test_id(item) if repeat == 1 else f"{_test_id(item)}-run{item.run_number}"
        for item in params
    ]
    metafunc.parametrize("curator_item", params, ids=ids, indirect=True)


def _test_id(item: Any) -> str:
    return item.id if item.task is None else f"{item.id}[{item.task}]"


@pytest.fixture
def curator_item(request: pytest.FixtureRequest) -> Any:
    """One bundle fixture (or one of its named tasks) as an EvalItem (curator.eval.items):
    input, task, field definitions, rubrics."""
    recorder = request.config.stash[_STATE].recorder()
    recorder.test = request.node.nodeid
    yield request.param
    recorder.test = None


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None:
        return
    if session.config.getoption("collectonly"):  # nothing ran: nothing to record
        state.close()
        return
    recorded = state.finish(_is_worker(session.config))
    if recorded == 0 and session.exitstatus in (0, 5):  # 5: no test collected
        sys.stderr.write(
            f"curator: error: {state.evals}: no results were recorded (no test over the "
            "bundle called assert_fields or assert_rubric)\n"
        )
        session.exitstatus = NO_RESULTS_EXIT


class _Session:
    """The plugin's per-process state: the bundle, the judge and the recorder."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        given = config.getoption("curator_bundle") or os.environ.get(BUNDLE_ENV)
        self.bundle_path = Path(given) if given else None
        self.evals = Path(config.getoption("curator_evals")) if self.bundle_path else None
        self.parts = Path(f"{self.evals}.parts") if self.evals else Path()
        self._items: list[Any] | None = None
        self._recorder: Any = None

    def filters(self) -> dict[str, Any]:
        option = self.config.getoption
        return {
            "categories": option("curator_category"),
            "mutations": option("curator_mutation"),
            "doc_types": option("curator_doc_type"),
            "kinds": option("curator_kind"),
            "tasks": option("curator_task"),
            "adversarial": option("curator_adversarial"),
        }

    def items(self) -> list[Any]:
        if self._items is None:
            from curator.errors import CuratorError
            from curator.eval.items import load_items

            try:
                self._items = load_items(self.bundle_path).items  # type: ignore[arg-type]
            except CuratorError as error:
                raise pytest.UsageError(f"--curator-bundle: {error}") from None
        return self._items

    def recorder(self) -> Any:
        if self._recorder is None:
            from curator.eval.asserts import Recorder, activate
            from curator.judge.location import judge_settings, store_root

            option = self.config.getoption
            root = store_root()
            settings = judge_settings(root)
            judge = None
            if option("curator_judge"):
                from curator.errors import CuratorError
                from curator.judge.select import open_judge

                folder = option("curator_judge_dir")
                try:
                    judge = open_judge(
                        option("curator_judge"),
                        model=option("curator_judge_model"),
                        settings=settings,
                        offline=option("curator_offline"),
                        folder=Path(folder) if folder else None,
                        store_root=root,
                    )
                except CuratorError as error:
                    raise pytest.UsageError(f"--curator-judge: {error}") from None
            threshold = option("curator_threshold")
            self._recorder = Recorder(
                judge,
                settings.threshold if threshold is None else threshold,
                max_answer_bytes=settings.max_reply_bytes,
            )
            activate(self._recorder)
        return self._recorder

    def close(self) -> None:
        if self._recorder is not None and self._recorder.judge is not None:
            self._recorder.judge.close()

    def finish(self, worker: bool) -> int | None:
        """Write this process's lines (a worker: its part); the lines in evals.jsonl, or None
        where no file is this process's to write (no bundle, a worker)."""
        self.close()
        if self.evals is None:
            return None
        from curator.eval import records

        mine = self._recorder.lines if self._recorder is not None else []
        if worker:
            if mine:
                name = self.config.workerinput["workerid"]  # type: ignore[attr-defined]
                records.write(self.parts / f"{name}.jsonl", mine)
            return None
        lines = list(mine) + _read_parts(self.parts)
        _clear(self.parts)
        if lines or self.evals.exists():  # no lines: an earlier run's results must not stay
            lines.sort(key=lambda line: (line.name, line.run_number, line.test or ""))
            records.write(self.evals, lines)
        return len(lines)


def _read_parts(parts: Path) -> list[Any]:
    from curator.model import EvalLine

    if not parts.is_dir():
        return []
    return [
        EvalLine.model_validate_json(raw)
        for path in sorted(parts.glob("*.jsonl"))
        for raw in path.read_text(encoding="utf-8").splitlines()
        if raw.strip()
    ]


def _clear(parts: Path) -> None:
    import shutil

    if parts.name and parts.is_dir():
        shutil.rmtree(parts, ignore_errors=True)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _listed(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple | set) else [value]
