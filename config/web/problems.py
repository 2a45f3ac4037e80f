"""RFC 9457 problem details for every error the service answers.

Every refusal, whichever layer makes it (a service's ``config.errors.DomainError``, DRF, the
engine, Django's URL resolver, the body size middleware), leaves as
``application/problem+json`` with ``type``, ``title``, ``status``, ``detail`` and a stable
machine-readable ``code`` (API.md), plus extra members where they help (``rule`` for an
illegal move, ``errors`` for field validation). The status of a domain error is the
catalogue's for its code (``config.web.catalogue``): the raiser never names one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import set_rollback

from config.errors import DomainError

from .catalogue import CATALOGUE, status_of
from .documents import problem_body
from .outage import CODE, database_problem, is_database_outage

PROBLEM_CONTENT_TYPE = "application/problem+json"

E = TypeVar("E", bound=Exception)

# A card as the engine writes it (``TH``) or as input may spell it (``10H``).
CARD_TOKEN = re.compile(r"\b(?:10|[A2-9TJQK])[SHDC]\b", re.IGNORECASE)


class Problem(exceptions.APIException):
    """An API error with its HTTP status, stable code and optional extra members."""

    def __init__(self, status_code: int, code: str, detail: str, **extra: Any) -> None:
        self.status_code = status_code
        self.problem_code = code
        self.extra = extra
        super().__init__(detail=detail, code=code)

    @classmethod
    def of(cls, code: str, detail: str, **extra: Any) -> Problem:
        """The problem ``code`` with the catalogue's status for it."""
        return cls(status_of(code), code, detail, **extra)

    def body(self) -> dict[str, Any]:
        return problem_body(self.status_code, self.problem_code, str(self.detail), **self.extra)


def problem_response(
    status_code: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> JsonResponse:
    """A plain Django problem response, for layers below DRF (middleware, URL handlers)."""
    response = JsonResponse(
        problem_body(status_code, code, detail, **extra),
        status=status_code,
        content_type=PROBLEM_CONTENT_TYPE,
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response


#: Exceptions the apps translate into problems themselves, each with its translator:
#: filled by their ``AppConfig.ready()`` (the games app: the engine's refusals,
#: ``games.api.problems``), so that this layer needs no app.
_TRANSLATORS: list[tuple[type[Exception], Callable[[Any], Problem]]] = []


def register_translator(kind: type[E], translate: Callable[[E], Problem]) -> None:
    """Answer every ``kind`` (and subclass) raised in a request as ``translate`` says.
    Called from an app's ``ready()``; registering the same pair again changes nothing."""
    if (kind, translate) not in _TRANSLATORS:
        _TRANSLATORS.append((kind, translate))


def translated(error: Exception) -> Exception:
    """``error`` as the problem its app's translator makes of it, else ``error`` itself."""
    for kind, translate in _TRANSLATORS:
        if isinstance(error, kind):
            return translate(error)
    return error


def domain_problem(error: DomainError) -> Problem | None:
    """A service's refusal as the problem its code stands for: the status and title are the
    catalogue's. ``None`` for a code the catalogue lacks: that is a bug, answered 500."""
    if error.code not in CATALOGUE:
        return None
    return Problem.of(error.code, error.detail, **error.extra)


def redact_cards(text: str, allowed: set[str]) -> str:
    """Replace every card name in ``text`` that is not in ``allowed`` by 'a hidden card'."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(0).upper().replace("10", "T")
        return match.group(0) if name in allowed else "a hidden card"

    return CARD_TOKEN.sub(replace, text)


def _flatten(detail: Any) -> list[str]:
    if isinstance(detail, dict):
        return [f"{key}: {msg}" for key, value in detail.items() for msg in _flatten(value)]
    if isinstance(detail, list):
        return [msg for item in detail for msg in _flatten(item)]
    return [str(detail)]


def _errors(detail: Any) -> Any:
    """DRF's nested error detail as plain JSON (strings, lists, dicts)."""
    if isinstance(detail, dict):
        return {str(key): _errors(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_errors(item) for item in detail]
    return str(detail)


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    if isinstance(codes, dict) and isinstance(codes.get("code"), str):
        return codes["code"]  # simplejwt's InvalidToken carries its code in a dict
    return exc.default_code


def _detail_of(exc: exceptions.APIException) -> str:
    detail = exc.detail
    if isinstance(detail, dict) and "detail" in detail:
        return str(detail["detail"])
    return "; ".join(_flatten(detail))


def problem_for_exception(exc: Exception) -> tuple[dict[str, Any], int, dict[str, str]] | None:
    """Problem body, status and headers for ``exc``, or None if it is not a known error."""
    headers: dict[str, str] = {}
    if is_database_outage(exc):
        return database_problem(exc)
    exc = translated(exc)
    if isinstance(exc, DomainError):
        problem = domain_problem(exc)
        if problem is None:
            return None
        exc = problem
    if isinstance(exc, Problem):
        return exc.body(), exc.status_code, headers
    if isinstance(exc, Http404):
        return problem_body(404, "not_found", "no such resource"), 404, headers
    if isinstance(exc, DjangoPermissionDenied):
        return problem_body(403, "permission_denied", "not allowed"), 403, headers
    if not isinstance(exc, exceptions.APIException):
        return None

    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))

    if isinstance(exc, exceptions.ValidationError):
        messages = _flatten(exc.detail)
        body = problem_body(
            400,
            "validation_error",
            "; ".join(messages) or "invalid request",
            errors=_errors(exc.detail),
        )
        return body, 400, headers
    if isinstance(exc, exceptions.ParseError):
        return problem_body(400, "malformed_json", _detail_of(exc)), 400, headers
    if isinstance(exc, exceptions.Throttled):
        return problem_body(429, "throttled", _detail_of(exc)), 429, headers
    code = _code_of(exc)
    return problem_body(exc.status_code, code, _detail_of(exc)), exc.status_code, headers


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every known error as a problem document."""
    result = problem_for_exception(exc)
    if result is None:
        return None  # a bug: Django's handler500 answers with a 500 problem
    body, status_code, headers = result
    set_rollback()
    request = context.get("request")
    if request is not None:
        # A problem is JSON whatever the view renders otherwise (the schema's YAML, the
        # Swagger page's HTML), so force the renderer the response will be finalised with.
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = PROBLEM_CONTENT_TYPE
    return Response(body, status=status_code, headers=headers, content_type=PROBLEM_CONTENT_TYPE)


# --- Django's error views (outside DRF: unknown URLs, CSRF, crashes) -------------------------


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return problem_response(400, "bad_request", "the request could not be understood")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return problem_response(403, "permission_denied", "not allowed")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return problem_response(404, "not_found", "no such resource")


def server_error(request: HttpRequest) -> JsonResponse:
    error = sys.exc_info()[1]  # Django calls handler500 inside its except block
    if is_database_outage(error):
        body, status_code, headers = database_problem(error)
        return problem_response(status_code, CODE, body["detail"], headers=headers)
    if isinstance(error, DomainError) and error.code in CATALOGUE:
        # A service's refusal that reached Django below DRF (a middleware, a plain view) is
        # still an answer, not a crash: the same document DRF's handler would have made.
        return problem_response(status_of(error.code), error.code, error.detail, **error.extra)
    return problem_response(
        status.HTTP_500_INTERNAL_SERVER_ERROR, "server_error", "an unexpected error occurred"
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """``CSRF_FAILURE_VIEW``: Django's CSRF refusal (admin forms) as a problem document."""
    return problem_response(403, "csrf_failed", "CSRF verification failed")
