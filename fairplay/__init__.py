"""Fair play on ranked boards: evidence, detectors, flags and their review (README, Fair play)."""
