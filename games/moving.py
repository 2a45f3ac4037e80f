"""Applying moves to a play: one move, or a batch of them in one transaction.

Undo and resign are service moves, not engine rules: undo replays the effective move list
minus its last move from the deal's deck, resign ends the play. The play row is locked
first, so concurrent requests with the same ``seq`` serialise: the first applies, the
others find the sequence moved on (``stale_sequence``). The SQL is in
``games.movelog``; no ORM model instance is built on this path except once a play ends
(the ``play_finished`` receivers get the ``Play``).

A batch (a client back online) is all or nothing: its moves apply in order, each gets its
own log row, and the first that fails rolls the whole batch back, its problem naming the
move's ``index``. The rules of a single move hold for each move of a batch; in a ranked play
a move that turns a face-down card or deals must also be the batch's last, since a later
move of the same batch, refused, would roll the reveal back and so let the player look
under a card without playing the move (which ranked undo exists to prevent).

A ranked play moves only until its deadline: a daily's is its day's
(``games.daily.ranked_deadline``, from the locked row's ``daily_date``: no extra query); an
event deal's (a seeded tournament's, no ``daily_date``) is the one its owner registered
(``games.events.deadline``: one query, on those plays only). A request after it, whatever
it holds (moves, undo, resign), closes the play as ``expired`` and is refused with a
``ClosingRefusal`` ``ranked_play_expired``, whose write stands (docs/fair-play-rules.md).
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.utils import timezone

from config.errors import ClosingRefusal, DomainError
from config.web.problems import redact_cards

from . import engine, events
from .daily.window import ranked_deadline
from .models import Play, PlayStatus
from .movelog import LogRow, MoveTransaction, PlayRow
from .signals import move_refused, moves_applied, play_finished

UNDO = "undo"
RESIGN = "resign"
MAX_BATCH = 500


def apply_move(play_id: uuid.UUID | str, player: Any, seq: int, move: engine.Move) -> PlayRow:
    """Apply one move (or undo / resign) to the caller's play, in one transaction."""
    return _apply(play_id, player.pk, seq, [move], batch=False)


def apply_moves(
    play_id: uuid.UUID | str, player: Any, seq: int, moves: list[engine.Move]
) -> PlayRow:
    """Apply a batch of moves in order, all or nothing (see the module)."""
    if not 1 <= len(moves) <= MAX_BATCH:  # pragma: no cover - the view checks the shape
        raise DomainError("validation_error", f"a batch has 1 to {MAX_BATCH} moves")
    return _apply(play_id, player.pk, seq, moves, batch=True)


def _apply(
    play_id: uuid.UUID | str, player_id: int, seq: int, moves: list[engine.Move], *, batch: bool
) -> PlayRow:
    try:
        play = _apply_in_transaction(play_id, player_id, seq, moves, batch=batch)
    except DomainError as refusal:
        rule = refusal.extra.get("rule", "") if refusal.code == "illegal_move" else ""
        move_refused.send(sender=Play, code=refusal.code, rule=rule)
        raise
    moves_applied.send(sender=Play, preset=play.preset, count=len(moves))
    return play


def _apply_in_transaction(
    play_id: uuid.UUID | str, player_id: int, seq: int, moves: list[engine.Move], *, batch: bool
) -> PlayRow:
    with MoveTransaction() as tx:
        play = tx.lock(play_id, player_id)
        if play is None:
            raise DomainError("not_found", "no such play")
        if play.status == PlayStatus.EXPIRED:
            raise _expired(play, _deadline(play), DomainError)
        if play.finished:
            raise DomainError("play_finished", f"this play is over ({play.status})")
        now = timezone.now()
        deadline = _deadline(play)
        if deadline is not None and now >= deadline:
            tx.expire(play, now)
        else:
            _apply_locked(tx, play, seq, moves, batch=batch)
    if play.status == PlayStatus.EXPIRED:  # expired just now: the refusal keeps it so
        raise _expired(play, deadline, ClosingRefusal)
    return play


def _deadline(play: PlayRow) -> dt.datetime | None:
    """When the ranked ``play`` closes (module doc); None for a practice play."""
    if not play.ranked:
        return None
    if play.daily_date is not None:
        return ranked_deadline(play.daily_date)
    return events.deadline(play.deal_id)


def _expired(
    play: PlayRow, deadline: dt.datetime | None, kind: type[DomainError]
) -> DomainError:
    """``ranked_play_expired`` (only ranked plays, which have a deadline, expire)."""
    closed = deadline.isoformat() if deadline is not None else None
    what = f"of {play.daily_date}" if play.daily_date is not None else "of its event"
    return kind(
        "ranked_play_expired",
        f"the ranked play {what} closed at {closed}; it ended unfinished",
        deadline=closed,
    )


def _apply_locked(
    tx: MoveTransaction, play: PlayRow, seq: int, moves: list[engine.Move], *, batch: bool
) -> None:
    """Apply ``moves`` to the locked, open ``play`` and write the log rows and the play."""
    if seq != play.seq:
        raise DomainError(
            "stale_sequence",
            f"the play is at seq {play.seq}, the move was sent for seq {seq}",
            seq=play.seq,
        )
    rules = engine.get_rules(play.preset, play.options)
    state = engine.state_from_json(rules, play.state)
    run = _Run(tx, play, rules, batch)
    rows = []
    for index, move in enumerate(moves):
        state, row = run.step(index, move, state)
        rows.append(row)
    play.engine_state = state
    play.state = engine.state_to_json(state)
    play.foundation_cards = engine.foundation_cards(state)
    if play.finished:
        tx.after_commit(lambda: _announce(play.id))
    tx.append(play, rows)


class _Run:
    """The moves of one request applied one after another to a locked play."""

    def __init__(
        self, tx: MoveTransaction, play: PlayRow, rules: engine.Rules, batch: bool
    ) -> None:
        self.tx = tx
        self.play = play
        self.rules = rules
        self.batch = batch
        self.stored: list[tuple[dict[str, Any], bool]] | None = None  # read for an undo
        self.pending: list[tuple[dict[str, Any], bool]] = []  # this request's rows so far
        self.revealed = False

    def _refusal(self, index: int, code: str, detail: str, **extra: Any) -> DomainError:
        """A refusal of the move at ``index``; in a batch it names the move."""
        if self.batch:
            return DomainError(code, f"move {index}: {detail}", index=index, **extra)
        return DomainError(code, detail, **extra)

    def step(
        self, index: int, move: engine.Move, state: engine.State
    ) -> tuple[engine.State, LogRow]:
        play = self.play
        if play.finished:
            raise self._refusal(index, "play_finished", f"this play is over ({play.status})")
        if self.batch and play.ranked and self.revealed:
            raise self._refusal(
                index,
                "batch_after_reveal",
                "in a ranked play, a move that turns a face-down card or deals ends its batch",
            )
        revealed = False
        if move.type == UNDO:
            state = self._undo(index)
            play.undos += 1
            play.moves_count += 1
        elif move.type != RESIGN:
            try:
                new_state = engine.apply_move(state, move)
            except engine.IllegalMove as error:
                shown = _shown_cards(engine.visible(state))
                detail = redact_cards(error.detail, shown)
                raise self._refusal(
                    index,
                    "illegal_move",
                    f"illegal move ({error.code}): {detail}",
                    rule=error.code,
                ) from error
            revealed = engine.reveals_hidden(state, move)
            state = new_state
            play.moves_count += 1
        self.revealed = self.revealed or revealed
        as_dict = move.to_dict()
        row = LogRow(play.seq, as_dict, str(move), revealed, engine.state_hash(state))
        self.pending.append((as_dict, revealed))
        play.seq += 1
        if move.type == RESIGN:
            _finish(play, PlayStatus.RESIGNED)
        else:
            outcome = engine.status(state)
            if outcome != engine.PLAYING:
                _finish(play, outcome)
        return state, row

    def _undo(self, index: int) -> engine.State:
        """The state before the last effective move, rebuilt by replaying the rest from the
        deck. The log keeps every row (undo rows included); the effective list is the log
        with each undo cancelling the latest effective move before it."""
        if self.stored is None:
            self.stored = self.tx.logged_moves(self.play)
        effective: list[tuple[dict[str, Any], bool]] = []
        for logged, revealed in self.stored + self.pending:
            kind = logged.get("type")
            if kind == UNDO:
                effective.pop()
            elif kind != RESIGN:
                effective.append((logged, revealed))
        if not effective:
            raise self._refusal(index, "nothing_to_undo", "there is no move to undo")
        if self.play.ranked and effective[-1][1]:
            raise self._refusal(
                index,
                "undo_forbidden",
                "a move that turned a face-down card or dealt cannot be undone in a ranked play",
            )
        deck = engine.parse_deck(self.tx.deal_deck(self.play))
        state, bad, error = engine.replay(self.rules, deck, [m for m, _ in effective[:-1]])
        if bad is not None:
            raise RuntimeError(
                f"move log of play {self.play.id} does not replay at {bad}: {error!r}"
            )
        return state


def _shown_cards(view: Any) -> set[str]:
    if isinstance(view, str):
        return {view}
    if isinstance(view, dict):
        return set().union(*(_shown_cards(value) for value in view.values()))
    if isinstance(view, list):
        return set().union(*(_shown_cards(value) for value in view))
    return set()


def _finish(play: PlayRow, outcome: str) -> None:
    play.status = outcome
    play.finished_at = timezone.now()
    play.seconds = max(0.0, (play.finished_at - play.started_at).total_seconds())


def _announce(play_id: uuid.UUID) -> None:
    """Tell ``play_finished`` listeners, with the committed ``Play`` (once per play); not
    when the account was deleted right after the move's commit (its plays went with it)."""
    play = Play.objects.filter(pk=play_id).first()
    if play is not None:
        play_finished.send(sender=Play, play=play)
