"""The JSON parser of every API endpoint: bounded in size and nesting depth.

Python's ``json`` module recurses once per nesting level, so a 2 KB body of a thousand
``[`` raises ``RecursionError`` deep inside DRF (a 500). The nesting is measured first,
without recursion, and a body deeper than ``JSON_MAX_DEPTH`` is refused with ``400
invalid_json``; a body longer than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (which the body size
middleware checks on ``Content-Length``) is refused here too, whatever its headers said.
"""

from __future__ import annotations

import json
import re
from typing import IO, Any

from django.conf import settings
from rest_framework.parsers import JSONParser, get_encoding

DEFAULT_MAX_DEPTH = 32
# A JSON string (escapes included), or one bracket: only brackets outside strings nest.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def max_depth() -> int:
    return getattr(settings, "JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of ``raw`` (ill-formed JSON is the decoder's to judge)."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group(0)
        if len(token) != 1:
            continue  # a string: brackets inside it do not nest
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class BoundedJSONParser(JSONParser):
    """DRF's strict JSON parser behind a size and a nesting limit (both 4xx problems)."""

    def parse(self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None):
        # Imported here: config.web.problems imports DRF's views, which import this parser.
        from .problems import Problem

        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise Problem(413, "payload_too_large", f"request bodies are limited to {limit} bytes")
        encoding = get_encoding(parser_context or {})  # text codecs only (no bz2 bombs)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as error:
            raise Problem(400, "malformed_json", f"JSON parse error - {error}") from None
        deepest = max_depth()
        if nesting_depth(text) > deepest:
            raise Problem(
                400, "invalid_json", f"JSON nested deeper than {deepest} levels is refused"
            )
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:  # only if JSON_MAX_DEPTH is set near the interpreter's limit
            raise Problem(400, "invalid_json", "JSON nested too deeply") from None
        except ValueError as error:
            raise Problem(400, "malformed_json", f"JSON parse error - {error}") from None
        if "\\u" in text and not _encodable(data):
            # "\ud800" decodes to a lone surrogate, which no response, log line or
            # PostgreSQL text can hold: echoing it back would crash the renderer.
            raise Problem(400, "invalid_json", "a string holds a lone UTF-16 surrogate")
        return data


def _encodable(data: Any) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
