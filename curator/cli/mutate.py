"""curator mutate: its mutation options are the ones the registered mutations declare."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from curator.cli.common import emit, json_option
from curator.mutate.registry import Option, option_usages, options


def mutation_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add one click option per declared mutation Option or Switch, in registry order."""
    for _, option in reversed(options()):
        if isinstance(option, Option):
            add = click.option(option.flag, option.key, type=option.type, default=None, metavar=option.placeholder,
                               is_flag=False, flag_value=option.bare, help=option.help)
        else:
            add = click.option(option.flag, option.key, is_flag=True, help=option.help)
        command = add(command)
    return command


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@mutation_options
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same variant bytes.")
@click.option("--refresh", is_flag=True, help="Regenerate variants whose parent has newer labels (IDs: only these).")
@json_option
@click.pass_obj
def mutate(env, ids: tuple[str, ...], seed: int, refresh: bool, as_json: bool, **chain: Any) -> None:  # noqa: ANN001
    """Make adversarial variants of fixtures, with their labels transformed to match.

    Several mutation options chain in the order given. Put the IDs first, since
    --truncate and --ocr-noise take an optional value.

    \b
    Examples:
      curator mutate lease-maple-court-1a2b3c4d --truncate 0.6 --ocr-noise 0.08 --seed 7
      curator mutate lease-maple-court-1a2b3c4d --contradict monthly_rent --amendment-first
      curator mutate --refresh
    """
    from curator.errors import CuratorError
    from curator.mutate.engine import mutate as make_variants
    from curator.mutate.engine import refresh as refresh_variants
    from curator.mutate.registry import steps_from_options

    # click passes parameters in the order they were given on the command line: that is the chain.
    steps = steps_from_options(chain.items())
    store = env.store()
    if refresh:
        if steps:
            raise CuratorError("--refresh regenerates variants from their own lineage; give no mutation options")
        results = refresh_variants(store, ids)
    else:
        if not steps:
            raise CuratorError(f"give a mutation: {', '.join(option_usages())}")
        results = make_variants(store, ids, steps, seed)

    def text() -> str:
        lines = []
        for r in results:
            if r["state"] == "fresh":
                lines.append(f"{r['id']}: up to date with {r['parent']}")
                continue
            measured = "; ".join(
                f"{m['name']} " + ", ".join(f"{k}={v}" for k, v in m["measured"].items() if not isinstance(v, dict | list))
                for m in r["mutations"]
            )
            hint = " (parent has newer labels: run curator mutate --refresh)" if r["state"] == "stale" else ""
            lines.append(f"{r['state']} {r['id']} from {r['parent']} [{r['category']}, {r['status']}]: {measured}{hint}")
        return "\n".join(lines) or "nothing to refresh"

    emit(as_json, {"variants": results}, text)
