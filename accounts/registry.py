"""What each app keeps of an account, for deletion and export.

Accounts sit below the apps that store a player's data (games, leaderboard, fair play) and
import none of them: each app registers its part here at ``AppConfig.ready()``. Deleting an
account runs every part's ``delete`` in the deleting transaction, before the user row goes
(rows that simply cascade need no part); exporting one gathers every part's ``export`` under
the part's name. Parts run in the order they were registered, so an app's ``ready()`` order
(``INSTALLED_APPS``) is theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Exporter = Callable[[int], Any]
Deleter = Callable[[int], None]


@dataclass(frozen=True)
class AccountPart:
    name: str  #: the key of the part in the export ("plays", "scores", ...)
    export: Exporter | None = None  #: the account's data of this part, as JSON values
    delete: Deleter | None = None  #: remove or hand on what a cascade would not get right


_parts: dict[str, AccountPart] = {}


def register_part(
    name: str, *, export: Exporter | None = None, delete: Deleter | None = None
) -> None:
    """Register (or replace, for a re-run ``ready()``) the part called ``name``."""
    _parts[name] = AccountPart(name, export, delete)


def parts() -> list[AccountPart]:
    return list(_parts.values())


def export_account(user_id: int) -> dict[str, Any]:
    """Every registered part's data of the account, under the part's name."""
    return {part.name: part.export(user_id) for part in parts() if part.export is not None}
