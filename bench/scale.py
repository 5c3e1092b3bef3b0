"""Simulation jobs on 1 and 2 worker processes: games a second, the speed-up, and projections.

    nice .venv/bin/python bench/scale.py [--games 40] [--chunk-size 10] [--agent random]
                                         [--mode auto|celery|pool] [--redis redis://127.0.0.1:6379/12]

It makes a scratch SQLite database (in a temporary folder: migrated, the game data loaded, the
four Reign Absolute sample faction decks stored), then plays the same metagame job (the four
decks, every pair ``--games`` games, seed 1) twice: on one worker process, then on two. With
``--mode celery`` (the default ``auto`` picks it when Redis answers at ``--redis``) the workers
are real Celery workers of the project (``celery -A deckwright worker --pool=solo``) reading the
job's chunks from their own queue on that Redis, as a deployment's would; otherwise (``pool``)
they are a ``multiprocessing`` pool of processes each running the workers' chunk function
(``rules.lab.jobs.simulation_chunk_run``). It says which it used.

Games a second count from the first chunk's start to the job's end (``started_at`` to
``finished_at``: the workers' start-up is left out; they are started and ready before the job is
queued). Both runs play the very same games (the aggregates are checked equal). It prints each
rate, the speed-up (two workers' rate over one's) and, from the measured rates, the time of a
1,000,000-game metagame and of a 16-deck metagame at 100 games a pairing (120 pairings, 12,000
games) on 1, 2, 16 and 64 workers, assuming each worker beyond two adds what the second did.
Figures only, nothing is asserted; it is meant for a quiet machine, and on a shared one the
second worker competes with everything else for the second core.

    nice .venv/bin/python bench/scale.py --metagame16 --game revolt-n-reign [--sample 24]
                                         [--seed 1] [--builds both|current]

``--metagame16`` times a game's 16-deck metagame at 100 games a pairing with the game's default
web agent (its plugin's first ``matchup_agents``), before and after: on the pure-Python build
and on the compiled one (``--builds both``, the default when a compiled build is there: each
build in its own process, as ``bench/engines.py`` runs them). The field is the game's legal
sample decks (``fixtures/decks/<game>/legal-*.txt``, as the demo set loads them) and, up to 16,
decks generated from them by seeded one-card swaps within a card type, each swap kept only when
the deck still passes ``decks.validation``. Where the game refuses to seat some pairs, the
metagame is every pair it seats: Regality vs Religion seats one Regality and one Religion deck
of one variant, so its field is 8 decks of each side in the standard variant and its metagame
the 64 pairings across the sides; Reign Absolute seats two factions, so its 16 decks (4 of each
faction) make 96 pairings. Reggae Revolution is co-operative, so its metagame is each deck's
team of two against the game (16 pairings). The full metagame is far
too long to play here (12,000 games of search agents), so the mode plays a seeded sample of
``--sample`` of its games (by default a per-game number, ``SAMPLE_GAMES``, that keeps a run
under a minute or two; ``--sample -1`` plays the whole metagame), spread over every pairing (the same number a pairing, the remainder to pairings drawn
by the seed), as one metagame job (seed ``--seed``) on one worker process and then on two (a
``multiprocessing`` pool of chunk runners, as ``--mode pool``). It reports games/s, CPU seconds
a game (the workers' own CPU time), the projected wall time of the whole metagame on 1 and 2
workers, the load average before and after each run, and the speed-ups (2 workers over 1,
compiled over Python). The same seed plays the same games: the 1- and 2-worker runs, and the
two builds, must give the same aggregate, and the script stops if they do not.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "reign-absolute"
FACTIONS = (
    "legal-azuma-shogunate",
    "legal-elves-grove",
    "legal-empire-legion",
    "legal-umbrous-shadows",
)
#: the figures projected from the measured rates
MILLION = 1_000_000
SIXTEEN_DECKS_GAMES = 16 * 15 // 2 * 100
READY_SECONDS = 120
JOB_TIMEOUT_SECONDS = 3600


def redis_answers(url: str) -> bool:
    """Whether a Redis server answers PING at ``url``."""
    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def django_setup(database: Path, broker: str) -> None:
    """Point this process at the scratch database (and broker) and start Django."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    import django

    django.setup()


def scratch_data() -> list[Any]:
    """Migrate, load the game data, store the four sample decks; return them."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from decks.selectors import format_default
    from decks.services import deck_create

    quiet = io.StringIO()
    call_command("migrate", verbosity=0, stdout=quiet)
    call_command("load_game_data", verbosity=0, stdout=quiet)
    owner = get_user_model().objects.create_user("bench", "bench@example.com", "x-long-pass-42")
    samples = ROOT / "fixtures" / "decks" / GAME
    return [
        deck_create(
            owner=owner,
            game=GAME,
            name=name.removeprefix("legal-"),
            decklist=(samples / f"{name}.txt").read_text(encoding="utf-8"),
            format=format_default(GAME),
        )
        for name in FACTIONS
    ]


def new_job(decks: list[Any], games: int, chunk_size: int, agent: str, worker: bool) -> Any:
    """The metagame job both runs play (stored, not dispatched)."""
    from rules.lab.jobs import simulation_job_create
    from rules.lab.plans import metagame_plan
    from rules.models import SimulationJob

    plan = metagame_plan(decks=decks, agent=agent, games_per_pairing=games)
    job = simulation_job_create(
        kind=SimulationJob.Kind.METAGAME,
        plan=plan,
        owner=None,
        seed=1,
        chunk_size=chunk_size,
        dispatch=False,
    )
    SimulationJob.objects.filter(pk=job.pk).update(worker=worker)
    return job


def wait_done(job_id: int) -> Any:
    """The job once it has ended (polling its row)."""
    from rules.models import SimulationJob

    deadline = time.monotonic() + JOB_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        job = SimulationJob.objects.get(pk=job_id)
        if job.finished:
            return job
        time.sleep(0.2)
    raise SystemExit(f"job {job_id} did not end within {JOB_TIMEOUT_SECONDS} s")


# -- Celery workers -------------------------------------------------------------------------------


def celery_workers(count: int, env: dict[str, str], queue: str, logs: Path) -> list[Any]:
    """``count`` Celery worker processes on ``queue``, once each says it is ready."""
    workers = []
    for number in range(count):
        log = logs / f"worker-{count}-{number}.log"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "deckwright",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            f"--queues={queue}",
            f"--hostname=bench{count}-{number}-{os.getpid()}@%h",
        ]
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        workers.append((process, log))
    deadline = time.monotonic() + READY_SECONDS
    for process, log in workers:
        while " ready." not in log.read_text(encoding="utf-8", errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"a worker did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.2)
    return [process for process, _ in workers]


def workers_stop(processes: list[Any]) -> None:
    """Stop the workers this script started (each by its own process group)."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def run_celery(job: Any, count: int, env: dict[str, str], queue: str, logs: Path) -> Any:
    """Play ``job`` on ``count`` fresh Celery workers; the job once done."""
    from celery import group

    from rules.lab.tasks import simulation_chunk_play

    processes = celery_workers(count, env, queue, logs)
    try:
        group(
            simulation_chunk_play.si(job.pk, chunk).set(queue=queue)
            for chunk in range(job.chunk_count)
        ).apply_async()
        return wait_done(job.pk)
    finally:
        workers_stop(processes)


# -- a pool of chunk runners ----------------------------------------------------------------------


def _pool_start(database: str) -> None:
    django_setup(Path(database), "")


def _pool_ready(seconds: float) -> None:
    time.sleep(seconds)  # one a process: each has started Django by the time all return


def _pool_chunk(args: tuple[int, int]) -> str:
    from rules.lab.jobs import simulation_chunk_run_retried

    return simulation_chunk_run_retried(*args)


def run_pool(job: Any, count: int, database: Path) -> Any:
    """Play ``job`` on a pool of ``count`` processes, a chunk a task; the job once done."""
    from django.db import connections

    connections.close_all()  # the children open their own
    with get_context("spawn").Pool(count, _pool_start, (str(database),)) as pool:
        pool.map(_pool_ready, [0.5] * count, chunksize=1)
        outcomes = pool.map(
            _pool_chunk, [(job.pk, chunk) for chunk in range(job.chunk_count)], chunksize=1
        )
    if any(outcome not in ("stored", "duplicate") for outcome in outcomes):
        raise SystemExit(f"a chunk was not stored: {outcomes}")
    return wait_done(job.pk)


# -- figures --------------------------------------------------------------------------------------


def rate(job: Any) -> tuple[float, float]:
    """Games a second of a finished job, and its seconds (first chunk's start to its end)."""
    seconds = (job.finished_at - job.started_at).total_seconds()
    return job.games_total / seconds, seconds


def duration(seconds: float) -> str:
    """Seconds as the largest sensible unit."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


# -- a 16-deck metagame of one game, timed on both builds ------------------------------------------

FIELD_SIZE = 16
FULL_GAMES_PER_PAIRING = 100
#: ``--sample`` of this plays the whole metagame (100 games a pairing)
FULL = -1
#: one-card swaps made to a sample deck to make each generated deck (each kept only if legal)
FIELD_SWAPS = 6
#: the variant a game's field is built in, where its decks name one
FIELD_VARIANT = {"regality-vs-religion": "standard"}
#: games sampled by default, from the CPU seconds a game each default agent took (pure Python:
#: alpha-beta 3 s, turn plans about 5 s, greedy 0.36 s, the team policies 0.02-0.04 s),
#: so that both builds of a game are timed in a few minutes on this shared 2-core machine
SAMPLE_GAMES = {
    "regality-vs-religion": 8,
    "reggae-revolution": 160,
    "reign-absolute": 48,
    "revolt-n-reign": 6,
    "rival-realms": 240,
}


def _sample_decklists(slug: str) -> list[tuple[str, Any]]:
    """The game's legal sample decklists (stem, parsed), in the field's variant if it has one."""
    from decks.decklist import decklist_read

    wanted = FIELD_VARIANT.get(slug)
    found = []
    for path in sorted((ROOT / "fixtures" / "decks" / slug).glob("legal-*.txt")):
        decklist = decklist_read(path.read_text(encoding="utf-8"))
        if wanted is None or decklist.metadata.get("variant") == wanted:
            found.append((path.stem.removeprefix("legal-"), decklist))
    return found


def _swapped_deck(
    slug: str,
    counts: dict[tuple[str, str], int],
    types: dict[str, str],
    rng: random.Random,
    **check: Any,
) -> tuple[dict[tuple[str, str], int], int]:
    """``counts`` after up to ``FIELD_SWAPS`` seeded one-card swaps (one copy of a card out, one
    of another card of its type in, same zone), each kept only if the deck stays legal; and how
    many were kept."""
    from decks.validation import validate

    by_type: dict[str, list[str]] = {}
    for name, kind in sorted(types.items()):
        by_type.setdefault(kind, []).append(name)
    kept = 0
    for _ in range(FIELD_SWAPS * 20):
        if kept == FIELD_SWAPS:
            break
        out, zone = rng.choice(sorted(counts))
        into = rng.choice(by_type.get(types.get(out, ""), [out]))
        if into == out:
            continue
        trial = dict(counts)
        trial[(out, zone)] -= 1
        trial[(into, zone)] = trial.get((into, zone), 0) + 1
        trial = {key: quantity for key, quantity in trial.items() if quantity > 0}
        entries = [(name, quantity, zone) for (name, zone), quantity in sorted(trial.items())]
        if validate(slug, entries, **check).legal:
            counts, kept = trial, kept + 1
    return counts, kept


def metagame16_field(slug: str, seed: int) -> tuple[list[Any], int]:
    """Store the game's 16-deck field: its sample decks, then decks made from them by legal
    seeded swaps (``_swapped_deck``), taken in turn; return the decks and how many generated
    decks differ from their sample."""
    from django.contrib.auth import get_user_model

    from cards.models import Card
    from decks.decklist import decklist_entries
    from decks.selectors import format_default
    from decks.services import deck_create

    owner = get_user_model().objects.create_user("bench16", "b16@example.com", "x-long-pass-42")
    fmt = format_default(slug)
    samples = _sample_decklists(slug)
    if not samples:
        raise SystemExit(f"{slug} has no legal sample deck in fixtures/decks/{slug}/")
    types = {
        card.name: card.card_type.slug if card.card_type_id else ""
        for card in Card.objects.filter(game__slug=slug).select_related("card_type")
    }
    field = []
    changed = 0
    for number in range(FIELD_SIZE):
        stem, decklist = samples[number % len(samples)]
        variant = decklist.metadata.get("variant") or ""
        counts: dict[tuple[str, str], int] = {}
        for entry in decklist_entries(slug, decklist):
            key = (entry.name, entry.zone)
            counts[key] = counts.get(key, 0) + entry.quantity
        if number >= len(samples):
            rng = random.Random(f"{seed}:{slug}:{number}")
            counts, kept = _swapped_deck(
                slug, counts, types, rng, format=fmt.pk if fmt else None, variant=variant or None
            )
            changed += kept > 0
        entries = [(name, quantity, zone) for (name, zone), quantity in sorted(counts.items())]
        name = stem if number < len(samples) else f"{stem} #{number + 1}"
        deck = deck_create(
            owner=owner, game=slug, name=name, decklist=entries, format=fmt, variant=variant
        )
        field.append((stem, deck))
    return [deck for _, deck in field], changed


def metagame16_plan(decks: list[Any], agent: str, games: int) -> Any:
    """The field's metagame plan at ``games`` a pairing: the round robin of ``metagame_plan``,
    or, where the game refuses to seat some pairs (two Reign Absolute decks of one faction, two
    Regality vs Religion decks of one side), every pair it seats (each planned as a gauntlet of
    one opponent, its decks renumbered into the field)."""
    from rules.lab.plans import JobPlan, SimulationJobError, gauntlet_plan, metagame_plan

    try:
        return metagame_plan(decks=decks, agent=agent, games_per_pairing=games)
    except SimulationJobError as refused:
        print(f"round robin refused ({refused}); pairing what the game seats", file=sys.stderr)
    snapshots: dict[int, dict[str, Any]] = {}
    pairings = []
    for a in range(len(decks)):
        for b in range(a + 1, len(decks)):
            try:
                part = gauntlet_plan(
                    decks=[decks[a], decks[b]], agent=agent, games_per_pairing=games
                )
            except SimulationJobError:
                continue
            snapshots[a], snapshots[b] = part.decks
            pairing = part.pairings[0]
            pairings.append({**pairing, "sides": [(a, b)[side] for side in pairing["sides"]]})
    if len(snapshots) < len(decks):
        raise SystemExit("a deck of the field has no opponent the game seats")
    return JobPlan(decks[0].game.slug, [snapshots[n] for n in range(len(decks))], pairings)


def sampled_plan(plan: Any, games: int, seed: int) -> Any:
    """``plan`` playing ``games`` games in all: the same number a pairing, the remainder one
    more each to pairings drawn by ``seed`` (a pairing may get none when ``games`` is fewer
    than the pairings)."""
    from dataclasses import replace

    count = len(plan.pairings)
    base, extra = divmod(games, count)
    more = set(random.Random(seed).sample(range(count), extra))
    pairings = [
        {**pairing, "games": base + (number in more)}
        for number, pairing in enumerate(plan.pairings)
    ]
    return replace(plan, pairings=pairings)


def _pool_chunk_timed(args: tuple[int, int]) -> tuple[str, float]:
    start = time.process_time()
    outcome = _pool_chunk(args)
    return outcome, time.process_time() - start


def run_pool_timed(job: Any, count: int, database: Path) -> tuple[Any, float]:
    """``run_pool`` that also adds up the workers' CPU seconds spent in the chunks."""
    from django.db import connections

    connections.close_all()
    with get_context("spawn").Pool(count, _pool_start, (str(database),)) as pool:
        pool.map(_pool_ready, [0.5] * count, chunksize=1)
        done = pool.map(
            _pool_chunk_timed, [(job.pk, chunk) for chunk in range(job.chunk_count)], chunksize=1
        )
    if any(outcome not in ("stored", "duplicate") for outcome, _ in done):
        raise SystemExit(f"a chunk was not stored: {done}")
    return wait_done(job.pk), sum(cpu for _, cpu in done)


def load_average() -> float:
    """The 1-minute load average now."""
    return round(os.getloadavg()[0], 2)


def metagame16_measure(slug: str, sample: int | None, seed: int) -> dict[str, Any]:
    """Every figure of the build this process runs (see the module docstring)."""
    scratch = Path(tempfile.mkdtemp(prefix="deckwright-metagame16-"))
    database = scratch / "bench.sqlite3"
    django_setup(database, "")
    from django.core.management import call_command

    from rules import compiled
    from rules.engines.core import plugin_for
    from rules.lab.jobs import simulation_job_create
    from rules.models import SimulationJob

    try:
        quiet = io.StringIO()
        call_command("migrate", verbosity=0, stdout=quiet)
        call_command("load_game_data", game=[slug], verbosity=0, stdout=quiet)
        agent = plugin_for(slug).matchup_agents[0]
        decks, changed = metagame16_field(slug, seed)
        full = metagame16_plan(decks, agent, FULL_GAMES_PER_PAIRING)
        games = sample or SAMPLE_GAMES.get(slug, len(full.pairings))
        if sample == FULL:
            games = full.games_total
        plan = sampled_plan(full, games, seed)
        chunk_size = max(1, round(games / 32))
        runs = {}
        aggregate = None
        for count in (1, 2):
            job = simulation_job_create(
                kind=SimulationJob.Kind.METAGAME,
                plan=plan,
                owner=None,
                seed=seed,
                chunk_size=chunk_size,
                dispatch=False,
            )
            SimulationJob.objects.filter(pk=job.pk).update(worker=False)
            before = load_average()
            done, cpu = run_pool_timed(job, count, database)
            after = load_average()
            if done.status != "done":
                raise SystemExit(f"job {done.pk} ended {done.status}: {done.error}")
            per_second, seconds = rate(done)
            runs[str(count)] = {
                "games_s": per_second,
                "seconds": seconds,
                "cpu_per_game": cpu / done.games_total,
                "load": [before, after],
            }
            digest = hashlib.sha256(json.dumps(done.aggregate, sort_keys=True).encode()).hexdigest()
            if aggregate is not None and digest != aggregate:
                raise SystemExit("the 1- and 2-worker runs of the same seed gave other results")
            aggregate = digest
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "build": compiled.chosen,
        "game": slug,
        "agent": agent,
        "decks": len(decks),
        "generated_changed": changed,
        "pairings": len(full.pairings),
        "full_games": full.games_total,
        "sample_games": plan.games_total,
        "chunk_size": chunk_size,
        "seed": seed,
        "runs": runs,
        "aggregate": aggregate,
    }


def metagame16_report(figures: dict[str, Any]) -> None:
    """One build's figures, as text."""
    full = figures["full_games"]
    print(
        f"== {figures['game']}, build {figures['build']}: agent {figures['agent']}, "
        f"{figures['decks']} decks ({figures['generated_changed']} generated ones differ from "
        f"their sample), {figures['pairings']} pairings; full metagame {full:,} games; "
        f"sample {figures['sample_games']} games (chunks of {figures['chunk_size']}, seed "
        f"{figures['seed']}); aggregate {figures['aggregate'][:12]}"
    )
    for count, run in figures["runs"].items():
        print(
            f"  {count} worker(s): {run['games_s']:8.2f} games/s ({run['seconds']:.1f} s), "
            f"{run['cpu_per_game']:.3f} CPU s a game, load {run['load'][0]} -> {run['load'][1]}; "
            f"full metagame projected {duration(full / run['games_s'])}"
        )
    one, two = figures["runs"]["1"]["games_s"], figures["runs"]["2"]["games_s"]
    print(f"  speed-up, 2 workers over 1: {two / one:.2f}x")


def metagame16_main(options: argparse.Namespace) -> None:
    """Measure the build this process runs, or both builds (each in its own process)."""
    if options.builds == "current":
        figures = metagame16_measure(options.game, options.sample, options.seed)
        if options.json:
            print(json.dumps(figures))
        else:
            metagame16_report(figures)
        return
    from bench.engines import both_builds_reported

    argv = ["--metagame16", "--game", options.game, "--seed", str(options.seed)]
    if options.sample:
        argv += ["--sample", str(options.sample)]
    fast, slow = both_builds_reported(argv, metagame16_report)
    if fast["build"] != "compiled":
        raise SystemExit(f"no compiled build ran ({fast['build']}): run `make install` first")
    if fast["aggregate"] != slow["aggregate"]:
        raise SystemExit("the compiled and Python builds played the same seed to other results")
    print(
        f"machine: {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}; "
        f"same aggregate on both builds and both worker counts: True"
    )
    for count in ("1", "2"):
        ratio = fast["runs"][count]["games_s"] / slow["runs"][count]["games_s"]
        print(f"  compiled over Python, {count} worker(s): {ratio:.2f}x")


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="Games a pairing (even; 6 pairs).")
    parser.add_argument("--chunk-size", type=int, default=10)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--mode", choices=("auto", "celery", "pool"), default="auto")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--keep", action="store_true", help="Keep the scratch folder.")
    parser.add_argument(
        "--metagame16",
        action="store_true",
        help="Time a sample of a 16-deck metagame of --game with its default agent, both builds.",
    )
    parser.add_argument("--game", default="revolt-n-reign", help="With --metagame16.")
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help=f"With --metagame16: games to play ({FULL}: the whole metagame).",
    )
    parser.add_argument("--seed", type=int, default=1, help="With --metagame16.")
    from bench.engines import add_builds_option

    add_builds_option(parser)
    options = parser.parse_args()
    if options.metagame16:
        metagame16_main(options)
        return

    mode = options.mode
    if mode == "auto":
        mode = "celery" if redis_answers(options.redis) else "pool"
    elif mode == "celery" and not redis_answers(options.redis):
        raise SystemExit(f"no Redis answers at {options.redis}")
    scratch = Path(tempfile.mkdtemp(prefix="deckwright-scale-"))
    database = scratch / "bench.sqlite3"
    broker = options.redis if mode == "celery" else ""
    django_setup(database, broker)
    print(f"scratch database {database}; setting up ...", file=sys.stderr)
    decks = scratch_data()
    queue = f"bench-scale-{os.getpid()}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "CELERY_BROKER_URL": broker}
    env["LOG_LEVEL"] = "WARNING"

    results = {}
    aggregates = []
    try:
        for count in (1, 2):
            job = new_job(decks, options.games, options.chunk_size, options.agent, mode == "celery")
            print(f"{count} worker(s): job {job.pk}, {job.games_total} games ...", file=sys.stderr)
            if mode == "celery":
                done = run_celery(job, count, env, queue, scratch)
            else:
                done = run_pool(job, count, database)
            if done.status != "done":
                raise SystemExit(f"job {done.pk} ended {done.status}: {done.error}")
            results[count] = rate(done)
            aggregates.append(done.aggregate)
    finally:
        if not options.keep:
            shutil.rmtree(scratch, ignore_errors=True)

    how = (
        f"real Celery workers (--pool=solo) on Redis {options.redis}, queue {queue}"
        if mode == "celery"
        else "a multiprocessing pool of chunk runners"
        + (" (no Redis answered)" if options.mode == "auto" else "")
    )
    one, two = results[1][0], results[2][0]
    speedup = two / one
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"workers: {how}; database: SQLite (scratch file)")
    print(
        f"job: metagame of 4 {GAME} decks, {options.agent} agents, {options.games} games a "
        f"pairing = {6 * options.games} games, chunks of {options.chunk_size}; "
        f"same aggregate on both runs: {aggregates[0] == aggregates[1]}"
    )
    for count, (games_per_second, seconds) in results.items():
        print(f"{count} worker(s): {games_per_second:7.1f} games/s ({seconds:.1f} s)")
    print(f"speed-up, 2 workers over 1: {speedup:.2f}x")
    added = two - one  # what the second worker added; assumed for every further worker
    print(f"projections from these rates (each worker beyond the first adds {added:.1f} games/s):")
    counts = (1, 2, 16, 64) if added > 0 else (1,)
    if added <= 0:
        print("  (the second worker added nothing here: more workers are not projected)")
    for workers in counts:
        speed = one + added * (workers - 1)
        print(
            f"  {workers:>2} worker(s): 1,000,000-game metagame {duration(MILLION / speed):>9}; "
            f"16 decks x 100 games a pairing ({SIXTEEN_DECKS_GAMES:,} games) "
            f"{duration(SIXTEEN_DECKS_GAMES / speed):>7}"
        )


if __name__ == "__main__":
    main()
