"""curator init / list / show / validate."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import KINDS, STATUSES, prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.model import Fixture
    from curator.show import FixtureView
    from curator.validate import Finding


@dataclass
class Created:
    root: Path
    exit_code = 0

    def as_json(self) -> dict[str, str]:
        return {"store": str(self.root)}

    def render(self) -> str:
        return f"created a curator store in {self.root}"


@click.command()
@click.argument("path", type=click.Path(file_okay=False, path_type=Path), default=".")
@prints_result
def init(path: Path) -> Created:
    """Create a store in PATH (default: here).

    Example: curator init goldenset
    """
    from curator.store import Store

    return Created(Store.init(path).root)


@dataclass
class Listing:
    fixtures: list[Fixture]
    exit_code = 0

    def as_json(self) -> list[dict[str, Any]]:
        return [
            {
                "id": f.id,
                "kind": f.kind.value,
                "doc_type": f.doc_type,
                "category": f.category,
                "status": f.status.value,
                "adversarial": f.adversarial,
            }
            for f in self.fixtures
        ]

    def render(self) -> str:
        return (
            "\n".join(
                f"{f.id:<48} {f.kind.value:<8} {f.doc_type or '-':<8} {f.category:<20} "
                f"{f.status.value}"
                for f in self.fixtures
            )
            or "no fixtures"
        )


@click.command("list")
@click.option("--status", type=click.Choice(STATUSES))
@click.option("--kind", type=click.Choice(KINDS))
@click.option("--adversarial", is_flag=True, default=None, help="Only adversarial fixtures.")
@prints_result
@pass_env
def list_fixtures(
    env: Env, status: str | None, kind: str | None, adversarial: bool | None
) -> Listing:
    """List fixtures, optionally filtered.

    Example: curator list --status active --kind document
    """
    return Listing(env.store().select(status=status, kind=kind, adversarial=adversarial))


@click.command()
@click.argument("fixture_id", metavar="ID")
@click.option(
    "--text", "with_text", is_flag=True, help="Also print the content: every page, or every post."
)
@prints_result
@pass_env
def show(env: Env, fixture_id: str, with_text: bool) -> FixtureView:
    """Show one fixture: metadata, content summary and current labels.

    Example: curator show lease-maple-court-1a2b3c4d --text
    """
    from curator.show import FixtureView

    return FixtureView(env.store().load(fixture_id), with_text)


@dataclass
class Validation:
    findings: list[Finding]
    fixtures: int

    @property
    def exit_code(self) -> int:
        return 1 if self.findings else 0

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": not self.findings,
            "fixtures": self.fixtures,
            "problems": [f.as_dict() for f in self.findings],
        }

    def render(self) -> str:
        return (
            "\n".join(f"{f.fixture}: {f.problem}" for f in self.findings)
            or f"ok: {self.fixtures} fixtures valid"
        )


@click.command()
@prints_result
@pass_env
def validate(env: Env) -> Validation:
    """Check schema, lineage and label integrity of every fixture; exit 1 on problems.

    Example: curator validate --json
    """
    from curator.validate import validate_store

    store = env.store()
    findings = validate_store(store)
    return Validation(findings, len(store.ids()))
