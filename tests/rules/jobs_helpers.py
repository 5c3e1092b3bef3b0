"""Small simulation jobs for the tests: Reign Absolute's sample factions, random agents."""

from __future__ import annotations

from typing import Any

from rules.lab.jobs import simulation_job_create
from rules.lab.plans import matchup_plan, metagame_plan
from rules.models import SimulationJob
from tests.web.conftest import make_deck

RA = "reign-absolute"
FACTIONS = (
    "legal-azuma-shogunate",
    "legal-elves-grove",
    "legal-empire-legion",
    "legal-umbrous-shadows",
)


def faction_decks(owner, count: int = 3) -> list:
    """``count`` legal Reign Absolute decks of ``owner``, one faction each."""
    return [
        make_deck(owner, game=RA, sample_name=name, name=name.removeprefix("legal-"))
        for name in FACTIONS[:count]
    ]


def metagame_job(
    owner, decks: list, *, games: int = 4, seed: int = 7, chunk_size: int = 5, **extra: Any
) -> SimulationJob:
    """A stored (not dispatched) metagame job of ``decks`` between random agents."""
    plan = metagame_plan(decks=decks, agent="random", games_per_pairing=games)
    return simulation_job_create(
        kind=SimulationJob.Kind.METAGAME,
        plan=plan,
        owner=owner,
        seed=seed,
        chunk_size=chunk_size,
        dispatch=False,
        **extra,
    )


def matchup_job(owner, decks: list, *, games: int, seed: int, chunk_size: int) -> SimulationJob:
    """A stored (not dispatched) matchup job of ``decks`` between random agents."""
    plan = matchup_plan(decks=decks, agents=["random"] * len(decks), games=games)
    return simulation_job_create(
        kind=SimulationJob.Kind.MATCHUP,
        plan=plan,
        owner=owner,
        seed=seed,
        chunk_size=chunk_size,
        dispatch=False,
    )


def outcomes(job: SimulationJob) -> list[list[Any]]:
    """Every game's outcome row, in game order."""
    rows: list[list[Any]] = []
    for chunk in job.chunks.order_by("index"):
        rows.extend(chunk.outcomes)
    return rows
