"""Cursor pagination of ``GET /plays``: the same refusals as the boards' own cursors.

Cursors are base64url without padding, the alphabet the schema declares for ``?cursor``
(``^[A-Za-z0-9_-]*$``), as on the boards; DRF's own are standard base64 with ``=``
padding (``%3D`` in a link), which request validators and generated clients refused.
Cursors of that older form are still read.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib import parse

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination, _positive_int
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from config.web.problems import Problem


class PlayCursor(CursorPagination):
    """Newest first; a cursor or page size the API did not give is a 400, as on boards."""

    ordering = "-started_at"
    page_size = 20
    max_page_size = 100
    page_size_query_param = "page_size"

    def encode_cursor(self, cursor: Cursor) -> str:
        tokens = {}
        if cursor.offset != 0:
            tokens["o"] = str(cursor.offset)
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.position is not None:
            tokens["p"] = cursor.position
        raw = parse.urlencode(tokens, doseq=True).encode("ascii")
        encoded = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
        return replace_query_param(self.base_url, self.cursor_query_param, encoded)

    def decode_cursor(self, request: Request) -> Cursor | None:
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return None
        try:
            # base64url, or the standard alphabet with padding of cursors given before.
            text = encoded.rstrip("=").replace("-", "+").replace("_", "/")
            raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
            tokens = parse.parse_qs(raw.decode("ascii"), keep_blank_values=True)
            offset = _positive_int(tokens.get("o", ["0"])[0], cutoff=self.offset_cutoff)
            reverse = bool(int(tokens.get("r", ["0"])[0]))
            position = tokens.get("p", [None])[0]
        except (TypeError, ValueError, binascii.Error, UnicodeDecodeError, NotFound):
            raise Problem.of("invalid_cursor", "the cursor is not one this list gave") from None
        return Cursor(offset=offset, reverse=reverse, position=position)

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        link = {
            "type": "string",
            "nullable": True,
            "format": "uri",
            "example": "https://haven.example/api/v1/plays?cursor=cD0yMDI2LTEyLTA2",
        }
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": dict(link), "results": schema},
        }

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
