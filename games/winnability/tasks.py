"""The Celery task of a winnability run: one chunk of seeds at one budget.

``acks_late`` with ``reject_on_worker_lost``: the message is acknowledged only once the
chunk is done, so a worker that dies mid-chunk leaves it to be redelivered (at once for a
killed prefork child, after the broker's ``visibility_timeout`` for a lost host); the task
is idempotent (:func:`.runs.solve_chunk` skips stored deals), so a redelivery, or the same
chunk sent twice by two runs of the command, costs only the deals still missing.
"""

from __future__ import annotations

from celery import shared_task

from games.task_policy import RELIABLE

from . import answers, runs


# Neither task's return value is read (the driver counts rows, hints land in the cache):
# ignore_result keeps a result key per chunk out of Redis for the backend's day.
@shared_task(
    name="winnability.solve_chunk", reject_on_worker_lost=True, ignore_result=True, **RELIABLE
)
def solve_chunk(
    preset: str,
    options: str,
    seeds: list[int],
    budget: float,
    version: str,
    python: str | None = None,
    race: bool = False,
    prover: str = "auto",
) -> dict[str, int]:
    from django.conf import settings

    python = python or settings.SOLVER_PYTHON or None
    return runs.solve_chunk(
        preset, options, seeds, budget, version, python=python, race=race, prover=prover
    )


@shared_task(name="winnability.solve_hint", ignore_result=True, **RELIABLE)
def solve_hint(preset: str, options: dict[str, bool], state: dict) -> str:
    """Solve a position a hint request left unknown with ``HINT_BACKGROUND_SECONDS`` and
    store the answer where the next request looks (:mod:`.answers`); idempotent."""
    from games import engine

    position = engine.state_from_json(engine.get_rules(preset, options), state)
    solved = answers.solve_position(position, answers.background_budget())
    if solved["result"] != answers.UNKNOWN:
        answers.store(position, solved, answers.budget())
    return solved["result"]
