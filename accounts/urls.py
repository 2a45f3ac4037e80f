"""Routes of the accounts API, mounted at ``/api/v1/`` (``DELETE /players/me`` is served by
the profile view of the same path, ``leaderboard.api.views.players.MeView``)."""

from django.urls import path

from .api import lifecycle, views

urlpatterns = [
    path("auth/register", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token", views.TokenView.as_view(), name="auth-token"),
    path("auth/token/refresh", views.RefreshView.as_view(), name="auth-token-refresh"),
    path("auth/guest", lifecycle.GuestView.as_view(), name="auth-guest"),
    path("auth/link", lifecycle.LinkView.as_view(), name="auth-link"),
    path("auth/logout", lifecycle.LogoutView.as_view(), name="auth-logout"),
    path("auth/password", lifecycle.PasswordView.as_view(), name="auth-password"),
    path("players/me/export", lifecycle.ExportView.as_view(), name="player-me-export"),
]
