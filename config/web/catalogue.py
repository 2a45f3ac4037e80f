"""The error catalogue: every problem ``code`` the API answers, with its one HTTP status.

One condition has one code and one status wherever it is met (an unknown preset in a body
or in a URL, an unknown option in a body or a query string). The table is data: a new
code is a new row, and ``tests/api/test_catalogue.py`` checks that every code raised in the
source, every code in the schema and every code listed in docs/api/errors.md is a row here.

``title`` and ``detail`` are English source strings marked for translation. The raising code
writes the English ``detail`` (it may name the day, the seq or the preset); in another
language the catalogue's ``detail`` is used instead, formatted with the problem's extra
members (``rule``, ``seq``), so a German or Russian client reads a whole sentence in its
language. Codes are never translated.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Entry:
    status: int
    title: str | Promise
    #: A translatable generic detail; ``None``: the raised detail is already translated
    #: (DRF's and Django's messages are translated where they are made).
    detail: str | Promise | None = None


CATALOGUE: dict[str, Entry] = {
    # --- 400: the request is wrong -------------------------------------------------------
    "bad_request": Entry(400, _("Bad request"), _("The request could not be understood.")),
    "validation_error": Entry(400, _("Invalid request")),
    "malformed_json": Entry(400, _("Malformed JSON")),
    "invalid_json": Entry(
        400,
        _("JSON refused"),
        _("The JSON body is nested too deeply or holds a lone UTF-16 surrogate."),
    ),
    "invalid_url": Entry(
        400, _("Invalid URL"), _("The URL's path or query holds a control character.")
    ),
    "unsupported_language": Entry(
        400, _("Unsupported language"), _("lang is one of en, de, ru (or leave it out).")
    ),
    "invalid_move": Entry(400, _("Not a move"), _("The body does not describe a move.")),
    "invalid_deck": Entry(
        400,
        _("Invalid deck"),
        _("A deck is a list of 52 distinct cards, rank then suit, such as 'AS' or 'TH'."),
    ),
    "seed_out_of_range": Entry(
        400, _("Seed out of range"), _("A seed is an integer from 0 to 2^63 - 1.")
    ),
    "deal_out_of_range": Entry(
        400,
        _("Deal number out of range"),
        _("A PySol deal number is an integer from 1 to 2^63 - 1."),
    ),
    "unknown_preset": Entry(400, _("Unknown preset"), _("There is no preset of that name.")),
    "unknown_option": Entry(400, _("Unknown option"), _("The preset has no option of that name.")),
    "invalid_option": Entry(400, _("Invalid option"), _("An option is true or false.")),
    "invalid_date": Entry(400, _("Invalid date"), _("A date is YYYY-MM-DD (UTC) or 'today'.")),
    "invalid_week": Entry(
        400, _("Invalid week"), _("A week is an ISO week such as 2026-W48, or 'current'.")
    ),
    "invalid_cursor": Entry(400, _("Invalid cursor"), _("The cursor is not one this list gave.")),
    "invalid_page_size": Entry(
        400, _("Invalid page size"), _("page_size is an integer from 1 to 100.")
    ),
    "invalid_n": Entry(400, _("Invalid n"), _("n is an integer from 0 to 50.")),
    "invalid_around": Entry(400, _("Invalid around"), _("around takes the value 'me'.")),
    "invalid_group": Entry(400, _("Invalid group"), _("A group id is an integer.")),
    "invalid_tournament": Entry(400, _("Invalid tournament")),
    "invalid_idempotency_key": Entry(
        400,
        _("Invalid idempotency key"),
        _("Idempotency-Key must be 1 to 255 visible ASCII characters."),
    ),
    "daily_over": Entry(
        400,
        _("The day is over"),
        _("That day is over (UTC); only today's deal can be played ranked."),
    ),
    # --- 401, 403: who is asking -------------------------------------------------------
    "not_authenticated": Entry(401, _("Not authenticated")),
    "authentication_failed": Entry(401, _("Authentication failed")),
    "token_not_valid": Entry(401, _("Token not valid")),
    "no_active_account": Entry(401, _("Wrong username or password")),
    "device_secret_mismatch": Entry(
        401,
        _("Device secret mismatch"),
        _("That device is known, and the secret sent is not its secret."),
    ),
    "permission_denied": Entry(403, _("Permission denied"), _("Not allowed.")),
    "wrong_password": Entry(
        403, _("Wrong password"), _("The password (or device secret) is not this account's.")
    ),
    "not_group_owner": Entry(
        403, _("Not the group's owner"), _("Only a group's owner creates its tournaments.")
    ),
    "tournament_not_joined": Entry(
        403, _("Not an entrant"), _("Join the tournament before playing it.")
    ),
    "hints_not_allowed": Entry(
        403,
        _("Hints not allowed"),
        _("Hints are for practice plays; a ranked daily play gets none."),
    ),
    "csrf_failed": Entry(403, _("CSRF verification failed"), _("CSRF verification failed.")),
    "ranked_banned": Entry(
        403,
        _("Banned from ranked play"),
        _("This account may no longer start ranked plays; practice plays are still open."),
    ),
    # --- 404: nothing there --------------------------------------------------------------
    "not_found": Entry(404, _("Not found"), _("There is no such resource.")),
    "daily_not_available": Entry(
        404, _("Daily deal not available"), _("That day's deal is not out yet.")
    ),
    "board_not_available": Entry(
        404, _("Board not available"), _("That day has not started yet (UTC).")
    ),
    "replays_not_published": Entry(
        404,
        _("Replays not published"),
        _("A day's replays are published once its ranked plays have closed."),
    ),
    "not_on_board": Entry(404, _("Not on the board"), _("You have no result on this board.")),
    "player_not_found": Entry(404, _("Player not found"), _("There is no player of that name.")),
    "group_not_found": Entry(
        404, _("Group not found"), _("There is no such group, or you are not a member.")
    ),
    "tournament_not_found": Entry(
        404,
        _("Tournament not found"),
        _("There is no such tournament, or it belongs to a group you are not in."),
    ),
    "invalid_invite_code": Entry(
        404, _("Invalid invite code"), _("No group has that invite code.")
    ),
    # --- 405, 406, 412, 413, 414, 415, 417, 431: the HTTP envelope ----------------------
    "method_not_allowed": Entry(405, _("Method not allowed")),
    "not_acceptable": Entry(406, _("Not acceptable")),
    "precondition_failed": Entry(
        412,
        _("Precondition failed"),
        _("If-Match does not match the play's current ETag; fetch the play again."),
    ),
    "payload_too_large": Entry(
        413, _("Request body too large"), _("The request body is too large.")
    ),
    "unsupported_media_type": Entry(415, _("Unsupported media type")),
    # gunicorn's own refusals, before Django runs (config/gunicorn_workers.py).
    "request_line_too_long": Entry(
        414, _("Request line too long"), _("The request line (method, URL) is too long.")
    ),
    "expectation_failed": Entry(
        417, _("Expectation failed"), _("The only Expect the server meets is 100-continue.")
    ),
    "header_fields_too_large": Entry(
        431,
        _("Header fields too large"),
        _("The request has too many header fields, or one that is too large."),
    ),
    # --- 409: the state of things ---------------------------------------------------------
    "already_played": Entry(
        409,
        _("Already played"),
        _("You already have a ranked play of this preset for this day."),
    ),
    "stale_sequence": Entry(
        409,
        _("Stale sequence number"),
        _("The play is at seq %(seq)s; send the move again with that seq."),
    ),
    "play_finished": Entry(409, _("Play is finished"), _("This play is over.")),
    "ranked_play_expired": Entry(
        409,
        _("Ranked play expired"),
        _(
            "The ranked play's day ended (its grace included) before the play did; it is "
            "closed as expired, unfinished."
        ),
    ),
    "live_daily_deal": Entry(
        409,
        _("Live daily deal"),
        _(
            "This deal is a daily deal that can still be played ranked; it can be practised "
            "once its day is published."
        ),
    ),
    "live_tournament_deal": Entry(
        409,
        _("Live tournament deal"),
        _(
            "This deal is the deal of a tournament that has not ended; it can be practised "
            "once the tournament is over."
        ),
    ),
    "username_taken": Entry(
        409, _("Username taken"), _("That username is taken, or could pass for a name that is.")
    ),
    "group_full": Entry(409, _("Group full"), _("The group has no room for another member.")),
    "already_linked": Entry(
        409, _("Already linked"), _("This account already has a username and a password.")
    ),
    "device_taken": Entry(
        409, _("Device taken"), _("That device already belongs to another account.")
    ),
    "guest_account": Entry(
        409,
        _("Guest account"),
        _("A guest account has no password yet; link it to a username and password first."),
    ),
    "tournament_closed": Entry(
        409, _("Tournament closed"), _("The tournament's join window is over.")
    ),
    "tournament_full": Entry(
        409, _("Tournament full"), _("The tournament has no room for another player.")
    ),
    "tournament_not_seeded": Entry(
        409,
        _("Not a seeded tournament"),
        _("This tournament is played on the daily deals: start today's daily."),
    ),
    "tournament_not_started": Entry(
        409, _("Tournament not started"), _("The tournament's window has not opened yet.")
    ),
    "tournament_over": Entry(409, _("Tournament over"), _("The tournament's window is over.")),
    "tournament_deal_not_ready": Entry(
        409,
        _("Tournament deal not ready"),
        _("The tournament's deal is still being prepared; try again in a minute."),
    ),
    "tournament_deal_not_published": Entry(
        409,
        _("Tournament deal not published"),
        _("The tournament's deal is shown once the tournament has ended."),
    ),
    "tournament_attempts_used": Entry(
        409,
        _("Attempts used up"),
        _("You have started every attempt this tournament allows."),
    ),
    # --- 422: understood, but refused -------------------------------------------------------
    "illegal_move": Entry(422, _("Illegal move"), _("Illegal move (%(rule)s): %(rule_text)s")),
    "undo_forbidden": Entry(
        422,
        _("Undo forbidden"),
        _("A move that turned a face-down card or dealt cannot be undone in a ranked play."),
    ),
    "nothing_to_undo": Entry(422, _("Nothing to undo"), _("There is no move to undo.")),
    "batch_after_reveal": Entry(
        422,
        _("Batch goes on after a reveal"),
        _("In a ranked play, a move that turns a face-down card or deals ends its batch."),
    ),
    "idempotency_key_reused": Entry(
        422,
        _("Idempotency key reused"),
        _("This Idempotency-Key was used for a different request."),
    ),
    # --- 429, 5xx ------------------------------------------------------------------------
    "throttled": Entry(429, _("Too many requests")),
    "server_error": Entry(500, _("Internal server error"), _("An unexpected error occurred.")),
    "not_implemented": Entry(
        501, _("Not implemented"), _("The request uses a transfer coding the server lacks.")
    ),
    "try_again": Entry(503, _("Try again"), _("Please retry in a moment.")),
    "database_unavailable": Entry(
        503,
        _("Database unavailable"),
        _("The database is unreachable right now; please retry (with the same Idempotency-Key)."),
    ),
}

#: The engine's rule codes of an ``illegal_move`` (``rule``), as sentences without card
#: names, for clients reading another language than English.
RULES: dict[str, str | Promise] = {
    "no_such_pile": _("this preset has no such pile"),
    "not_an_engine_move": _("this move is handled by the server"),
    "game_over": _("the game is won"),
    "same_pile": _("a card cannot move onto its own pile"),
    "foundation_locked": _("foundation cards never come back"),
    "not_a_source": _("the stock is dealt with a deal move"),
    "not_a_target": _("nothing may be put on the stock or the waste"),
    "empty_pile": _("that pile is empty"),
    "single_card_only": _("this pile takes or gives one card at a time"),
    "foundation_order": _("a foundation is built up in suit from the Ace"),
    "cell_occupied": _("that cell is not empty"),
    "space_needs_king": _("only a King or a King-headed run may fill a space"),
    "run_too_long": _("not enough free cells and spaces to move that many cards together"),
    "not_enough_cards": _("the column has fewer cards than that"),
    "face_down": _("only face-up cards can move"),
    "not_a_run": _("those cards are not a run"),
    "partial_run": _("only the top card or all face-up cards may move (no partial runs)"),
    "not_descending": _("the card must be one rank lower than the card it goes on"),
    "wrong_colour": _("the card must be the other colour than the card it goes on"),
    "wrong_suit": _("the card must be of the suit of the card it goes on"),
    "no_stock": _("this preset has no stock"),
    "stock_empty": _("the stock has been dealt out"),
    "must_fill_space": _("fill every space a King can fill before dealing a new row"),
}


def status_of(code: str, default: int | None = None) -> int:
    """The status of ``code``; ``KeyError`` for a code the catalogue lacks (a bug) unless
    a ``default`` is given."""
    entry = CATALOGUE.get(code)
    if entry is None:
        if default is None:
            raise KeyError(code)
        return default
    return entry.status


def codes_for(*statuses: int) -> list[str]:
    """Every code answered with one of ``statuses``, in catalogue order."""
    return [code for code, entry in CATALOGUE.items() if entry.status in statuses]
