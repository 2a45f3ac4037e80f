"""Routes of the games API, mounted at ``/api/v1/`` (no trailing slashes, as in API.md)."""

from django.urls import path

from ..winnability.views import HintView
from .views import catalog, plays

urlpatterns = [
    path("presets", catalog.PresetsView.as_view(), name="presets"),
    path("daily/<str:date>", catalog.DailyView.as_view(), name="daily"),
    path("health", catalog.HealthView.as_view(), name="health"),
    path("plays", plays.PlaysView.as_view(), name="plays"),
    path("plays/<uuid:play_id>", plays.PlayDetailView.as_view(), name="play-detail"),
    path("plays/<uuid:play_id>/moves", plays.MovesView.as_view(), name="play-moves"),
    path("plays/<uuid:play_id>/hint", HintView.as_view(), name="play-hint"),
]
