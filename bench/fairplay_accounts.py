"""The accounts of ``bench/fairplay.py``: each simulated player plays ``days`` consecutive
deals of a preset (one a day), keeping its policy every day, and is judged as the service
judges an account (:func:`fairplay.detectors.judge_account` after every finished play).

Reported per kind, with 95 % Wilson intervals:

* **per play**: flagged by the per-play detectors alone (the figures before the account's
  judgement);
* **at finish**: flagged when the play finished (per-play detectors, or the account over
  its cut by then: a flagged account's new plays are flagged too);
* **by day D**: flagged by the end of the account's first D days (a play is flagged then
  if it was at its finish, or if the account crossed its cut on any day up to D: the
  earlier plays in its window are flagged retroactively);
* **accounts by day D**: the share of accounts with any flagged play by then.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fairplay.detectors import AccountCuts, Finding, PlaySample, judge_account, sample_of

#: The account lengths reported (a prefix of a longer account is a shorter account).
REPORTED_DAYS = (1, 3, 5, 10)


@dataclass
class Account:
    kind: str
    preset: str = ""
    samples: list[PlaySample] = field(default_factory=list)
    at_finish: list[bool] = field(default_factory=list)
    """Flagged by the per-play detectors."""
    crossed: int | None = None
    """The first day (0-based) the account's pooled evidence crossed its cut."""

    def flagged_at_finish(self, day: int) -> bool:
        return self.at_finish[day] or (self.crossed is not None and self.crossed <= day)

    def flagged_by(self, day: int, days: int) -> bool:
        """Play ``day`` flagged by the end of the account's first ``days`` days."""
        return self.at_finish[day] or (self.crossed is not None and self.crossed < days)

    def any_by(self, days: int) -> bool:
        return any(self.at_finish[:days]) or (self.crossed is not None and self.crossed < days)


class Accounts:
    """Every simulated account of one population; ``new_accounts`` starts the next ones."""

    def __init__(self, cuts: AccountCuts | None = None) -> None:
        self.cuts = cuts or AccountCuts()
        self.all: list[Account] = []
        self.current: dict[str, Account] = {}

    def new_accounts(self) -> None:
        self.current = {}

    def add(self, kind: str, key: str, found: Sequence[Finding], preset: str = "") -> None:
        account = self.current.get(key)
        if account is None:
            account = self.current[key] = Account(kind, preset)
            self.all.append(account)
        day = len(account.samples)
        account.samples.append(sample_of(f"{key}:{day}", str(day), found))
        account.at_finish.append(any(f.flagged for f in found))
        if account.crossed is None and judge_account(account.samples, self.cuts).flagged:
            account.crossed = day

    def of(self, kinds: Sequence[str]) -> list[Account]:
        return [a for a in self.all if a.kind in kinds]


def play_rate(
    accounts: list[Account], flagged: Callable[[Account, int], bool], days: int
) -> tuple[int, int]:
    hits = n = 0
    for account in accounts:
        for day in range(min(days, len(account.samples))):
            n += 1
            hits += flagged(account, day)
    return hits, n


def report_accounts(
    accounts: Accounts,
    groups: Sequence[tuple[str, tuple[str, ...]]],
    line: Callable[[str, int, int], str],
    out: Callable[[str], None],
) -> dict[str, dict[str, tuple[int, int]]]:
    """Print the tables of the module doc; return ``{group: {column: (hits, n)}}``."""
    days = max(REPORTED_DAYS)
    table: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for name, kinds in groups:
        group = accounts.of(kinds)
        row = table[name]
        row["per play"] = play_rate(group, lambda a, d: a.at_finish[d], days)
        row["at finish"] = play_rate(group, Account.flagged_at_finish, days)
        for d in REPORTED_DAYS:
            row[f"plays by day {d}"] = play_rate(group, lambda a, i, d=d: a.flagged_by(i, d), d)
            row[f"accounts by day {d}"] = (sum(a.any_by(d) for a in group), len(group))
    for column in next(iter(table.values()), {}):
        out(f"{column}:")
        for name, _ in groups:
            out("  " + line(name, *table[name][column]))
    out(f"accounts by day {days}, per preset:")
    for name, kinds in groups[:-2]:
        group = accounts.of(kinds)
        presets = sorted({a.preset for a in group})
        out(
            f"  {name:<16} "
            + ", ".join(
                f"{p} {sum(a.any_by(days) for a in group if a.preset == p)}"
                f"/{sum(a.preset == p for a in group)}"
                for p in presets
            )
        )
    return table
