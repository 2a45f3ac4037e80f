"""Events' own ranked deals (``Source.EVENT``: a seeded tournament's), as their owners say.

The games app plays these deals but does not know the apps that own them (tournaments sit
above games). An owner registers an :class:`EventDeals` at ``ready()``; the games app asks
the registry three things, each as it asks them of a daily:

* which of the deals are **live** (still ranked at a moment): the live-deal refusal covers
  them (``games.daily.live``), with the owner's own refusal code;
* a deal's **deadline**: when its ranked plays close. The move path expires a play touched
  after it with ``ranked_play_expired`` (``games.moving``), as it does a daily's;
* which deals **closed** lately: the expiry beat closes their untouched open plays
  (``games.expiry``).

Kept in one place so the three never disagree: a deal stops being live, its plays stop
moving and it may be published at the same deadline.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EventDeals:
    """One app's event deals. ``name`` is the kind of live deal a refusal reports;
    ``refusal_code``/``refusal_detail`` the problem a practice start or a hint of a live one
    gets (its code in ``config.web.catalogue``)."""

    name: str
    #: ``live(now)``: the ids of the deals still ranked at ``now``.
    live: Callable[[dt.datetime | None], Iterable[uuid.UUID]]
    #: ``deadline(deal_id)``: when the deal's ranked plays close (None: not this app's deal).
    deadline: Callable[[Any], dt.datetime | None]
    #: ``closed(now)``: the ids of deals whose deadline passed lately (the beat's lookback).
    closed: Callable[[dt.datetime], Iterable[uuid.UUID]]
    refusal_code: str
    refusal_detail: str


_REGISTRY: dict[str, EventDeals] = {}


def register(deals: EventDeals) -> None:
    """Add an app's event deals to the registry; registering a name again replaces it."""
    _REGISTRY[deals.name] = deals


def registered() -> list[EventDeals]:
    return list(_REGISTRY.values())


def get(name: str) -> EventDeals | None:
    return _REGISTRY.get(name)


def deadline(deal_id: Any) -> dt.datetime | None:
    """When the ranked plays of event deal ``deal_id`` close, by its owner (None: no owner
    claims it, and nothing closes it)."""
    for deals in _REGISTRY.values():
        found = deals.deadline(deal_id)
        if found is not None:
            return found
    return None


def closed_deal_ids(now: dt.datetime) -> set[uuid.UUID]:
    """The event deals whose deadline passed lately, by every owner."""
    ids: set[uuid.UUID] = set()
    for deals in _REGISTRY.values():
        ids.update(deals.closed(now))
    return ids
