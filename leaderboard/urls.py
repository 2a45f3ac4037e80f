"""Leaderboard, player and group endpoints, mounted at ``/api/v1/`` (no trailing slashes)."""

from django.urls import path

from .api.views import boards, groups, players

urlpatterns = [
    path(
        "leaderboards/<str:preset>/daily/<str:date>",
        boards.DailyBoardView.as_view(),
        name="leaderboard-daily",
    ),
    path(
        "leaderboards/<str:preset>/weekly/<str:week>",
        boards.WeeklyBoardView.as_view(),
        name="leaderboard-weekly",
    ),
    path(
        "leaderboards/<str:preset>/all-time",
        boards.AllTimeBoardView.as_view(),
        name="leaderboard-all-time",
    ),
    path("players/me", players.MeView.as_view(), name="player-me"),
    path("players/<str:username>", players.PlayerView.as_view(), name="player-detail"),
    path("groups", groups.GroupsView.as_view(), name="groups"),
    path("groups/join", groups.GroupJoinView.as_view(), name="group-join"),
    path("groups/<int:group_id>", groups.GroupDetailView.as_view(), name="group-detail"),
    path("groups/<int:group_id>/leave", groups.GroupLeaveView.as_view(), name="group-leave"),
]
