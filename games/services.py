"""Business logic of plays: starting one, applying a move, undo and resign.

Views call these functions and serialise what they return; everything that must hold
together (the play row, its move log, the one-ranked-play rule) is decided here inside
database transactions. Undo and resign are service moves, not engine rules: undo replays
the effective move list minus its last move from the deal's deck, resign ends the play.
The daily deals are :mod:`games.daily`'s.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import DomainError

from . import engine, events
from .daily import daily_deal, live_deal_kind, utc_today
from .models import Deal, Play, Source
from .moving import RESIGN, UNDO, apply_move, apply_moves  # noqa: F401 - the move path
from .signals import play_finished, play_started, ranked_start_requested

log = logging.getLogger(__name__)


# --- Starting a play -------------------------------------------------------------------------


def rules_of(play: Play) -> engine.Rules:
    return engine.get_rules(play.preset, play.options)


def start_play(
    player: AbstractBaseUser,
    preset: str,
    options: dict[str, Any] | None = None,
    *,
    daily: dt.date | None = None,
    seed: int | None = None,
    deck: list[str] | None = None,
    pysol_deal: int | None = None,
    client_keys: dict[str, str] | None = None,
) -> Play:
    """Start a ranked play of today's daily deal, or a practice play of a seed, deck or
    PySolFC deal number. Exactly one source must be given (the serializer checks it). A
    practice deal that is a live daily deal, in any disguise, is ``live_daily_deal`` (a
    live event deal: its owner's code, :func:`live_deal_refusal`).
    ``client_keys`` (the web layer's hashed address and device keys) go to the
    ``play_started`` listeners; a ``ranked_start_requested`` listener may refuse a ranked
    start with a ``DomainError`` (a banned account).

    Engine errors (unknown preset or option, bad deck, seed out of range) propagate; a
    second ranked play of the same preset and day is ``DomainError`` ``already_played``.
    """
    rules = engine.get_rules(preset, options or {})
    deal: Deal | None = None
    if daily is not None:
        ranked_start_requested.send(sender=Play, player=player, preset=rules.name, day=daily)
        deal = _daily_deal_for_ranked_play(daily, preset)
        cards = engine.parse_deck(deal.deck)
    elif seed is not None:
        cards = engine.deck_from_seed(seed)
    elif pysol_deal is not None:
        cards = engine.deck_from_pysol(pysol_deal)
    elif deck is not None:
        cards = engine.parse_deck(deck)
    else:  # pragma: no cover - the serializer requires one source
        raise DomainError("validation_error", "give one of daily, seed, deck or pysol_deal")
    if daily is None:
        # Whatever the source, preset or options: the cards decide (games.daily.live).
        kind = live_deal_kind(cards)
        if kind is not None:
            raise live_deal_refusal(kind)
        if seed is not None:
            deal = _practice_deal(preset, Source.SEED, cards, seed=seed)
        elif pysol_deal is not None:
            deal = _practice_deal(preset, Source.PYSOL, cards, pysol_deal=pysol_deal)

    ranked = daily is not None
    if (
        ranked
        and Play.objects.filter(
            player=player, preset=rules.name, daily_date=daily, ranked=True
        ).exists()
    ):
        raise _already_played(rules.name, daily)
    try:
        return _create_play(player, rules, deal, cards, daily, client_keys, ranked=ranked)
    except IntegrityError as error:
        # Two simultaneous starts: the partial unique constraint decides, not the check above.
        if ranked:
            raise _already_played(rules.name, daily) from error
        raise


def start_event_play(
    player: AbstractBaseUser, deal: Deal, *, client_keys: dict[str, str] | None = None
) -> Play:
    """Start a ranked play of an event's own deal (``Source.EVENT``: a seeded tournament's).

    The app that owns the event decides beforehand who may play it and how often; here the
    play is ranked like a daily's (fair play's evidence, its ban refusal through
    ``ranked_start_requested``, ranked undo) but has no ``daily_date``: it is on no daily
    board and no daily deadline closes it."""
    if deal.source != Source.EVENT:
        raise ValueError("an event play needs an event's deal")
    rules = engine.get_rules(deal.preset, deal.options)
    ranked_start_requested.send(sender=Play, player=player, preset=rules.name, day=None)
    cards = engine.parse_deck(deal.deck)
    return _create_play(player, rules, deal, cards, None, client_keys, ranked=True)


def _create_play(
    player: AbstractBaseUser,
    rules: engine.Rules,
    deal: Deal | None,
    cards: tuple[int, ...],
    daily: dt.date | None,
    client_keys: dict[str, str] | None,
    *,
    ranked: bool,
) -> Play:
    """Store a new play of ``cards`` (and a deck deal if ``deal`` is None); tell the
    ``play_started`` listeners after the commit."""
    state = engine.new_game(rules, cards)
    with transaction.atomic():
        if deal is None:
            deal = Deal.objects.create(
                preset=rules.name, deck=engine.format_deck(cards), source=Source.DECK
            )
        play = Play(
            player=player,
            deal=deal,
            preset=rules.name,
            options=dict(rules.options),
            ranked=ranked,
            daily_date=daily,
            state=engine.state_to_json(state),
            foundation_cards=engine.foundation_cards(state),
        )
        play.save()
        keys = dict(client_keys or {})
        transaction.on_commit(lambda: play_started.send(sender=Play, play=play, client_keys=keys))
        outcome = engine.status(state)
        if outcome != engine.PLAYING:  # a deal with no legal move at all
            _finish(play, outcome)
            play.save()
    return play


def live_deal_refusal(kind: str) -> DomainError:
    """A practice play or a hint of a live deal of ``kind`` (``games.daily.live_deal_kind``):
    a daily's refusal, or the one the event deals' owner registered (``games.events``)."""
    owner = events.get(kind)
    if owner is not None:
        return DomainError(owner.refusal_code, owner.refusal_detail)
    return DomainError(
        "live_daily_deal",
        "this deal is a daily deal that can still be played ranked; practise it once its "
        "day is published",
    )


def _already_played(preset: str, day: dt.date) -> DomainError:
    return DomainError(
        "already_played",
        f"you already have a ranked {preset} play for {day.isoformat()}",
    )


def _daily_deal_for_ranked_play(day: dt.date, preset: str) -> Deal:
    today = utc_today()
    if day > today:
        raise DomainError("daily_not_available", f"the daily deals of {day} are not out yet")
    if day < today:
        raise DomainError(
            "daily_over",
            f"the day {day} is over (UTC); only today's deal ({today}) can be played ranked",
        )
    deal = daily_deal(day, preset)
    if deal is None:
        raise DomainError("daily_not_available", f"no daily {preset} deal for {day} yet")
    return deal


def _practice_deal(preset: str, source: str, cards: tuple[int, ...], **number: int) -> Deal:
    """The stored deal of a seed or PySolFC number, created the first time it is played."""
    deal = Deal.objects.filter(source=source, preset=preset, **number).first()
    if deal is None:
        deal = Deal.objects.create(
            preset=preset, source=source, deck=engine.format_deck(cards), **number
        )
    return deal


# --- Applying a move: games.moving (the hot path) ------------------------------------------


def _finish(play: Play, outcome: str) -> None:
    """Close the play, score it, and tell listeners once the transaction has committed."""
    play.status = outcome
    play.finished_at = timezone.now()
    play.seconds = max(0.0, (play.finished_at - play.started_at).total_seconds())
    transaction.on_commit(lambda: play_finished.send(sender=Play, play=play))


# --- Reading ---------------------------------------------------------------------------------


def visible_state(play: Play) -> dict[str, Any]:
    """``engine.visible`` of the play's state: the only view of a state that leaves the server.

    A finished play lists no legal moves.
    """
    state = getattr(play, "engine_state", None) or engine.state_from_json(
        rules_of(play), play.state
    )
    view = engine.visible(state, with_moves=not play.finished)
    if play.finished:
        view["legal_moves"] = []
    return view


def get_play(play_id: uuid.UUID | str, player: AbstractBaseUser) -> Play:
    """The caller's play; another player's play is indistinguishable from a missing one."""
    play = Play.objects.filter(pk=play_id, player_id=player.pk).first()
    if play is None:
        raise DomainError("not_found", "no such play")
    return play
