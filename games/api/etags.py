"""A play's ``ETag`` (its id and ``seq``, so it changes exactly when ``seq`` does) and
``If-Match`` on moves: the version of the play a move is meant for, an alternative to the
body's ``seq`` (412 ``precondition_failed`` when it is not the current one). ``If-Match``
compares strongly (RFC 9110, 13.1.1): a weak tag (``W/"…"``) never matches. The generic
ETag plumbing is ``config.web.caching``."""

from __future__ import annotations

import uuid

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError

from config.web.caching import opaque, tags
from config.web.problems import Problem


def play_etag(play_id: uuid.UUID | str, seq: int) -> str:
    return f'"{uuid.UUID(str(play_id)).hex}.{seq}"'


def seq_from_etag(tag: str, play_id: uuid.UUID | str) -> int | None:
    """The seq a play ETag names, or None if ``tag`` is not a strong tag of this play (the
    compressed answer's ``"<tag>-gzip"`` names the same version)."""
    if tag.strip().startswith("W/"):
        return None
    name = opaque(tag)
    prefix = f"{uuid.UUID(str(play_id)).hex}."
    if not name.startswith(prefix) or not name[len(prefix) :].isdigit():
        return None
    return int(name[len(prefix) :])


def precondition_failed(seq: int | None) -> Problem:
    extra = {"seq": seq} if seq is not None else {}
    return Problem.of(
        "precondition_failed",
        "If-Match does not match the play's current ETag; fetch the play again",
        **extra,
    )


def expected_seq(if_match: str | None, play_id: uuid.UUID, body_seq: int | None) -> int:
    """The seq a move is sent for: the body's, or the one its ``If-Match`` names."""
    if if_match is None or if_match.strip() == "*":  # "*": any version of an existing play
        if body_seq is None:
            raise ValidationError({"seq": [gettext("This field is required.")]})
        return body_seq
    named = [seq_from_etag(tag, play_id) for tag in tags(if_match)]
    seqs = {seq for seq in named if seq is not None}
    if len(seqs) != 1 or (body_seq is not None and body_seq not in seqs):
        raise precondition_failed(None)
    return seqs.pop()
