"""Live streams (Server-Sent Events): boards, groups and players as they change (docs/live.md)."""
