"""curator export: a verified bundle as the files each eval harness's own loader reads."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from curator.cli.common import prints_result

if TYPE_CHECKING:
    from curator.harness import ExportResult

_PATH = click.Path(path_type=Path)
TARGETS = ["inspect", "deepeval", "ragas", "promptfoo", "langfuse", "all"]


@click.command()
@click.argument("bundle", type=_PATH)
@click.option("--to", "to", required=True, type=click.Choice(TARGETS), help="The harness.")
@click.option(
    "--out",
    required=True,
    type=_PATH,
    metavar="DIR",
    help="Where to write; each harness gets its own folder DIR/<harness>/.",
)
@click.option(
    "--push",
    metavar="URL",
    help="Also send the Langfuse items to the Langfuse server at URL (needs the langfuse "
    "package, and LANGFUSE_PUBLIC_KEY / LANGFUSE_SECRET_KEY).",
)
@click.option(
    "--dataset",
    default="curator",
    show_default=True,
    metavar="NAME",
    help="The Langfuse dataset --push creates or updates.",
)
@prints_result
def export(bundle: Path, to: str, out: Path, push: str | None, dataset: str) -> ExportResult:
    """Export BUNDLE (a directory or .tar.gz) for inspect_ai, DeepEval, Ragas, promptfoo or
    Langfuse, in the files their own loaders take. A bundle that fails verification is not
    exported (exit 1).

    \b
    Example:
      curator export bundles/1.0.0 --to all --out exports
      curator export bundles/1.0.0 --to langfuse --out exports --push https://cloud.langfuse.com
    """
    from curator.harness import export_bundle

    return export_bundle(bundle, to, out, push=push, dataset=dataset)
