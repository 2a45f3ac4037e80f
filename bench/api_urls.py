"""The production URLs plus ``/bench/noop``: a DRF endpoint with the API's authentication
(JWT, authenticated users only) that does nothing and answers ``{}``. The yardstick of
``bench/api.py``; never part of ``config.urls``."""

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401
from config.urls import urlpatterns as production_urlpatterns


class NoopView(APIView):
    """Same authentication and permission classes as the API (the defaults); no work."""

    def post(self, request: Request) -> Response:
        return Response({})


urlpatterns = [*production_urlpatterns, path("bench/noop", NoopView.as_view(), name="bench-noop")]
