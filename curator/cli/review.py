"""curator review push / pull: the round trip through Label Studio."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import STATUSES, prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.review.pull import PullReport
    from curator.review.push import ProjectPush

url_option = click.option(
    "--url",
    envvar="LABEL_STUDIO_URL",
    metavar="URL",
    help="Label Studio address, e.g. http://localhost:8080 (or $LABEL_STUDIO_URL).",
)
# The key goes to the SDK client only: never shown, echoed, logged or stored.
key_option = click.option(
    "--api-key",
    envvar="LABEL_STUDIO_API_KEY",
    metavar="KEY",
    help="Personal access token or legacy token (or $LABEL_STUDIO_API_KEY).",
)


@click.group()
def review() -> None:
    """Push fixtures to Label Studio for review; pull annotations back as label revisions."""


@dataclass
class Pushed:
    projects: list[ProjectPush]
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"projects": [p.as_dict() for p in self.projects]}

    def render(self) -> str:
        if not self.projects:
            return "nothing to push"
        return "\n".join(
            f"{p.title} (project {p.project_id}): {len(p.created)} created, "
            f"{len(p.updated)} updated, {len(p.unchanged)} unchanged"
            for p in self.projects
        )


@review.command("push")
@click.argument("ids", nargs=-1, metavar="[ID...]")
@click.option(
    "--status",
    type=click.Choice([s for s in STATUSES if s != "retired"]),
    help="Push fixtures in this status (default: draft and needs-review).",
)
@url_option
@key_option
@prints_result
@pass_env
def push_command(
    env: Env, ids: tuple[str, ...], status: str | None, url: str | None, api_key: str | None
) -> Pushed:
    """Send fixtures as tasks with their labels pre-annotated; they move to needs-review.

    Example: curator review push --url http://localhost:8080 lease-maple-1a2b3c4d
    """
    from curator.review.client import connect
    from curator.review.push import push

    store = env.store()
    return Pushed(push(store, connect(url, api_key), ids, status))


@review.command("pull")
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Tasks per export request; each batch is written to the store on its own.",
)
@url_option
@key_option
@prints_result
@pass_env
def pull_command(env: Env, batch_size: int, url: str | None, api_key: str | None) -> PullReport:
    """Turn new annotations into label revisions; report agreement between annotators.

    Example: curator review pull --url http://localhost:8080
    """
    from curator.review.client import connect
    from curator.review.pull import pull

    return pull(env.store(), connect(url, api_key), batch_size=batch_size)
