"""Leaderboard, player and group endpoints, mounted at ``/api/v1/`` (no trailing slashes)."""

from django.urls import path

from .api import views

urlpatterns = [
    path(
        "leaderboards/<str:preset>/daily/<str:date>",
        views.DailyBoardView.as_view(),
        name="leaderboard-daily",
    ),
    path(
        "leaderboards/<str:preset>/weekly/<str:week>",
        views.WeeklyBoardView.as_view(),
        name="leaderboard-weekly",
    ),
    path(
        "leaderboards/<str:preset>/all-time",
        views.AllTimeBoardView.as_view(),
        name="leaderboard-all-time",
    ),
    path("players/me", views.MeView.as_view(), name="player-me"),
    path("players/<str:username>", views.PlayerView.as_view(), name="player-detail"),
    path("groups", views.GroupsView.as_view(), name="groups"),
    path("groups/join", views.GroupJoinView.as_view(), name="group-join"),
    path("groups/<int:group_id>", views.GroupDetailView.as_view(), name="group-detail"),
    path("groups/<int:group_id>/leave", views.GroupLeaveView.as_view(), name="group-leave"),
]
