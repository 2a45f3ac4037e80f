"""Security headers on every response, and a Content-Security-Policy on the HTML pages.

Django's ``SecurityMiddleware`` and ``XFrameOptionsMiddleware`` set most of these, but only
on the answers that pass through them: a refusal by a middleware above them (a control
character in the URL, an oversized body, a CORS preflight) would go without. This
middleware sits outermost (after the request id's) and fills in whatever is missing, from
the same settings:

* ``X-Content-Type-Options: nosniff`` (``SECURE_CONTENT_TYPE_NOSNIFF``),
* ``Referrer-Policy`` (``SECURE_REFERRER_POLICY``, Django's default ``same-origin``),
* ``X-Frame-Options: DENY`` (``X_FRAME_OPTIONS``) and, in the CSP, ``frame-ancestors 'none'``,
* ``Cross-Origin-Opener-Policy`` (``SECURE_CROSS_ORIGIN_OPENER_POLICY``, ``same-origin``).

The CSP goes on the pages a browser renders: the web client (``/play/``), Swagger UI and
ReDoc (``/api/v1/docs/``, ``/api/v1/redoc/``; their assets come from
drf-spectacular-sidecar, on this origin), and a ``default-src 'none'`` one on everything
else but the admin (JSON is never rendered, so nothing may load). ``CSP_CONNECT_SRC`` adds
origins the web client may call (an API on another origin: its ``?api=`` parameter).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

#: Path prefixes of HTML pages and the CSP each gets.
PAGES = ("/play/", "/api/v1/docs/", "/api/v1/redoc/")
#: The admin's templates are Django's (not reviewed for a CSP here): it gets none.
NO_POLICY = ("/admin/",)

# Swagger UI and ReDoc set inline styles (ReDoc's styled-components write <style> tags) and
# ReDoc searches in a blob: worker; neither runs inline script (the Swagger page's script
# is served by the split view), so script-src stays 'self'.
_PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; "
    "connect-src 'self'{connect}; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"


def page_policy() -> str:
    extra = " ".join(getattr(settings, "CSP_CONNECT_SRC", []))
    return _PAGE_POLICY.format(connect=f" {extra}" if extra else "")


def _static_headers() -> dict[str, str]:
    headers = {}
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    if settings.SECURE_REFERRER_POLICY:
        headers["Referrer-Policy"] = settings.SECURE_REFERRER_POLICY
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers["Cross-Origin-Opener-Policy"] = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    headers["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY")
    return headers


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.headers = _static_headers()
        self.page_policy = page_policy()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.fill(request, self.get_response(request))

    def fill(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """Add the headers ``response`` lacks (also the streams' direct path's last step)."""
        for name, value in self.headers.items():
            if name not in response:
                response[name] = value
        if "Content-Security-Policy" not in response and not request.path.startswith(NO_POLICY):
            page = request.path.startswith(PAGES)
            response["Content-Security-Policy"] = self.page_policy if page else _API_POLICY
        return response
