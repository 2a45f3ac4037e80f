"""Leaderboards and player statistics (stub: another engineer fills it in)."""
