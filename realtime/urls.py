"""Stream endpoints, mounted at ``/api/v1/`` beside the boards and groups they follow."""

from django.urls import path

from .api import TicketView
from .views import board_stream, group_stream, player_stream, stream_view

urlpatterns = [
    path(
        "leaderboards/<str:preset>/daily/<str:date>/stream",
        stream_view(board_stream),
        name="stream-board",
    ),
    path("groups/<int:group_id>/stream", stream_view(group_stream), name="stream-group"),
    path("players/me/stream", stream_view(player_stream), name="stream-player"),
    path("streams/tickets", TicketView.as_view(), name="stream-tickets"),
]
