"""Leaderboard endpoints under ``/api/v1/`` (none yet)."""

urlpatterns = []
