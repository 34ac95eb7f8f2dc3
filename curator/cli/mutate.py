"""curator mutate."""

from __future__ import annotations

import click

from curator.cli.common import emit, json_option


@click.command()
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--truncate", type=float, is_flag=False, flag_value=0.6, default=None, metavar="[F]",
              help="Cut documents at fraction F (default 0.6) mid-sentence; threads keep the first F of posts.")
@click.option("--pages", type=int, metavar="N", help="Cut documents after N pages.")
@click.option("--ocr-noise", "ocr_noise", type=float, is_flag=False, flag_value=0.05, default=None,
              metavar="[CER]", help="Tesseract-like character errors at rate CER (default 0.05), calibrated.")
@click.option("--render", is_flag=True, help="With --ocr-noise: render, degrade and really OCR the pages.")
@click.option("--bilingual", metavar="LANG", help="Translate field label phrases into LANG (fr, de, es, it, pt, nl...).")
@click.option("--contradict", metavar="FIELD", help="Append a later amendment that changes FIELD.")
@click.option("--amendment-first", is_flag=True, help="With --contradict: put the amendment before the base text.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same variant bytes.")
@click.option("--refresh", is_flag=True, help="Regenerate variants whose parent has newer labels (IDs: only these).")
@json_option
@click.pass_obj
@click.pass_context
def mutate(ctx: click.Context, env, ids: tuple[str, ...], render: bool, amendment_first: bool,  # noqa: ANN001
           seed: int, refresh: bool, as_json: bool, **_: object) -> None:
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
    from curator.mutate.engine import steps_from_options

    # ctx.params keeps the order options were given on the command line: that is the chain.
    steps = steps_from_options(list(ctx.params.items()), render=render, amendment_first=amendment_first)
    store = env.store()
    if refresh:
        if steps:
            raise CuratorError("--refresh regenerates variants from their own lineage; give no mutation options")
        results = refresh_variants(store, ids)
    else:
        if not steps:
            raise CuratorError("give a mutation: --truncate, --pages, --ocr-noise, --bilingual or --contradict")
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
