"""URL layout: the versioned API under ``/api/v1/``, the admin, and problem-detail handlers.

Django's own 400/403/404/500 pages are replaced by RFC 9457 problem details, so a client
never has to parse HTML, whichever layer refused the request.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config.observability.views import metrics_view
from config.web.schema import RedocView, SwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The other API paths end without a slash, so tools try this spelling first: served
    # as it is (a redirect would lose clients that do not follow one).
    path("api/v1/schema", SpectacularAPIView.as_view()),
    path("api/v1/docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
    path(
        "api/v1/redoc/",
        RedocView.as_view(url_name="schema", template_name="haven/redoc.html"),
        name="redoc",
    ),
    path("api/v1/", include("accounts.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("realtime.urls")),
    path("api/v1/", include("tournaments.urls")),
    path("api/v1/", include("leaderboard.urls")),
    path("api/v1/", include("fairplay.api.urls")),
    # Prometheus metrics: 404 unless METRICS_ENABLED and METRICS_TOKEN (config.observability).
    path("metrics", metrics_view, name="metrics"),
]

handler400 = "config.web.problems.bad_request"
handler403 = "config.web.problems.permission_denied"
handler404 = "config.web.problems.page_not_found"
handler500 = "config.web.problems.server_error"
