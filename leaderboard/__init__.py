"""Leaderboards and player statistics: scores, boards (Redis with a PostgreSQL fallback),
frozen days, profiles and streaks, groups. ``README.md`` here maps the modules."""
