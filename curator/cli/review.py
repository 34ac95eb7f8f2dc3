"""curator review push / pull: the round trip through Label Studio."""

from __future__ import annotations

import click

from curator.cli.common import STATUSES, emit, json_option

url_option = click.option("--url", envvar="LABEL_STUDIO_URL", metavar="URL",
                          help="Label Studio address, e.g. http://localhost:8080 (or $LABEL_STUDIO_URL).")
# The key goes to the SDK client only: never shown, echoed, logged or stored.
key_option = click.option("--api-key", envvar="LABEL_STUDIO_API_KEY", metavar="KEY",
                          help="Personal access token or legacy token (or $LABEL_STUDIO_API_KEY).")


@click.group()
def review() -> None:
    """Push fixtures to Label Studio for review; pull annotations back as label revisions."""


@review.command("push")
@click.argument("ids", nargs=-1, metavar="[ID...]")
@click.option("--status", type=click.Choice([s for s in STATUSES if s != "retired"]),
              help="Push fixtures in this status (default: draft and needs-review).")
@url_option
@key_option
@json_option
@click.pass_obj
def push_command(env, ids: tuple[str, ...], status: str | None, url: str | None,  # noqa: ANN001
                 api_key: str | None, as_json: bool) -> None:
    """Send fixtures as tasks with their labels pre-annotated; they move to needs-review.

    Example: curator review push --url http://localhost:8080 lease-maple-1a2b3c4d
    """
    from curator.review.client import connect
    from curator.review.push import push

    store = env.store()
    results = push(store, connect(url, api_key), ids, status)

    def text() -> str:
        if not results:
            return "nothing to push"
        return "\n".join(
            f"{r.title} (project {r.project_id}): {len(r.created)} created, "
            f"{len(r.updated)} updated, {len(r.unchanged)} unchanged" for r in results)

    emit(as_json, {"projects": [r.as_dict() for r in results]}, text)


@review.command("pull")
@click.option("--batch-size", type=click.IntRange(min=1), default=100, show_default=True,
              help="Tasks per export request; each batch is written to the store on its own.")
@url_option
@key_option
@json_option
@click.pass_obj
def pull_command(env, batch_size: int, url: str | None, api_key: str | None,  # noqa: ANN001
                 as_json: bool) -> None:
    """Turn new annotations into label revisions; report agreement between annotators.

    Example: curator review pull --url http://localhost:8080
    """
    from curator.review.client import connect
    from curator.review.pull import pull

    report = pull(env.store(), connect(url, api_key), batch_size=batch_size)
    emit(as_json, report.as_dict(), lambda: "\n".join(report.lines()))
