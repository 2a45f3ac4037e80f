"""Routes of the games API, mounted at ``/api/v1/`` (no trailing slashes, as in API.md)."""

from django.urls import path

from ..winnability.views import HintView
from . import views

urlpatterns = [
    path("auth/register", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token", views.TokenView.as_view(), name="auth-token"),
    path("auth/token/refresh", views.RefreshView.as_view(), name="auth-token-refresh"),
    path("presets", views.PresetsView.as_view(), name="presets"),
    path("daily/<str:date>", views.DailyView.as_view(), name="daily"),
    path("health", views.HealthView.as_view(), name="health"),
    path("plays", views.PlaysView.as_view(), name="plays"),
    path("plays/<uuid:play_id>", views.PlayDetailView.as_view(), name="play-detail"),
    path("plays/<uuid:play_id>/moves", views.MovesView.as_view(), name="play-moves"),
    path("plays/<uuid:play_id>/hint", HintView.as_view(), name="play-hint"),
]
