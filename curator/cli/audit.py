"""curator audit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.anonymise import Leak, Suspect


@dataclass
class AuditReport:
    leaks: list[Leak]

    @property
    def exit_code(self) -> int:
        return 1 if self.leaks else 0

    def as_json(self) -> dict[str, Any]:
        return {"clean": not self.leaks, "leaks": [leak.as_dict() for leak in self.leaks]}

    def render(self) -> str:
        lines = [str(leak) for leak in self.leaks]
        lines.append(f"{len(self.leaks)} leak(s) found" if self.leaks else "no leaks found")
        return "\n".join(lines)


@dataclass
class SuspectReport:
    """What was kept but looks personal: for a person to decide, so never a failure."""

    suspects: list[Suspect]
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"suspects": [suspect.as_dict() for suspect in self.suspects]}

    def render(self) -> str:
        lines = [str(suspect) for suspect in self.suspects]
        lines.append(
            f"{len(self.suspects)} suspect(s): curator vault add TERM --kind KIND if one is "
            "personal (of the kind shown), curator vault forget TERM if it is not"
            if self.suspects
            else "no suspects"
        )
        return "\n".join(lines)


@click.command()
@click.option(
    "--ner-model",
    metavar="NAME",
    help="A spaCy model to find names with: NAME or a path to a saved spaCy pipeline (never "
    "downloaded).",
)
@click.option(
    "--suspects",
    is_flag=True,
    help="List what was kept but looks personal (masked), instead of the leaks.",
)
@prints_result
@pass_env
def audit(env: Env, ner_model: str | None, suspects: bool) -> AuditReport | SuspectReport:
    """Scan every fixture and bundle for vault originals and pattern PII; exit 1 on a leak.

    A fixture unchanged since its last verdict, judged the same way (same vault, keep terms
    and anonymiser), keeps that verdict: a second audit judges only what changed.

    Example: curator audit --json; curator audit --suspects
    """
    from curator.anonymise import audit_store

    if suspects:
        from curator.anonymise import detector_for, find_suspects

        return SuspectReport(find_suspects(env.store(), detector_for(ner_model)))
    if not ner_model:  # the default detector: built only if some fixture changed since its verdict
        return AuditReport(audit_store(env.store()))
    from curator.anonymise import detector_for

    detector = detector_for(ner_model)  # a missing model is an error before anything is read
    return AuditReport(audit_store(env.store(), detector))
