"""The body of a move request: its shape, checked without DRF in the common case, and the
moves of a batch in the engine's form (the days and weeks both apps parse are in
``config.web.params``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.serializers import ValidationError
from rest_framework.settings import api_settings

from config.web.problems import Problem

from .. import engine
from ..moving import MAX_BATCH


def parse_moves(raw: list[Any]) -> list[engine.Move]:
    """The moves of a batch in the engine's form; the first that is not a move at all is a
    400 ``invalid_move`` naming its ``index``."""
    moves = []
    for index, data in enumerate(raw):
        try:
            moves.append(engine.Move.from_dict(data))
        except engine.MoveFormatError as error:
            raise Problem(
                400, "invalid_move", f"move {index}: {error.detail}", index=index
            ) from error
    return moves


MAX_SEQ = 2**31 - 1


def require_one_of_move_and_moves(data: Any) -> None:
    """A move request holds ``move`` or ``moves``, not both and not neither: a rule across
    fields, so a 400 ``validation_error`` under ``non_field_errors`` (as StartPlayRequest's
    "exactly one of daily, seed, deck or pysol_deal"). The schema leaves it out: a ``oneOf``
    would turn the generated clients' ``PlayMoveRequest`` model into a union."""
    if type(data) is dict and ("move" in data) == ("moves" in data):
        raise ValidationError(
            {api_settings.NON_FIELD_ERRORS_KEY: [gettext("Send exactly one of move and moves.")]}
        )


def plain_move_request(data: Any) -> tuple[int | None, Any]:
    """``(seq, move)`` of a move request that ``MoveRequestShapeSerializer`` would accept
    as it is (an int ``seq`` in range, a ``move`` key), else ``(None, None)``: the common
    case skips building a DRF serializer (a few tenths of a millisecond of CPU)."""
    if type(data) is not dict or "move" not in data:
        return None, None
    seq = data.get("seq")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
        return None, None
    return seq, data["move"]


def plain_batch_request(data: Any) -> tuple[int | None, list[Any]]:
    """``(seq, moves)`` of a batch that ``MoveBatchShapeSerializer`` would accept as it is,
    else ``(None, [])``, like :func:`plain_move_request`."""
    if type(data) is not dict or "move" in data:
        return None, []
    seq, moves = data.get("seq"), data.get("moves")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
        return None, []
    if type(moves) is not list or not 1 <= len(moves) <= MAX_BATCH:
        return None, []
    return seq, moves
