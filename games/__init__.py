"""The games app: deals, plays and their move logs around the pure rules engine."""
