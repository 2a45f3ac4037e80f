"""Tournament endpoints, mounted at ``/api/v1/``."""

from django.urls import path

from realtime.views import stream_view

from .views import (
    TournamentDealView,
    TournamentDetailView,
    TournamentJoinView,
    TournamentPlaysView,
    TournamentsView,
    tournament_stream,
)

urlpatterns = [
    path("tournaments", TournamentsView.as_view(), name="tournaments"),
    path(
        "tournaments/<int:tournament_id>", TournamentDetailView.as_view(), name="tournament-detail"
    ),
    path(
        "tournaments/<int:tournament_id>/join", TournamentJoinView.as_view(), name="tournament-join"
    ),
    path(
        "tournaments/<int:tournament_id>/plays",
        TournamentPlaysView.as_view(),
        name="tournament-plays",
    ),
    path(
        "tournaments/<int:tournament_id>/deal",
        TournamentDealView.as_view(),
        name="tournament-deal",
    ),
    path(
        "tournaments/<int:tournament_id>/stream",
        stream_view(tournament_stream),
        name="tournament-stream",
    ),
]
