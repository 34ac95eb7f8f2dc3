"""The audit: every vault original and every pattern PII hit left in a text is a leak."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.anonymise.vault import Vault
    from curator.store import Store


@dataclass(frozen=True)
class Leak:
    location: str
    kind: str
    text: str
    start: int = 0
    end: int = 0

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def find_leaks(texts: Iterable[tuple[str, str]], vault: Vault | None) -> list[Leak]:
    raise NotImplementedError


def audit_store(store: Store) -> list[Leak]:
    raise NotImplementedError
