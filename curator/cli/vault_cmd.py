"""curator vault: a person's decisions on what the anonymiser got wrong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from curator.cli.common import prints_result
from curator.cli.env import Env, pass_env

if TYPE_CHECKING:
    from curator.anonymise import Decision

# what `vault add --kind` takes (curator.anonymise.ADDABLE_KINDS, not imported: --help stays light)
ADDABLE = (
    "person",
    "first_name",
    "last_name",
    "organisation",
    "address",
    "username",
    "phone",
    "credit_card",
    "ssn",
)


@dataclass
class DecisionReport:
    decision: Decision
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return self.decision.as_dict()

    def render(self) -> str:
        decision = self.decision
        lines = [f"{fixture_id}: rewritten" for fixture_id in decision.fixtures]
        if decision.action == "add":
            lines.append(
                f"added a name, written {decision.shown!r} from now on; "
                f"{len(decision.fixtures)} fixture(s) rewritten"
            )
        else:
            lines.append(
                f"forgot {decision.shown!r}: kept as written from now on; "
                f"{len(decision.fixtures)} fixture(s) restored"
            )
        return "\n".join(lines)


@click.group()
def vault() -> None:
    """Repair what the anonymiser got wrong, in the whole store at once."""


@vault.command()
@click.argument("name")
@click.option(
    "--kind",
    type=click.Choice(ADDABLE),
    default="person",
    show_default=True,
    help="What the name or number is.",
)
@click.option(
    "--ner-model",
    metavar="NAME",
    help="An installed spaCy model: NAME or a path to a saved spaCy pipeline (never downloaded).",
)
@prints_result
@pass_env
def add(env: Env, name: str, kind: str, ner_model: str | None) -> DecisionReport:
    """A missed name or number: rewritten everywhere in the store now, and in every later
    import.

    Its words alone ("Sevilla" of "Charles Sevilla") are rewritten where their context names
    the person, as an import does; a number wherever it is written, with any separators.
    Only the pseudonym is printed.

    Example: curator vault add "Charles Sevilla"; curator vault add "450 0840" --kind phone
    """
    from curator.anonymise import add_name, detector_for

    return DecisionReport(add_name(env.store(), name, kind, detector_for(ner_model)))


@vault.command()
@click.argument("word")
@prints_result
@pass_env
def forget(env: Env, word: str) -> DecisionReport:
    """A word (or a number) that was never personal: wherever a pseudonym was written for
    it, it comes back, and it is kept as written from now on.

    Example: curator vault forget Display
    """
    from curator.anonymise import forget_word

    return DecisionReport(forget_word(env.store(), word))


@dataclass
class AuthorsReport:
    fixtures: list[str]
    exit_code = 0

    def as_json(self) -> dict[str, Any]:
        return {"fixtures": self.fixtures}

    def render(self) -> str:
        lines = [f"{fixture_id}: authors rewritten" for fixture_id in self.fixtures]
        return "\n".join([*lines, f"{len(self.fixtures)} fixture(s) had authors to rewrite"])


@vault.command()
@prints_result
@pass_env
def authors(env: Env) -> AuthorsReport:
    """Label authors (logins, e-mails) of earlier revisions as pseudonymous reviewer handles.

    New revisions get a handle when they are written; this repairs a store that holds
    authors from before.

    Example: curator vault authors
    """
    from curator.labels import pseudonymise_authors

    return AuthorsReport(pseudonymise_authors(env.store()))
