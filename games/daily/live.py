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
(the tournaments' own seeded deals) registers at ``ready()`` a provider of the ids of its
live deals (:func:`register_live_deals`); :func:`is_live_daily` covers them as well, so a
practice start and a hint refuse them, disguised or not, with the same ``live_daily_deal``.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable, Sequence

from games import engine
from games.models import Deal, Source

from .window import first_unpublished_day

#: Keys of daily deals met so far, by deal id (a deal's deck never changes).
_KEYS: dict[uuid.UUID, frozenset[str]] = {}
_MAX_REMEMBERED = 1024

#: The ids of another app's live deals at a moment (``register_live_deals``).
LiveDeals = Callable[[dt.datetime | None], Iterable[uuid.UUID]]
_PROVIDERS: dict[str, LiveDeals] = {}


def register_live_deals(name: str, provider: LiveDeals) -> None:
    """Let ``provider(now)`` (the ids of an app's stored deals still ranked at ``now``) add
    its deals to the live ones (module doc); registering a name again replaces it."""
    _PROVIDERS[name] = provider


def live_daily_keys(now: dt.datetime | None = None) -> frozenset[str]:
    """The canonical keys of every stored daily deal not yet published at ``now``, and of
    every deal a registered provider says is live."""
    live = Deal.objects.filter(source=Source.DAILY, date__gte=first_unpublished_day(now))
    ids = set(live.values_list("id", flat=True))
    for provider in _PROVIDERS.values():
        ids.update(provider(now))
    found = {deal_id: _KEYS.get(deal_id) for deal_id in ids}
    unknown = [deal_id for deal_id, keys in found.items() if keys is None]
    if unknown:
        if len(_KEYS) + len(unknown) > _MAX_REMEMBERED:
            _KEYS.clear()  # mostly past days' deals, never live again
        for deal_id, deck in Deal.objects.filter(id__in=unknown).values_list("id", "deck"):
            found[deal_id] = _KEYS[deal_id] = engine.deal_keys(engine.parse_deck(deck))
    return frozenset().union(*(keys for keys in found.values() if keys is not None))


def is_live_daily(cards: Sequence[int], now: dt.datetime | None = None) -> bool:
    """Whether ``cards`` (52 card numbers) deal, in any disguise, a live daily deal (or
    another app's live ranked deal: :func:`register_live_deals`)."""
    return not engine.deal_keys(cards).isdisjoint(live_daily_keys(now))
