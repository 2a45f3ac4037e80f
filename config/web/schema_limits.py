"""Schema post-processing: the rate limits and the database outage every client meets.

* Throttled operations (a view with a ``throttle_scope`` that has a rate in
  ``DEFAULT_THROTTLE_RATES``): ``RateLimit-Policy`` and ``RateLimit`` (the IETF draft,
  ``config.web.throttling``) on their answers, and a ``429 throttled`` that carries them with
  ``Retry-After``.
* Every operation that reads the database: ``503 database_unavailable`` with
  ``Retry-After`` (``config.web.outage``); ``/health`` says it in its own body, with the header.

The statuses come from where the answers are made, not from each view's decorator, so a new
throttled view or a new operation is described without anyone remembering to.
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings

from .openapi import problem_schema
from .problems import PROBLEM_CONTENT_TYPE

_SCOPE = r'"[a-z_]+"'
RATE_LIMIT_HEADERS: dict[str, dict[str, Any]] = {
    "RateLimit-Policy": {
        "description": 'the throttle\'s quota: `"<scope>";q=<requests>;w=<seconds>` '
        "(draft-ietf-httpapi-ratelimit-headers)",
        "schema": {"type": "string", "pattern": f"^{_SCOPE};q=[0-9]+;w=[0-9]+$"},
    },
    "RateLimit": {
        "description": 'what is left of it: `"<scope>";r=<remaining>;t=<seconds until the '
        "window ends>`",
        "schema": {"type": "string", "pattern": f"^{_SCOPE};r=[0-9]+;t=[0-9]+$"},
    },
}


def _retry_after(description: str, required: bool) -> dict[str, Any]:
    return {
        "description": description,
        "required": required,
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    }


def _problem_response(codes: list[str]) -> dict[str, Any]:
    return {
        "description": "problem: " + ", ".join(f"`{code}`" for code in codes),
        "content": {PROBLEM_CONTENT_TYPE: {"schema": problem_schema(codes)}},
    }


def _add_code(response: dict[str, Any], code: str) -> bool:
    """Add ``code`` to a problem response's enum; False if it is not a problem response."""
    schema = response.get("content", {}).get(PROBLEM_CONTENT_TYPE, {}).get("schema", {})
    enum = schema.get("properties", {}).get("code", {}).get("enum")
    if enum is None:
        return False
    if code not in enum:
        enum.append(code)
        response["description"] = response.get("description", "problem") + f", `{code}`"
    return True


def _throttled_operations(generator: Any) -> set[tuple[str, str]]:
    """(path, method) of every operation whose view a throttle counts."""
    rates = api_settings.DEFAULT_THROTTLE_RATES
    found = set()
    for path, _regex, method, callback in generator.endpoints or []:
        scope = getattr(getattr(callback, "cls", None), "throttle_scope", None)
        if scope and rates.get(scope):
            found.add((path, method.lower()))
    return found


def _declare_rate_limits(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    too_many = responses.setdefault("429", _problem_response(["throttled"]))
    _add_code(too_many, "throttled")
    for status, response in responses.items():
        if status == "401":  # authentication is checked before the throttle counts
            continue
        headers = response.setdefault("headers", {})
        for name, header in RATE_LIMIT_HEADERS.items():
            headers[name] = {**header, "required": status == "429"}
    too_many["headers"]["Retry-After"] = _retry_after("seconds until the window ends", True)


def _declare_outage(path: str, operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    unavailable = responses.setdefault("503", _problem_response(["database_unavailable"]))
    is_problem = _add_code(unavailable, "database_unavailable")
    codes = (
        unavailable["content"][PROBLEM_CONTENT_TYPE]["schema"]["properties"]["code"]["enum"]
        if is_problem
        else []
    )
    # Retry-After is always sent with database_unavailable (and by /health when the
    # database is down); a 503 that may also be another code only sometimes has it.
    always = not is_problem or codes == ["database_unavailable"]
    unavailable.setdefault("headers", {})["Retry-After"] = _retry_after(
        "seconds to wait before retrying (`DB_RETRY_AFTER`) while PostgreSQL is unreachable",
        always,
    )


def declare_limits(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """``POSTPROCESSING_HOOKS`` entry: rate-limit headers and 429, the database's 503."""
    throttled = _throttled_operations(generator)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if (path, method) in throttled:
                _declare_rate_limits(operation)
            _declare_outage(path, operation)
    return result
