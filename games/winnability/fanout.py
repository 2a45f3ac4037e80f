"""The ``manage.py winnability`` run: plan the chunks, send them, follow the progress.

For each budget in increasing order, the deals still to solve are the seeds with no row at
that budget that no smaller budget decided: so a deal left ``unknown`` at 10 s is tried
again at 60 s, and a rerun (or a run on another machine against the same database)
solves only what is missing.  With a broker the chunks go to Celery workers
(:func:`.tasks.solve_chunk`) and the command watches the rows arrive; without one
(``CELERY_TASK_ALWAYS_EAGER``) it solves them itself.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from games.solver.verdicts import DECIDED

from . import runs, tasks
from .configs import config_name
from .models import DealResult

#: A chunk holds at most this many seconds of budget, well inside Redis' one-hour
#: ``visibility_timeout``: a chunk still running when it expires would be handed to a
#: second worker (harmless, the task is idempotent, but wasted work).
CHUNK_SECONDS = 1200.0
#: Seconds between two looks at the database while workers solve.
POLL_SECONDS = 2.0


class RunStalled(RuntimeError):
    """The workers stored nothing for ``--timeout`` seconds: the run can be resumed later."""


@dataclass
class Run:
    preset: str
    options: str
    seeds: Sequence[int]
    budgets: Sequence[float]
    version: str
    chunk: int = 20
    python: str | None = None
    race: bool = False
    prover: str = "auto"
    queue: str | None = None
    timeout: float | None = None

    @property
    def name(self) -> str:
        return config_name(self.preset, self.options)

    def rows(self):
        return DealResult.objects.filter(
            preset=self.preset,
            options=self.options,
            solver_version=self.version,
            seed__gte=min(self.seeds),
            seed__lte=max(self.seeds),
        )

    def pending(self, budget: float) -> list[int]:
        """Seeds with no row at ``budget`` that no budget up to it decided."""
        have, decided = set(), set()
        for seed, at, verdict in (
            self.rows().filter(budget__lte=budget).values_list("seed", "budget", "verdict")
        ):
            if verdict in DECIDED:
                decided.add(seed)
            if at == budget:
                have.add(seed)
        return [s for s in self.seeds if s not in decided and s not in have]

    def chunks(self, seeds: list[int], budget: float) -> list[list[int]]:
        size = max(1, min(self.chunk, int(CHUNK_SECONDS // budget)))
        return [seeds[i : i + size] for i in range(0, len(seeds), size)]


def eager() -> bool:
    return bool(tasks.solve_chunk.app.conf.task_always_eager)


def execute(run: Run, stderr: TextIO, progress: bool = True) -> list[dict[str, Any]]:
    """Run every budget in turn; one line of figures per budget (deals, seconds, deals/s)."""
    from tqdm import tqdm

    report = []
    for budget in sorted(run.budgets):
        todo = run.pending(budget)
        bar = tqdm(
            total=len(todo),
            file=stderr,
            disable=not progress,
            unit="deal",
            desc=f"{run.name} @{budget:g}s",
        )
        started = time.perf_counter()
        if eager():
            for chunk in run.chunks(todo, budget):
                runs.solve_chunk(
                    run.preset, run.options, chunk, budget, run.version,
                    python=run.python, race=run.race, prover=run.prover,
                    on_result=lambda _row, bar=bar: bar.update(1),
                )  # fmt: skip
        else:
            _send_and_follow(run, todo, budget, bar)
        bar.close()
        wall = time.perf_counter() - started
        report.append(
            {
                "config": run.name,
                "budget": budget,
                "deals": len(todo),
                "seconds": round(wall, 2),
                "deals_per_second": round(len(todo) / wall, 3) if todo and wall > 0 else None,
            }
        )
    return report


def _send_and_follow(run: Run, todo: list[int], budget: float, bar) -> None:
    if not todo:
        return
    at_budget = run.rows().filter(budget=budget)
    before = at_budget.count()
    for chunk in run.chunks(todo, budget):
        tasks.solve_chunk.apply_async(
            (run.preset, run.options, chunk, budget, run.version, run.python, run.race, run.prover),
            queue=run.queue,
        )
    shown, last_change = 0, time.monotonic()
    while True:
        stored = at_budget.count() - before
        if stored != shown:
            bar.update(stored - shown)
            shown, last_change = stored, time.monotonic()
        if stored >= len(todo) and not run.pending(budget):
            return
        if run.timeout is not None and time.monotonic() - last_change > run.timeout:
            raise RunStalled(
                f"{run.name} @{budget:g}s: nothing stored for {run.timeout:g} s, "
                f"{len(todo) - stored} deals missing; run the same command again to resume"
            )
        time.sleep(POLL_SECONDS)
