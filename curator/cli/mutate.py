"""curator mutate: its mutation options are the ones the registered mutations declare."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env
from curator.mutate.registry import Option, options

if TYPE_CHECKING:
    from curator.mutate.engine import VariantReport


def mutation_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """One click option per Option or Switch the mutations declare, in registry order."""
    for _, option in reversed(options()):
        if isinstance(option, Option):
            add = click.option(
                option.flag,
                option.key,
                type=option.type,
                default=None,
                metavar=option.placeholder,
                is_flag=False,
                flag_value=option.bare,
                help=option.help,
            )
        else:
            add = click.option(option.flag, option.key, is_flag=True, help=option.help)
        command = add(command)
    return command


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@mutation_options
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Same seed, same variant bytes."
)
@click.option(
    "--refresh",
    is_flag=True,
    help="Regenerate variants whose parent has newer labels (IDs: only these).",
)
@prints_result
@pass_env
def mutate(env: Env, ids: tuple[str, ...], seed: int, refresh: bool, **chain: Any) -> VariantReport:
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
    from curator.mutate.registry import option_usages, steps_from_options

    # click passes the options in the order they were given on the command line: that is the chain.
    steps = steps_from_options(chain.items())
    if refresh:
        if steps:
            raise CuratorError(
                "--refresh regenerates variants from their own lineage; give no mutation options"
            )
        return refresh_variants(env.store(), ids)
    if not steps:
        raise CuratorError(f"give a mutation: {', '.join(option_usages())}")
    return make_variants(env.store(), ids, steps, seed)
