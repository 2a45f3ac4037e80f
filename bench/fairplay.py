"""Fair play: how often the detectors catch each kind of cheat, and how often honest players.

    .venv/bin/python bench/fairplay.py            # 300 held-out deals a preset (and 100 tuning)
    .venv/bin/python bench/fairplay.py --quick    # 20 held-out deals a preset, same players

Simulated players (:mod:`fairplay_players`) play daily-like deals of every preset (decks
from ``engine.deck_from_seed`` of ``HMAC(bench secret, day:preset:n)``, as the daily
candidates are made from ``DAILY_SECRET``; not filtered for winnability). Each finished
play becomes a :class:`fairplay.detectors.PlayRecord` and goes through
:func:`fairplay.detectors.run_detectors`, exactly as the service runs them.

Two populations, with different secrets (so different deals) and different player
parameters: **tuning**, on which the thresholds in ``fairplay/detectors`` were chosen,
and **held-out**, the headline: its honest players, cheats and clocks were not seen while
tuning. Kinds:

* honest: visible-information policy, human think times that depend on the position,
  mistakes and undos (ranked: no undo past a reveal); an honest pair shares an address,
  so the second player's record carries the first one's seen cards (must not flag);
* clairvoyant: the same players seeing the full deck and letting it steer them, human
  times (held-out: a noisy variant with more mistakes too); weak-clairvoyant: seeing it
  but barely using it (reported, not in the goal: they gain little, see "won");
* bot: honest or clairvoyant choices at machine speed; bot-sleeps: random sleeps;
* linked-dig: a throwaway account plays first, then the main account plays knowing the
  cards it saw, at human times; linked-solver: the main account plays a solved line;
* solver-line: a cheat's own solver run (half the par budget) played at human times,
  on the deals with a par (the first ``--par-deals``).

**Accounts**: every ``--days`` deals (10) the simulated players become new accounts, so
each account plays ``--days`` consecutive deals of one preset, one a day, keeping its
policy, and is judged across its days as the service judges it
(:mod:`fairplay_accounts`).

Printed: per kind the share of plays flagged by the per-play detectors (any detector)
with a 95 % Wilson interval and which detector fired, the false-positive rate on honest
plays, the detectors' cost per finished play (the account's judgement included); then the
account tables (per play, at finish, by day 1, 3, 5 and 10, per account); and last
``fair play: detected D % of cheats at F % false positives`` (held-out), where D is the
share of cheat plays flagged by the end of their account's ``--days`` days (a flag at the
finish, or a retroactive one when the account crossed its cut on a later day) and F the
same share of honest plays (honest players and honest pairs on one address).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import math
import os
import platform
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# This script's own directory must not shadow the ``fairplay`` package with this file.
sys.path[:] = [ROOT] + [
    p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))
]

from bench.fairplay_accounts import REPORTED_DAYS, Accounts, report_accounts  # noqa: E402
from bench.fairplay_players import (  # noqa: E402
    Chooser,
    Clock,
    Played,
    play,
    play_line,
    solver_line,
)
from fairplay.detectors import Finding, PastPlay, PlayRecord, run_detectors  # noqa: E402
from games.engine import NAMES, PRESETS, deck_from_seed, get_rules  # noqa: E402

HONEST = "honest"
CHEATS = ("clairvoyant", "bot", "bot-sleeps", "linked-dig", "linked-solver", "solver-line")
#: Not counted in the goal: they see the deck but barely use it (reported, with their gain).
WEAK = "weak-clairvoyant"
#: Seconds the solver gets per deal for par, and for the solver-line cheat's own run.
PAR_BUDGET = 1.0
CHEAT_BUDGET = 0.5


@dataclass(frozen=True)
class Population:
    name: str
    secret: str
    honest: tuple[tuple[Chooser, Clock], ...]
    clairvoyant: tuple[tuple[Chooser, Clock], ...]
    """Players who use the hidden cards they see (weight ≥ 2: the knowledge steers them)."""
    weak: tuple[tuple[Chooser, Clock], ...]
    """Players who see the deck but barely let it steer them (they gain little: see the
    win rates)."""
    bot: tuple[Chooser, ...]
    sleeps: tuple[Clock, ...]


TUNING = Population(
    "tuning",
    "fairplay-bench-tuning",
    honest=((Chooser(0.8, 0.05, 0.5), Clock("human", 1.2, 0.6, 0.8, 0.5)),),
    clairvoyant=((Chooser(0.8, 0.05, 0.5, weight=3.0), Clock("human", 1.2, 0.6, 0.8, 0.5)),),
    weak=((Chooser(0.8, 0.05, 0.5, weight=1.0), Clock("human", 1.2, 0.6, 0.8, 0.5)),),
    bot=(Chooser(0.3, 0.0, 0.0), Chooser(0.3, 0.0, 0.0, weight=1.0)),
    sleeps=(Clock("sleep", low=1.0, high=5.0),),
)
HELD_OUT = Population(
    # The second held-out population (2026-12-06): the first ("fairplay-bench-held-out",
    # honest clocks 2.0/0.4/0.5/0.6 and 0.8/0.5/0.6/0.6) showed the position-indifference
    # cut of 1.0 flagging 1.5 % of its honest players, so the cut became 0.5 and these
    # deals and players, unseen by either change, measure the result.
    "held-out",
    # The third (2026-12-06, issue 39's account judgement): on the second ("…-held-out-2",
    # same players) the pooled rhythm cut flagged honest accounts whose long Westcliff
    # plays hardly follow the position, so it was turned off; these deals measure that.
    "fairplay-bench-held-out-3",
    honest=(
        (Chooser(0.4, 0.03, 0.7), Clock("human", 1.6, 0.5, 0.6, 0.55)),  # careful
        (Chooser(1.2, 0.10, 0.4), Clock("human", 1.0, 0.45, 0.5, 0.65)),  # casual, quick
    ),
    clairvoyant=(
        (Chooser(0.4, 0.03, 0.7, weight=3.5), Clock("human", 1.6, 0.5, 0.6, 0.55)),
        (Chooser(1.2, 0.10, 0.4, weight=2.0), Clock("human", 1.0, 0.45, 0.5, 0.65)),  # noisy
    ),
    weak=((Chooser(1.2, 0.10, 0.4, weight=0.8), Clock("human", 1.0, 0.45, 0.5, 0.65)),),
    bot=(Chooser(0.2, 0.0, 0.0), Chooser(0.2, 0.0, 0.0, weight=2.0)),
    sleeps=(Clock("sleep", low=0.8, high=6.0), Clock("sleep-lognormal", base=2.5, sigma=0.6)),
)


def deck(secret: str, preset: str, n: int) -> tuple[int, ...]:
    message = f"haven-daily:bench:{preset}:{n}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return deck_from_seed(int.from_bytes(digest[:8], "big") >> 1)


def record(
    preset: str,
    cards: tuple[int, ...],
    played: Played,
    par: int | None,
    linked: frozenset[str] = frozenset(),
    history: tuple[PastPlay, ...] = (),
    par_line: tuple[dict[str, object], ...] = (),
) -> PlayRecord:
    return PlayRecord(
        preset=preset,
        options={},
        deck=tuple(NAMES[c] for c in cards),
        moves=tuple(played.moves),
        move_seconds=tuple(played.seconds),
        outcome=played.outcome,
        par=par,
        account_age_days=30.0,
        linked_reveals=linked,
        history=history,
        par_line=par_line,
    )


def plays_of_deal(
    pop: Population,
    preset: str,
    n: int,
    line: list[dict[str, object]],
    histories: dict[str, list[PastPlay]],
    own_line: list[dict[str, object]] | None = None,
) -> Iterator[tuple[str, str, PlayRecord]]:
    """(kind, account, record) of every simulated play of deal ``n`` (``account``: the
    simulated player, one per kind and parameter set, whose history it is); ``line`` is
    the deal's par solution (par is its length), ``own_line`` the win a cheat's own solver
    run found (the solver-line cheat plays it), ``histories`` each account's earlier
    plays, newest first (updated)."""
    rules = get_rules(preset)
    cards = deck(pop.secret, preset, n)
    par = len(line) if line else None
    rng = random.Random(f"{pop.secret}:{preset}:{n}")
    everyone: Callable[[int], bool] = lambda card: True  # noqa: E731
    hidden = rules.face_down_rows > 0  # Seahaven: nothing to see through, nobody to link

    def done(
        kind: str, played: Played, linked: frozenset[str] = frozenset()
    ) -> tuple[str, str, PlayRecord]:
        past = histories.setdefault(kind, [])
        rec = record(preset, cards, played, par, linked, tuple(past), tuple(line))
        times = sorted(played.seconds)
        past.insert(
            0,
            PastPlay(
                preset,
                played.outcome == "won",
                len(played.moves),
                par,
                sum(1 for m in played.moves if m["type"] == "undo"),
                True,
                times[len(times) // 2] if times else None,
            ),
        )
        del past[10:]
        return kind.split(":")[0] if not kind.startswith("linked") else kind, kind, rec

    for i, (chooser, clock) in enumerate(pop.honest):
        yield done(f"{HONEST}:{i}", play(rules, cards, chooser, clock, rng))
    # An honest pair on one address: the second's record names the first's cards.
    first = play(rules, cards, *pop.honest[0], rng)
    second = play(rules, cards, *pop.honest[-1], rng)
    yield done("honest-pair", second, first.seen if hidden else frozenset())
    if hidden:
        for i, (chooser, clock) in enumerate(pop.clairvoyant):
            yield done(f"clairvoyant:{i}", play(rules, cards, chooser, clock, rng, everyone))
        for i, (chooser, clock) in enumerate(pop.weak):
            yield done(f"weak-clairvoyant:{i}", play(rules, cards, chooser, clock, rng, everyone))
    machine = Clock("machine")
    for i, chooser in enumerate(pop.bot):
        yield done(f"bot:{i}", play(rules, cards, chooser, machine, rng, everyone))
    for i, clock in enumerate(pop.sleeps):
        chooser = rng.choice(pop.bot)
        yield done(f"bot-sleeps:{i}", play(rules, cards, chooser, clock, rng, everyone))
    if hidden:
        throwaway = play(rules, cards, *pop.honest[0], rng)
        known = frozenset(NAMES.index(name) for name in throwaway.seen)
        chooser, _ = pop.clairvoyant[0]
        main = play(rules, cards, chooser, pop.honest[-1][1], rng, known.__contains__)
        yield done("linked-dig", main, throwaway.seen)
    if own_line:
        yield done("solver-line", play_line(rules, cards, own_line, pop.honest[-1][1], rng))
        if hidden:  # the attack: a throwaway reveals, the main plays a solved line
            throwaway = play(rules, cards, *pop.honest[0], rng)
            main = play_line(rules, cards, own_line, pop.honest[0][1], rng)
            yield done("linked-solver", main, throwaway.seen)


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Tally:
    def __init__(self) -> None:
        self.n: dict[str, int] = defaultdict(int)
        self.flagged: dict[str, int] = defaultdict(int)
        self.by: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.seahaven: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.seconds = 0.0
        self.solving = 0.0
        self.won: dict[str, int] = defaultdict(int)
        self.plays = 0

    def add(self, kind: str, rec: PlayRecord, found: list[Finding], seconds: float) -> None:
        preset = rec.preset
        hit = any(f.flagged for f in found)
        self.n[kind] += 1
        self.flagged[kind] += hit
        self.won[kind] += rec.outcome == "won"
        if rec.outcome == "won":  # only wins reach a daily board
            self.n["won " + kind] += 1
            self.flagged["won " + kind] += hit
        for f in found:
            self.by[kind][f.detector] += f.flagged
        if preset == "seahaven":
            self.seahaven[kind][0] += hit
            self.seahaven[kind][1] += 1
        self.seconds += seconds
        self.plays += 1

    def rate(self, kinds: tuple[str, ...]) -> tuple[int, int]:
        return sum(self.flagged[k] for k in kinds), sum(self.n[k] for k in kinds)


def run(
    pop: Population,
    presets: list[str],
    deals: int,
    par_deals: int,
    days: int,
    out: Callable[[str], None],
) -> tuple[Tally, Accounts]:
    """Every play of ``deals`` deals a preset; the first ``par_deals`` of them get a par (the
    solver's, as the daily deal has) and a solver-line cheat. Every ``days`` deals the
    simulated players become new accounts (deal ``n`` is day ``n % days`` of its account)."""
    tally = Tally()
    accounts = Accounts()
    for preset in presets:
        histories: dict[str, list[PastPlay]] = {}
        for n in range(deals):
            if n % days == 0:
                histories.clear()
                accounts.new_accounts()
            line: list[dict[str, object]] = []
            own: list[dict[str, object]] = []
            if n < par_deals:
                start = time.perf_counter()
                rules, cards = get_rules(preset), deck(pop.secret, preset, n)
                line = solver_line(rules, cards, PAR_BUDGET)
                own = solver_line(rules, cards, CHEAT_BUDGET) if line else []
                tally.solving += time.perf_counter() - start
            for kind, key, rec in plays_of_deal(pop, preset, n, line, histories, own):
                start = time.perf_counter()
                found = run_detectors(rec)
                accounts.add(kind, key, found, preset)  # the account's judgement
                tally.add(kind, rec, found, time.perf_counter() - start)
        out(f"  {pop.name}: {preset} done ({deals} deals)")
    return tally, accounts


def line(label: str, hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    rate = 100 * hits / max(n, 1)
    return f"{label:<16} {hits:>5}/{n:<5} {rate:6.1f} %  [{100 * low:5.1f}, {100 * high:5.1f}]"


def report(tally: Tally, out: Callable[[str], None]) -> None:
    out(f"{'kind':<16} {'flagged':>11} {'rate':>8}  95 % interval   won   by detector")
    for kind in (HONEST, "honest-pair", *CHEATS, WEAK):
        detectors = ", ".join(f"{d} {c}" for d, c in tally.by[kind].items() if c)
        won = f"{100 * tally.won[kind] / max(tally.n[kind], 1):3.0f} %"
        out(line(kind, tally.flagged[kind], tally.n[kind]) + f"  {won}   {detectors or '-'}")
    if tally.seahaven:
        seahaven = sorted(tally.seahaven.items())
        out("  seahaven (nothing hidden): " + ", ".join(f"{k} {h}/{n}" for k, (h, n) in seahaven))
    cheats = tally.rate(CHEATS)
    honest = tally.rate((HONEST, "honest-pair"))
    out(line("all cheats", *cheats))
    out(line("all honest", *honest))
    out("won plays only (what reaches a daily board):")
    for kind in (HONEST, "honest-pair", *CHEATS, WEAK):
        out("  " + line(kind, tally.flagged["won " + kind], tally.n["won " + kind]))
    out("  " + line("won cheats", *tally.rate(tuple("won " + k for k in CHEATS))))
    out("  " + line("won honest", *tally.rate(("won " + HONEST, "won honest-pair"))))
    out(
        f"detector cost (with the account's judgement): "
        f"{1000 * tally.seconds / max(tally.plays, 1):.1f} ms per finished play "
        f"({tally.plays} plays); simulation's solver for par {tally.solving:.0f} s"
    )


def report_days(accounts: Accounts, days: int, out: Callable[[str], None]) -> tuple[float, float]:
    """The account tables (:mod:`fairplay_accounts`); returns the headline: the shares of
    cheat and of honest plays flagged by the end of their account's ``days`` days."""
    kinds = [(kind, (kind,)) for kind in (HONEST, "honest-pair", *CHEATS, WEAK)]
    groups = [*kinds, ("all honest", (HONEST, "honest-pair")), ("all cheats", CHEATS)]
    out(f"accounts of {days} days (one play a day, the same policy every day):")
    table = report_accounts(accounts, groups, line, out)
    column = f"plays by day {min(days, max(REPORTED_DAYS))}"
    (caught, cheats), (wrong, honest) = table["all cheats"][column], table["all honest"][column]
    return 100 * caught / max(cheats, 1), 100 * wrong / max(honest, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="20 held-out and 8 tuning deals a preset"
    )
    parser.add_argument("--deals", type=int, help="held-out deals per preset (default 300)")
    parser.add_argument("--tuning-deals", type=int, help="tuning deals per preset (default 100)")
    parser.add_argument(
        "--par-deals", type=int, help="deals a preset with par and a solver-line cheat (60)"
    )
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument(
        "--days", type=int, default=10, help="days each simulated account plays (10)"
    )
    args = parser.parse_args(argv)
    par_deals = args.par_deals if args.par_deals is not None else (20 if args.quick else 60)
    deals = args.deals or (20 if args.quick else 300)
    tuning = args.tuning_deals if args.tuning_deals is not None else (8 if args.quick else 100)
    presets = args.presets.split(",")

    def out(text: str) -> None:
        print(text, flush=True)

    out(
        f"# bench/fairplay.py on {platform.python_implementation()} {platform.python_version()}, "
        f"{len(presets)} presets, {deals} held-out and {tuning} tuning deals each, "
        f"the first {par_deals} with par"
    )
    start = time.perf_counter()
    if tuning:
        out("## tuning population (thresholds chosen here)")
        tally, accounts = run(TUNING, presets, tuning, par_deals, args.days, out)
        report(tally, out)
        report_days(accounts, args.days, out)
    out("## held-out population (different deals and players)")
    tally, accounts = run(HELD_OUT, presets, deals, par_deals, args.days, out)
    report(tally, out)
    detected, false_positives = report_days(accounts, args.days, out)
    out(f"wall time {time.perf_counter() - start:.0f} s")
    out(
        f"fair play: detected {detected:.1f} % of cheats at {false_positives:.1f} % false positives"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
