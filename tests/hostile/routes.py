"""Every API route, read from the URL configuration, so a new endpoint is covered at once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Route:
    template: str  # "api/v1/players/<str:username>"
    view: type
    methods: tuple[str, ...]

    @property
    def params(self) -> list[tuple[str, str]]:
        """(name, converter) of each path parameter."""
        return [(m["name"], m["converter"] or "str") for m in _PARAM.finditer(self.template)]

    @property
    def openapi_path(self) -> str:
        return "/" + _PARAM.sub(lambda m: "{" + m["name"] + "}", self.template)

    def url(self, **values: str) -> str:
        """The path with each parameter replaced (values already percent-encoded)."""
        return "/" + _PARAM.sub(lambda m: values[m["name"]], self.template)


def _walk(patterns: list, prefix: str = ""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.callback


@cache
def api_routes() -> tuple[Route, ...]:
    routes = []
    for template, callback in _walk(get_resolver().url_patterns):
        view = getattr(callback, "cls", None)
        if not template.startswith("api/v1/") or view is None:
            continue
        methods = tuple(m for m in METHODS if hasattr(view, m))
        routes.append(Route(template, view, methods))
    return tuple(routes)


@cache
def schema() -> dict:
    return SchemaGenerator().get_schema(public=True)


def takes_json_body(route: Route, method: str) -> bool:
    operation = schema()["paths"][route.openapi_path][method]
    return "application/json" in operation.get("requestBody", {}).get("content", {})


def json_endpoints() -> list[tuple[Route, str]]:
    """Every (route, method) that accepts a request body (POST, PUT, PATCH)."""
    return [
        (route, method)
        for route in api_routes()
        for method in route.methods
        if method in ("post", "put", "patch")
    ]


# A harmless value per path parameter, for tests that attack something else.
BENIGN = {
    "uuid": "00000000-0000-4000-8000-000000000000",
    "int": "1",
    "date": "today",
    "week": "current",
    "preset": "easthaven",
    "username": "nobody",
}


def benign(route: Route) -> dict[str, str]:
    return {name: BENIGN.get(converter, BENIGN.get(name, "x")) for name, converter in route.params}
