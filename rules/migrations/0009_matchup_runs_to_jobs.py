"""Every matchup run becomes a ``SimulationJob(kind="matchup")`` of one pairing, with its games.

A run's game ``k`` was seeded from the run's seed and ``k`` exactly as a job's game ``k`` is
(``rules.services.play_game``), so the job replays the run's games move for move. The games a
run played are the job's first chunk (its chunk size is their number, so every later chunk of an
unfinished run plays the games the run had left, and the sweep for stale jobs finishes it); a run
that played nothing gets the usual chunk size. The run's totals are the chunk's totals and, for a
finished run, the job's aggregate. Each side of a competitive run keeps its own entry in the job's
decks (a deck played against itself stays two labelled sides); a co-operative team's decks appear
once each. Runs stored before seats rotated (their games record no seats) keep fixed seats. The
job remembers the run's id (``legacy_run``) for the old links.

Going back leaves the jobs as they are: nothing is deleted.
"""

import math

from django.conf import settings
from django.db import migrations

#: a run's totals are one pairing's; the aggregate's card counts are empty (runs had none)
CARDS = "cards"


def _decks_and_sides(run):
    """The job's decks and, per side of the run, the index of its deck there."""
    decks, sides, seen = [], [], {}
    for side in run.sides:
        key = side.get("deck") if run.cooperative else len(decks)
        if key not in seen:
            seen[key] = len(decks)
            name = str(side.get("deck_name") or side.get("label", ""))
            decks.append(
                {
                    "deck": side.get("deck"),
                    "name": name,
                    "label": name if run.cooperative else str(side.get("label", name)),
                    "version": side.get("version"),
                    "hash": side.get("hash", ""),
                }
            )
        sides.append(seen[key])
    return decks, sides


def _outcome(game):
    """A run's stored game as a job chunk's outcome row."""
    return [
        0,
        game.get("winner"),
        game.get("length", 0),
        game.get("turns"),
        game.get("end_reason", ""),
        game.get("first_side"),
    ]


def runs_to_jobs(apps, schema_editor):
    MatchupRun = apps.get_model("rules", "MatchupRun")
    SimulationJob = apps.get_model("rules", "SimulationJob")
    SimulationChunk = apps.get_model("rules", "SimulationChunk")
    default_size = max(1, int(getattr(settings, "SIMULATION_CHUNK_GAMES", 20)))
    for run in MatchupRun.objects.order_by("pk").iterator():
        if SimulationJob.objects.filter(legacy_run=run.pk).exists():
            continue  # carried over already (the migration ran, went back and runs again)
        results = list(run.results or [])
        played = len(results)
        games = max(int(run.games), played, 1)
        size = min(played, games) if played else min(default_size, games)
        decks, sides = _decks_and_sides(run)
        fixed = bool(run.fixed_seats) or bool(results and "seats" not in results[0])
        pairing = {
            "sides": sides,
            "agents": list(run.agents),
            "setup": run.setup,
            "games": games,
            "fixed_seats": fixed,
        }
        done = run.status == "done"
        job = SimulationJob.objects.create(
            kind="matchup",
            owner_id=run.owner_id,
            session_key=run.session_key,
            game_id=run.game_id,
            decks=decks,
            pairings=[pairing],
            meta_shares=[],
            doctor={},
            seed=run.seed,
            games_total=games,
            chunk_size=size,
            chunk_count=math.ceil(games / size),
            chunks_done=1 if played else 0,
            games_done=played,
            status=run.status,
            worker=run.worker,
            aggregate={"pairings": [run.totals or {}], CARDS: {}} if done else {},
            error=run.error,
            legacy_run=run.pk,
        )
        if played:
            SimulationChunk.objects.create(
                job=job,
                index=0,
                start=0,
                stop=played,
                totals={"0": run.totals or {}},
                outcomes=[_outcome(game) for game in results],
            )
        # auto_now and auto_now_add stamp the time of the migration; the run's own times stay
        SimulationJob.objects.filter(pk=job.pk).update(
            created_at=run.created_at,
            started_at=run.started_at,
            finished_at=run.finished_at,
            updated_at=run.updated_at,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0008_simulationjob_legacy_run"),
    ]

    operations = [
        migrations.RunPython(runs_to_jobs, migrations.RunPython.noop, elidable=False),
    ]
