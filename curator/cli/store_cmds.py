"""curator init / list / show / validate."""

from __future__ import annotations

from pathlib import Path

import click

from curator.cli.common import STATUSES, emit, json_option


@click.command()
@click.argument("path", type=click.Path(file_okay=False, path_type=Path), default=".")
@json_option
def init(path: Path, as_json: bool) -> None:
    """Create a store in PATH (default: here).

    Example: curator init goldenset
    """
    from curator.store import Store

    store = Store.init(path)
    emit(as_json, {"store": str(store.root)}, f"created a curator store in {store.root}")


@click.command("list")
@click.option("--status", type=click.Choice(STATUSES))
@click.option("--kind", type=click.Choice(["thread", "document"]))
@click.option("--adversarial", is_flag=True, default=None, help="Only adversarial fixtures.")
@json_option
@click.pass_obj
def list_fixtures(env, status: str | None, kind: str | None, adversarial: bool | None, as_json: bool) -> None:  # noqa: ANN001
    """List fixtures, optionally filtered.

    Example: curator list --status active --kind document
    """
    fixtures = env.store().select(status=status, kind=kind, adversarial=adversarial)
    rows = [
        {
            "id": f.id,
            "kind": f.kind.value,
            "doc_type": f.doc_type,
            "category": f.category,
            "status": f.status.value,
            "adversarial": f.adversarial,
        }
        for f in fixtures
    ]

    def text() -> str:
        return "\n".join(
            f"{r['id']:<48} {r['kind']:<8} {r['doc_type'] or '-':<8} {r['category']:<20} {r['status']}"
            for r in rows
        ) or "no fixtures"

    emit(as_json, rows, text)


@click.command()
@click.argument("fixture_id", metavar="ID")
@json_option
@click.pass_obj
def show(env, fixture_id: str, as_json: bool) -> None:  # noqa: ANN001
    """Show one fixture: metadata, content summary and current labels.

    Example: curator show lease-maple-court-1a2b3c4d
    """
    from curator.show import describe, render

    record = env.store().load(fixture_id)
    emit(as_json, describe(record), lambda: render(record))


@click.command()
@json_option
@click.pass_obj
@click.pass_context
def validate(ctx: click.Context, env, as_json: bool) -> None:  # noqa: ANN001
    """Check schema, lineage and label integrity of every fixture; exit 1 on problems.

    Example: curator validate --json
    """
    from curator.validate import validate_store

    store = env.store()
    findings = validate_store(store)
    emit(
        as_json,
        {"ok": not findings, "fixtures": len(store.ids()), "problems": [f.as_dict() for f in findings]},
        lambda: "\n".join(f"{f.fixture}: {f.problem}" for f in findings)
        or f"ok: {len(store.ids())} fixtures valid",
    )
    if findings:
        ctx.exit(1)
