"""A board entry's details: the columns a row shows, the compact string Redis keeps beside
each member (``info_of``, parsed back by ``entry_of``), and a page's entries with their
details (``hydrate``), read from PostgreSQL by key for whatever Redis did not give."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import store
    from .refs import BoardRef


DAILY_FIELDS = (
    "player__username",
    "won",
    "foundation_cards",
    "moves",
    "seconds",
    "undos",
    "finished_at",
)
TOTAL_FIELDS = ("player__username", "wins", "points", "plays")


def detail_fields(ref: BoardRef) -> tuple[str, ...]:
    return DAILY_FIELDS if ref.is_daily else TOTAL_FIELDS


def _iso(value: dt.datetime | None) -> str | None:
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if value else None


def info_of(ref: BoardRef, details: Any) -> str:
    """An entry's details as Redis keeps them (``detail_fields`` order, ``|``-separated)."""
    if ref.is_daily:
        username, won, cards, moves, seconds, undos, finished_at = details
        return (
            f"{username}|{int(won)}|{cards}|{moves}|{round(seconds, 2)!r}|{undos}|"
            f"{_iso(finished_at)}"
        )
    username, wins, points, plays = details
    return f"{username}|{wins}|{points}|{plays}"


def entry_of(ref: BoardRef, rank: int, info: str) -> dict[str, Any]:
    """The API entry of ``info`` (parsed from the right: a username may hold anything)."""
    if ref.is_daily:
        username, won, cards, moves, seconds, undos, finished_at = info.rsplit("|", 6)
        return {
            "rank": rank,
            "username": username,
            "won": won == "1",
            "foundation_cards": int(cards),
            "moves": int(moves),
            "seconds": float(seconds),
            "undos": int(undos),
            "finished_at": finished_at,
        }
    username, wins, points, plays = info.rsplit("|", 3)
    return {
        "rank": rank,
        "username": username,
        "wins": int(wins),
        "points": int(points),
        "plays": int(plays),
    }


def hydrate(ref: BoardRef, page: store.Page, viewer: int | None = None) -> list[dict[str, Any]]:
    """The entries of ``page`` with their details, ranked from ``page.start + 1``.

    Details come with a Redis page; whatever is missing is read from PostgreSQL by key
    (``viewer``'s own hidden score included, as on their page).
    """
    infos = list(page.infos) if page.infos is not None else [None] * len(page.entries)
    missing = [m for (_, m), info in zip(page.entries, infos, strict=True) if info is None]
    if missing:
        ties = [ref.tie_value(m) for m in missing]
        rows = ref.queryset(players=None if ref.is_daily else ties, viewer=viewer)
        if ref.is_daily:
            rows = rows.filter(play_id__in=ties)
        found = {
            ref.member(tie): info_of(ref, details)
            for tie, *details in rows.values_list(ref.tie_field, *detail_fields(ref))
        }
        infos = [
            info if info is not None else found.get(m)
            for (_, m), info in zip(page.entries, infos, strict=True)
        ]
    entries = []
    for offset, info in enumerate(infos):
        if info is None:  # deleted since (a user removed): skip, ranks keep their places
            continue
        entries.append(entry_of(ref, page.start + offset + 1, info))
    return entries
