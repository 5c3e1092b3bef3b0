"""Pauses of the garbage collector in a gunicorn worker, with and without the freeze.

    .venv/bin/python bench/gc_pauses.py                  # 4,000 requests a run, two runs each
    .venv/bin/python bench/gc_pauses.py --requests 1000 --rounds 1

Serves the production setup (``deckwright/gunicorn.conf.py``: ``DEBUG=0``, collected static
files, persistent connections, one worker of 2 threads) on the 100,000 cards of
``bench/search.py``'s PostgreSQL database (``BENCH_SEARCH_PG_URL``; generated here when missing).
One client sends requests one after another, taking turns through a game's first page on the
web, two API searches and a card's detail, first with ``GUNICORN_GC_FREEZE_AFTER=0`` (no freeze),
then with the default (200), alternating for ``--rounds`` rounds. 300 requests warm each server
up before the timed ones. Throttling is lifted (one client address).

Prints, per run and request, p50/p95/p99/max in ms, and over all requests the number slower than
60 and 100 ms and the p99.9: a full collection stops the worker for as long as it walks every
object, and one request in a few hundred waits for it. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api import percentile  # noqa: E402
from bench.load import HOST, NO_THROTTLE, load_average, machine, running_server  # noqa: E402
from bench.search import GAME, PG_URL, ensure_database  # noqa: E402

URLS = [
    f"/games/{GAME}/",
    f"/api/v1/cards/?game={GAME}&q=wild",
    f"/api/v1/cards/?game={GAME}&q=t:attack+b:eagle+ip<=2",
]


def prepare(data_dir: Path, cards: int) -> dict[str, str]:
    """The servers' environment; the database migrated and loaded, the static files collected."""
    ensure_database(PG_URL)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DEBUG", "SECRET_KEY", "DECKWRIGHT_DATA_DIR"}
    }
    env.update(
        DATABASE_URL=PG_URL,
        DATABASE_CONN_MAX_AGE="600",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        DECKWRIGHT_DATA_DIR=str(data_dir),
        DECKWRIGHT_HTTPS="0",
        WEB_CONCURRENCY="1",
        GUNICORN_THREADS="2",
        GUNICORN_ACCESS_LOG="",
        API_THROTTLE_ANON=NO_THROTTLE,
        API_THROTTLE_USER=NO_THROTTLE,
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True)
    (count,) = bench_cards("SELECT count(*)")[0]
    if count != cards:
        subprocess.run(
            [*manage, "generate_cards", "--count", str(cards), "--game", GAME, "--replace"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute("VACUUM ANALYZE cards_card")  # as bench/search.py after a load
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    return env


def bench_cards(select: str) -> list[tuple[int, ...]]:
    """``select`` (its columns) over the bench game's cards, read straight from PostgreSQL."""
    query = f"{select} FROM cards_card c JOIN cards_game g ON g.id = c.game_id WHERE g.slug = %s"
    with psycopg.connect(PG_URL) as connection:
        return connection.execute(query, [GAME]).fetchall()


def detail_url() -> str:
    (pk,) = bench_cards("SELECT c.id")[5000]  # any card: the detail is read from memory
    return f"/api/v1/cards/{pk}/"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def run(env: dict[str, str], urls: list[str], freeze_after: int, requests: int) -> list[float]:
    """One server, ``requests`` timed requests; prints its figures, returns every latency."""
    server_env = {**env, "GUNICORN_GC_FREEZE_AFTER": str(freeze_after)}
    with (
        running_server("gunicorn", free_port(), server_env) as server,
        httpx.Client(base_url=server.base, timeout=30) as client,
    ):
        for index in range(300):
            client.get(urls[index % len(urls)])
        by_url: dict[str, list[float]] = {url: [] for url in urls}
        for index in range(requests):
            url = urls[index % len(urls)]
            started = time.perf_counter()
            response = client.get(url)
            by_url[url].append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
    for url, samples in by_url.items():
        print(
            f"| {freeze_after} | `{url}` | {statistics.median(samples):.1f} "
            f"| {percentile(samples, 0.95):.1f} | {percentile(samples, 0.99):.1f} "
            f"| {max(samples):.1f} |"
        )
    log_path = Path(env["DECKWRIGHT_DATA_DIR"]) / "gunicorn.log"  # running_server's
    froze = [line.split("] ", 2)[-1].strip() for line in log_path.open() if "froze" in line]
    if froze:
        print(f"| {freeze_after} | log: {'; '.join(froze)} | | | | |")
    return [sample for samples in by_url.values() for sample in samples]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=4000, help="timed requests per run")
    parser.add_argument("--rounds", type=int, default=2, help="runs without, then with, freeze")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deckwright-gc-") as data:
        env = prepare(Path(data), args.cards)
        urls = [*URLS, detail_url()]
        print(f"## Garbage-collector pauses: {args.requests} requests a run")
        print(f"\n{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; {machine()}; PostgreSQL")
        print(f"load average before: {load_average()}\n")
        print("| GUNICORN_GC_FREEZE_AFTER | request | p50 | p95 | p99 | max |")
        print("|---|---|---|---|---|---|")
        summary = []
        for _ in range(args.rounds):
            for freeze_after in (0, 200):
                samples = run(env, urls, freeze_after, args.requests)
                summary.append(
                    f"| {freeze_after} | {sum(s > 60 for s in samples)} "
                    f"| {sum(s > 100 for s in samples)} | {percentile(samples, 0.999):.1f} |"
                )
        print("\n| GUNICORN_GC_FREEZE_AFTER | requests over 60 ms | over 100 ms | p99.9 |")
        print("|---|---|---|---|")
        print("\n".join(summary))
        print(f"\nload average after: {load_average()}")


if __name__ == "__main__":
    main()
