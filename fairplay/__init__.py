"""Fair play on ranked boards: evidence, detectors, flags and their review (docs/fair-play.md)."""
