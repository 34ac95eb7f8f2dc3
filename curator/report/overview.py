"""The report's first sections: what the bundle is, the gate's verdict, and the bundle's
composition (category x mutation kind, statuses, adversarial share)."""

from __future__ import annotations

from collections import Counter

from curator import palette
from curator.bundle.stats import kind_of, tabulate
from curator.report import svg
from curator.report.inputs import ReportInputs
from curator.report.markup import Raw, figure, number, paragraph, percent, section, table


def summary(inputs: ReportInputs) -> str:
    manifest = inputs.manifest
    counts = manifest.counts
    rows = [
        ("bundle", f"{manifest.bundle_version}, built by curator {manifest.curator_version}"),
        (
            "fixtures",
            f"{counts.total}: {counts.total - counts.adversarial} golden, {counts.adversarial} "
            "adversarial",
        ),
        ("truth as of", manifest.built_at),
        ("content sha256", manifest.content_sha256[:16]),
        ("gate report", _verdict(inputs)),
        ("eval runs", ", ".join(r.label for r in inputs.runs) or "none given"),
    ]
    body = table(["", ""], rows)
    gate = inputs.gate
    if gate is not None:
        body += table(
            ["gate", "status", "value", "threshold", "detail"],
            [
                (
                    c.name,
                    Raw(f'<span class="status {c.status}">{c.status.upper()}</span>'),
                    number(c.value),
                    number(c.threshold),
                    c.detail,
                )
                for c in gate.gates
            ],
            numeric=(2, 3),
            caption=f"Floors of the gate run on {gate.predictions}",
        )
    return section("summary", "Summary", body)


def composition(inputs: ReportInputs) -> str:
    entries = inputs.manifest.fixtures
    table_counts, kinds = tabulate(
        (e.category, kind_of(e.mutation_kinds, e.adversarial)) for e in entries
    )
    colours = {kind: palette.SERIES[i % len(palette.SERIES)] for i, kind in enumerate(kinds)}
    bars = [
        svg.Bar(
            category,
            [
                svg.Segment(
                    row.get(kind, 0), colours[kind], f"{category}, {kind}: {row.get(kind, 0)}"
                )
                for kind in kinds
            ],
            f"{sum(row.values())} fixtures",
        )
        for category, row in table_counts.items()
    ]
    largest = max((sum(row.values()) for row in table_counts.values()), default=1)
    chart = svg.bar_chart(
        bars, svg.count_axis("fixtures", largest), "fixtures by category and mutation kind"
    )
    legend = svg.legend([(colours[kind], kind) for kind in kinds])
    grid = table(
        ["category", *kinds, "total"],
        [
            (category, *(row.get(k, 0) for k in kinds), sum(row.values()))
            for category, row in table_counts.items()
        ],
        numeric=tuple(range(1, len(kinds) + 2)),
    )
    total = len(entries)
    adversarial = sum(1 for e in entries if e.adversarial)
    statuses = Counter(e.status.value for e in entries)
    kinds_of = Counter(
        f"{e.kind.value} ({e.doc_type})" if e.doc_type else e.kind.value for e in entries
    )
    body = (
        figure(
            chart,
            "Fixtures by category, split by how they became adversarial "
            "(none: a golden; promoted: a production failure; mutations joined by +).",
            legend,
        )
        + grid
        + paragraph(
            f"Adversarial share {percent(adversarial / total if total else None)} "
            f"({adversarial} of {total} fixtures)."
        )
        + '<div class="pair">'
        + table(["status", "fixtures"], sorted(statuses.items()), numeric=(1,))
        + table(["kind", "fixtures"], sorted(kinds_of.items()), numeric=(1,))
        + "</div>"
    )
    return section("composition", "Composition", body)


def _verdict(inputs: ReportInputs) -> str:
    gate = inputs.gate
    if gate is None:
        return "none given"
    failed = [c.name for c in gate.gates if c.status == "fail"]
    verdict = "passed" if gate.passed else f"FAILED ({', '.join(failed)})"
    return (
        f"{verdict}: {gate.fixtures_passed}/{gate.fixtures_total} fixtures right, predictions "
        f"{gate.predictions}"
    )
