"""The leaderboards over HTTP: a day's, a week's and all time, by page or around a player.

Pagination is cursor-based in DRF's style (``{"next", "previous", "results"}`` with opaque
``?cursor=`` links) but keyset on ``(sort_key, member)`` so that Redis and PostgreSQL can
both serve any cursor: DRF's own ``CursorPagination`` only pages querysets.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from config.web import caching
from config.web.openapi import (
    IF_NONE_MATCH,
    LEADERBOARD_SOURCE,
    caching_headers,
    problems,
)
from config.web.params import parse_day, week_in_range
from config.web.problems import Problem, translated
from games import daily, engine

from ... import boards, freezing, groups, ranking
from ...refs import BoardRef
from ..serializers import (
    DailyPageSerializer,
    TotalPageSerializer,
)

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 100
DEFAULT_AROUND = 5
MAX_AROUND = 50


# --- Query parameters ------------------------------------------------------------------------


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default  # present but empty is refused below, like any non-integer
    # ASCII digits only: int() would also take " 5", "+5", "1_0" and other scripts' digits.
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 20 else None
    if value is None or not low <= value <= high:
        raise Problem(400, f"invalid_{name}", f"{name} is an integer from {low} to {high}")
    return value


def _rules(preset: str, request: Request) -> engine.Rules:
    """The board's rules: an unknown preset or option answers as on ``POST /plays``."""
    raw = request.query_params.get("options", "")
    names = [name.strip() for name in raw.split(",") if name.strip()]
    try:
        return engine.get_rules(preset, dict.fromkeys(names, True))
    except engine.RulesError as error:
        raise translated(error) from None


def _parse_week(text: str) -> str:
    if text in ("current", "this"):
        return ranking.iso_week(daily.utc_today())
    try:
        if not week_in_range(text):  # ASCII digits, a year of the service's days
            raise ValueError(text)
        ranking.parse_iso_week(text)
    except ValueError:
        raise Problem(
            400, "invalid_week", "a week is an ISO week such as 2026-W48, or 'current'"
        ) from None
    return text


def _encode_cursor(direction: str, position: tuple[int, str]) -> str:
    raw = json.dumps({"d": direction, "k": position[0], "m": position[1]}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(ref: BoardRef, text: str) -> tuple[str, int, str]:
    try:
        padded = text + "=" * (-len(text) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()).decode())
        direction, key, member = data["d"], data["k"], data["m"]
        if direction not in ("n", "p") or not isinstance(key, int) or not isinstance(member, str):
            raise ValueError(text)
        if not 0 <= key < ranking.KEY_LIMIT:
            raise ValueError(text)
        ref.tie_value(member)
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError):
        raise Problem(400, "invalid_cursor", "the cursor is not one this board gave") from None
    return ("after" if direction == "n" else "before"), key, member


def _link(request: Request, cursor: str | None) -> str | None:
    if cursor is None:
        return None
    url = request.build_absolute_uri()
    url = remove_query_param(url, "around")
    url = remove_query_param(url, "n")
    return replace_query_param(url, "cursor", cursor)


COMMON_PARAMETERS = [
    OpenApiParameter(
        "preset", OpenApiTypes.STR, OpenApiParameter.PATH, description="a preset of RULES.md"
    ),
    OpenApiParameter(
        "options",
        OpenApiTypes.STR,
        description="comma-separated options that are on, e.g. `partial_runs`: each option "
        "set is its own board",
    ),
    OpenApiParameter("cursor", OpenApiTypes.STR, description="from `next` / `previous`"),
    OpenApiParameter(
        "page_size", OpenApiTypes.INT, description=f"1–{MAX_PAGE_SIZE}, default {DEFAULT_PAGE_SIZE}"
    ),
    OpenApiParameter(
        "around",
        OpenApiTypes.STR,
        enum=["me"],
        description="`me`: the caller's entry with `n` neighbours either side (auth needed)",
    ),
    OpenApiParameter(
        "n", OpenApiTypes.INT, description=f"0–{MAX_AROUND}, default {DEFAULT_AROUND}"
    ),
    OpenApiParameter(
        "group", OpenApiTypes.INT, description="rank only the members of this group of yours"
    ),
    IF_NONE_MATCH,
    *caching_headers(),
    LEADERBOARD_SOURCE,
]
BOARD_PROBLEMS = (
    "unknown_preset",
    "unknown_option",
    "invalid_option",
    "invalid_cursor",
    "invalid_page_size",
    "invalid_around",
    "invalid_n",
    "invalid_group",
    "not_authenticated",
    "authentication_failed",
    "token_not_valid",
    "not_on_board",
    "group_not_found",
)
SIGN_IN_NOTE = (
    " Public: a bearer token is only needed for `around=me` and `group`, and is used when sent."
)


class BoardView(APIView):
    """Common work of the three board views."""

    permission_classes = [permissions.AllowAny]
    # Public, but a token changes the answer (around=me, group): the schema declares the
    # token optional, so a generated client set up with one sends it (schema_contract).
    token_optional = True

    def board_ref(self, rules: engine.Rules, **kwargs: Any) -> BoardRef:  # pragma: no cover
        raise NotImplementedError

    def answer(self, request: Request, rules: engine.Rules, ref: BoardRef) -> Response:
        user = request.user if request.user and request.user.is_authenticated else None
        players = None
        group_id = request.query_params.get("group")
        if group_id is not None:  # group= (empty) is an invalid group, not no group
            if user is None:
                raise NotAuthenticated("sign in to see a group's board")
            group = groups.group_for(user, group_id)
            players = groups.member_ids(group)
        me = user.pk if user is not None else None
        around = request.query_params.get("around")
        cursor = request.query_params.get("cursor")
        size = _int_param(request, "page_size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
        n = _int_param(request, "n", DEFAULT_AROUND, 0, MAX_AROUND)  # checked even if unused
        if around is not None:
            if around != "me":
                raise Problem(400, "invalid_around", "around takes the value 'me'")
            if user is None:
                raise NotAuthenticated("sign in to see your own place on a board")
            result = boards.read(ref, "around", n, me=user.pk, players=players, viewer=user.pk)
            if result.start < 0:
                raise Problem(404, "not_on_board", "you have no result on this board")
        elif cursor:
            mode, key, member = _decode_cursor(ref, cursor)
            result = boards.read(
                ref, mode, size, key=key, member=member, players=players, viewer=me
            )
        else:
            result = boards.read(ref, "first", size, players=players, viewer=me)
        body = {
            "board": {
                "preset": rules.name,
                "options": [name for name, on in rules.options.items() if on],
                "key": rules.key,
                "kind": ref.kind,
                "period": ref.period,
                "group": int(group_id) if players is not None else None,
                "frozen": ref.is_daily and ref.day < daily.utc_today(),
            },
            "next": _link(
                request, _encode_cursor("n", result.last) if result.has_more_after else None
            ),
            "previous": _link(
                request,
                _encode_cursor("p", result.first)
                if result.has_more_before and result.first
                else None,
            ),
            "results": result.entries,
        }
        # A frozen day never changes; a page that depends on the caller is private.
        if around not in (None, "") or players is not None or result.personal:
            cache_control = caching.PRIVATE
        elif body["board"]["frozen"]:
            cache_control = caching.IMMUTABLE
        else:
            cache_control = caching.SHORT
        return caching.cached(
            request, body, cache_control, headers={"X-Leaderboard-Source": result.source}
        )


class DailyBoardView(BoardView):
    @extend_schema(
        operation_id="leaderboard_daily",
        parameters=[
            *COMMON_PARAMETERS,
            OpenApiParameter(
                "date", OpenApiTypes.STR, OpenApiParameter.PATH, description="YYYY-MM-DD or today"
            ),
        ],
        responses={
            200: DailyPageSerializer,
            304: None,
            **problems(*BOARD_PROBLEMS, "invalid_date", "board_not_available"),
        },
        description=(
            "Ranked plays of a UTC day on one board, best first: won before not won; winners "
            "by fewer moves, less time, earlier finish; the rest by more foundation cards, "
            "fewer moves, earlier finish; exact ties by play id. A past day is frozen on "
            "first read." + SIGN_IN_NOTE
        ),
    )
    def get(self, request: Request, preset: str, date: str) -> Response:
        """Ranked plays of a UTC day on one board, best first."""
        rules = _rules(preset, request)
        today = daily.utc_today()
        day = parse_day(date, today)
        if day > today:
            raise Problem(404, "board_not_available", f"the day {day} has not started (UTC)")
        ref = BoardRef.daily(rules.key, day)
        freezing.ensure_frozen(ref, today)
        return self.answer(request, rules, ref)


class WeeklyBoardView(BoardView):
    @extend_schema(
        operation_id="leaderboard_weekly",
        parameters=[
            *COMMON_PARAMETERS,
            OpenApiParameter(
                "week", OpenApiTypes.STR, OpenApiParameter.PATH, description="2026-W48 or current"
            ),
        ],
        responses={
            200: TotalPageSerializer,
            304: None,
            **problems(*BOARD_PROBLEMS, "invalid_week"),
        },
        description=(
            "Totals of an ISO week: more wins first, then more points (100 per win, the "
            "foundation cards of a loss), then more plays; exact ties by player id." + SIGN_IN_NOTE
        ),
    )
    def get(self, request: Request, preset: str, week: str) -> Response:
        """Totals of an ISO week."""
        rules = _rules(preset, request)
        return self.answer(request, rules, BoardRef.weekly(rules.key, _parse_week(week)))


class AllTimeBoardView(BoardView):
    @extend_schema(
        operation_id="leaderboard_all_time",
        parameters=COMMON_PARAMETERS,
        responses={200: TotalPageSerializer, 304: None, **problems(*BOARD_PROBLEMS)},
        description="All-time totals, ordered as the weekly board." + SIGN_IN_NOTE,
    )
    def get(self, request: Request, preset: str) -> Response:
        """All-time totals, ordered as the weekly board."""
        rules = _rules(preset, request)
        return self.answer(request, rules, BoardRef.all_time(rules.key))
