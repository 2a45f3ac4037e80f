"""The live daily deals: every stored daily whose ranked window is still open.

That is today's, yesterday's within the grace, and every future day already prepared
(``DAILY_DAYS_AHEAD``): none of them is published (``window.is_published``), so none may
be practised or hinted. A deck is compared by its canonical keys (``engine.deal_keys``:
suits relabelled, interchangeable piles reordered, any preset), so a disguised copy of a
live daily is recognised as well as the deck itself (docs/fair-play-rules.md).

A daily deal's deck never changes once stored, so its keys are computed once per process
and kept by the deal's id; a request reads the ids of the live dailies (a few dozen rows,
one query) and the decks only of those it has not met yet.

Other apps' ranked deals join the same refusal without games importing them: an app above
(the tournaments' own seeded deals) registers its event deals in ``games.events``, whose
``live`` says which are live; :func:`live_deal_kind` says which kind a deck matched
(``daily``, or the registered name), so a practice start and a hint refuse them, disguised
or not, each with its own code (``games.services.live_deal_refusal``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from games import engine, events
from games.models import Deal, Source

from .window import first_unpublished_day

#: Keys of live deals met so far, by deal id (a deal's deck never changes).
_KEYS: dict[uuid.UUID, frozenset[str]] = {}
_MAX_REMEMBERED = 1024

DAILY = "daily"


def _live_ids(now: dt.datetime | None) -> dict[uuid.UUID, str]:
    """The ids of every live deal, each with its kind: ``daily``, or an event owner's name."""
    live = Deal.objects.filter(source=Source.DAILY, date__gte=first_unpublished_day(now))
    kinds = dict.fromkeys(live.values_list("id", flat=True), DAILY)
    for deals in events.registered():
        for deal_id in deals.live(now):
            kinds.setdefault(deal_id, deals.name)
    return kinds


def _keys_by_kind(now: dt.datetime | None) -> dict[str, frozenset[str]]:
    kinds = _live_ids(now)
    found = {deal_id: _KEYS.get(deal_id) for deal_id in kinds}
    unknown = [deal_id for deal_id, keys in found.items() if keys is None]
    if unknown:
        if len(_KEYS) + len(unknown) > _MAX_REMEMBERED:
            _KEYS.clear()  # mostly past days' deals, never live again
        for deal_id, deck in Deal.objects.filter(id__in=unknown).values_list("id", "deck"):
            found[deal_id] = _KEYS[deal_id] = engine.deal_keys(engine.parse_deck(deck))
    by_kind: dict[str, set[str]] = {}
    for deal_id, keys in found.items():
        if keys is not None:
            by_kind.setdefault(kinds[deal_id], set()).update(keys)
    return {kind: frozenset(keys) for kind, keys in by_kind.items()}


def live_daily_keys(now: dt.datetime | None = None) -> frozenset[str]:
    """The canonical keys of every stored daily deal not yet published at ``now``, and of
    every registered event deal that is live."""
    return frozenset().union(*_keys_by_kind(now).values())


def live_deal_kind(cards: Sequence[int], now: dt.datetime | None = None) -> str | None:
    """Which live deal ``cards`` (52 card numbers) deal, in any disguise: ``daily``, an
    event owner's registered name (``games.events``), or None for no live deal."""
    keys = engine.deal_keys(cards)
    by_kind = _keys_by_kind(now)
    for kind in sorted(by_kind, key=lambda kind: kind != DAILY):  # a daily's refusal first
        if not keys.isdisjoint(by_kind[kind]):
            return kind
    return None


def is_live_daily(cards: Sequence[int], now: dt.datetime | None = None) -> bool:
    """Whether ``cards`` deal, in any disguise, a live daily deal or a live event deal."""
    return live_deal_kind(cards, now) is not None
