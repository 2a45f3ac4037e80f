"""Tournaments: windows, join rules, attempts, scoring and final standings (docs/tournaments.md)."""
