"""Concurrent writers of one deck on SQLite (a file, as `make run` uses) and on PostgreSQL.

    .venv/bin/python bench/deck_writes.py                        # both databases
    .venv/bin/python bench/deck_writes.py --backend sqlite --writers 8 --adds 25

Each of ``--writers`` threads (its own database connection, as a request has) adds one copy of a
card ``--adds`` times through ``decks.services.deck_card_add``, all released together. Prints,
per database: copies kept of those added, versions recorded, writes refused as busy (503), and
the wall time and writes per second. On SQLite it runs twice: with ``transaction_mode=IMMEDIATE``
(the setting Deckwright uses) and with SQLite's default ``DEFERRED`` transactions, which shows
why the setting is there. PostgreSQL is 127.0.0.1:5432, database ``deckwright_bench_writes``;
skipped with a message when unreachable. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get(
    "BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/deckwright_bench_writes"
)
SQLITE_DIR = Path(
    os.environ.get("BENCH_DATA_DIR", Path(tempfile.gettempdir()) / "deckwright-bench-writes")
)
CARD = "Grievance Roll"


def child(args: argparse.Namespace) -> None:
    """Runs in a subprocess whose DATABASE_URL is the database under test."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, connections

    from decks.models import DeckCard
    from decks.services import DeckBusyError, deck_card_add, deck_create

    if connection.vendor == "sqlite" and args.transaction_mode:
        connections.settings["default"]["OPTIONS"]["transaction_mode"] = args.transaction_mode
    call_command("migrate", verbosity=0, stdout=io.StringIO())
    call_command("load_game_data", verbosity=0, stdout=io.StringIO())
    user, _ = get_user_model().objects.get_or_create(username="bench-writer")
    deck = deck_create(owner=user, game="revolt-n-reign", name="Bench", decklist="")
    barrier = threading.Barrier(args.writers)
    busy = [0] * args.writers
    failed: list[str] = []

    def writer(index: int) -> None:
        try:
            barrier.wait()
            for _ in range(args.adds):
                try:
                    deck_card_add(deck=deck, card=CARD, quantity=1, actor=user)
                except DeckBusyError:
                    busy[index] += 1
        except Exception as error:  # reported below: the figure is what was kept
            failed.append(f"{type(error).__name__}: {error}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(args.writers)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    deck.refresh_from_db()
    kept = DeckCard.objects.filter(deck=deck, card__name=CARD).values_list("quantity", flat=True)
    kept_count = kept.first() or 0
    tried = args.writers * args.adds
    versions = deck.versions.count() - 1  # the first is the creation
    label = connection.vendor + (
        f" ({connections.settings['default']['OPTIONS'].get('transaction_mode')})"
        if connection.vendor == "sqlite"
        else ""
    )
    print(
        f"{label:<22} {args.writers} writers x {args.adds} adds: kept {kept_count}/{tried}, "
        f"versions {versions}, busy (503) {sum(busy)}, other errors {len(failed)}, "
        f"{elapsed:.2f} s, {kept_count / elapsed:.0f} writes/s"
    )
    for line in sorted(set(failed))[:3]:
        print(f"    {line}")


def run(url: str, args: argparse.Namespace, transaction_mode: str = "") -> None:
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "SECRET_KEY": "bench-only"}
    command = [sys.executable, __file__, "--child", "--writers", str(args.writers)]
    command += ["--adds", str(args.adds)]
    if transaction_mode:
        command += ["--transaction-mode", transaction_mode]
    subprocess.run(command, env=env, cwd=ROOT, check=False)


def postgres_ready() -> bool:
    import psycopg

    try:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            exists = c.execute(
                "SELECT 1 FROM pg_database WHERE datname = 'deckwright_bench_writes'"
            ).fetchone()
            if not exists:
                c.execute("CREATE DATABASE deckwright_bench_writes")
        return True
    except psycopg.OperationalError as error:
        print(f"postgresql: skipped, unreachable ({error})")
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--adds", type=int, default=25)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--transaction-mode", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.backend in ("sqlite", "both"):
        for mode in ("IMMEDIATE", "DEFERRED"):
            path = SQLITE_DIR / f"deck-writes-{mode.lower()}.sqlite3"
            path.parent.mkdir(parents=True, exist_ok=True)
            for stale in path.parent.glob(f"{path.name}*"):
                stale.unlink()  # a fresh database each run: the figures start from zero
            run(f"sqlite:///{path}", args, mode)
    if args.backend in ("postgresql", "both") and postgres_ready():
        run(PG_URL, args)


if __name__ == "__main__":
    main()
