"""Cursor pagination of ``GET /plays``: the same refusals as the boards' own cursors."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

from config.web.problems import Problem


class PlayCursor(CursorPagination):
    """Newest first; a cursor or page size the API did not give is a 400, as on boards."""

    ordering = "-started_at"
    page_size = 20
    max_page_size = 100
    page_size_query_param = "page_size"

    def decode_cursor(self, request: Request) -> Cursor | None:
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise Problem.of("invalid_cursor", "the cursor is not one this list gave") from None

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        # ASCII digits only: "²".isdigit() is true but int("²") raises; "" is no integer.
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.max_page_size:
            raise Problem.of(
                "invalid_page_size", f"page_size is an integer from 1 to {self.max_page_size}"
            )
        return int(raw)


PAGINATION_PARAMETERS = [
    OpenApiParameter(
        "cursor", OpenApiTypes.STR, description="opaque, from `next` / `previous` of a page"
    ),
    OpenApiParameter(
        "page_size",
        OpenApiTypes.INT,
        description=f"1–{PlayCursor.max_page_size}, default {PlayCursor.page_size}",
    ),
]
