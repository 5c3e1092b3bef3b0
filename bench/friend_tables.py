"""Friend tables under load: many live tables played at once over WebSockets.

    .venv/bin/python bench/friend_tables.py                    # 50 tables, 100 players
    .venv/bin/python bench/friend_tables.py --tables 10 --game revolt-n-reign
    .venv/bin/python bench/friend_tables.py --tables 5 --game reign-absolute
    .venv/bin/python bench/friend_tables.py --tables 5 --spectators 2   # two watching each
    .venv/bin/python bench/friend_tables.py --tables 5 --spectators 2 --spectator-delay 2
    .venv/bin/python bench/friend_tables.py --url http://127.0.0.1:8002   # a running server
    .venv/bin/python bench/friend_tables.py --in-memory        # one process's channel layer

Without ``--url`` it prepares a data directory in a temporary folder (migrate, collectstatic,
the game data) and starts daphne on a free loopback port with the production settings of
``make serve`` (``deckwright.asgi:application``, DEBUG=0), with the Redis channel layer when
REDIS_URL is set or Redis answers at 127.0.0.1:6379 (there in database 13, away from other
servers' groups), the in-memory layer otherwise or with ``--in-memory``; the output says which. With ``--url`` it uses that server, and creates its tables through the ORM of the
settings in its own environment: run it with the server's environment (same database).

It creates ``--tables`` tables with two users each (one opens the table with a sample deck, the
other joins by the invite token, as the pages do through ``tables.services``), then connects two
scripted WebSocket clients per table, each signed in by its own session cookie, all at once.
A client plays from the messages it receives only: when its seat's position says it is its
move, it sends one of the legal actions the position offers (``data-action`` of the rendered
choices, picked at random) with the move count it was shown. A move's latency is the time from
sending it to the mover receiving the next position. Every table plays until its game ends or
``--max-moves`` moves; it reports games finished, moves/s, p50/p95/max latency, the sizes of
the position messages after each player's first, and errors (a
refused move, a closed socket, a silence longer than ``--timeout``), and exits 1 on any error.
With ``--spectators N`` each table is open to spectators by its link, with no delay (or
``--spectator-delay`` seconds), and N anonymous clients watch it from before the first move to
the end, asking again when a message's ``refresh_in`` says, as the page does; the sizes of their
messages after the first are reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import os
import platform
import random
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.proxy import free_port, local_production_env, prepare_data_dir  # noqa: E402

ACTION = re.compile(r'data-action="(\d+)"')
#: game -> the two sample decklists the two chairs play (fixtures/decks/<game>/<name>.txt)
DECKS = {
    "regality-vs-religion": ("legal-regality-standard", "legal-religion-standard"),
    "revolt-n-reign": ("legal-eagle-control", "legal-bison-pressure"),
    "rival-realms": ("legal-arcane-court", "legal-knights-and-keeps"),
    "reign-absolute": ("legal-elves-grove", "legal-empire-legion"),
    "reggae-revolution": ("legal-full-setup", "legal-full-setup"),
}


#: the Redis database the benchmark's own server uses when it finds Redis by itself
REDIS_DB = 13


def redis_url() -> str:
    """REDIS_URL, or Redis at 127.0.0.1:6379 if it answers there, or '' (in-memory layer)."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as probe:
            probe.sendall(b"PING\r\n")
            if probe.recv(16).startswith(b"+PONG"):
                # a database of its own: other servers' tables of the same ids share db 0's
                # group names (friend-table-<id>) and would send this one's clients messages
                return f"redis://127.0.0.1:6379/{REDIS_DB}"
    except OSError:
        pass
    return ""


def server_complaints(log: str) -> Counter[str]:
    """Per error the server logged (the last line of each traceback), how many times."""
    found: Counter[str] = Counter()
    lines = log.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("Traceback"):
            last = next(
                (x for x in lines[number + 1 :] if x and not x.startswith(" ")), "(cut off)"
            )
            found[last[:200]] += 1
    return found


def start_server(env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """daphne serving ``deckwright.asgi:application`` on a free loopback port, as ``make serve``
    serves WebSockets (its log to ``log``); returns the process and its base URL once it
    accepts connections."""
    port = free_port()
    log_file = log.open("wb")
    daphne = str(Path(sys.executable).parent / "daphne")
    process = subprocess.Popen(
        [daphne, "-b", "127.0.0.1", "-p", str(port), "deckwright.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    log_file.close()
    for _ in range(600):
        if process.poll() is not None:
            error = log.read_text(errors="replace")
            raise SystemExit(f"daphne exited with status {process.returncode}: {error[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("daphne did not listen within a minute")


def create_tables(
    game: str, count: int, seed: int, *, watched: bool = False, delay: int = 0
) -> list[dict[str, Any]]:
    """``count`` started tables of ``game``, each with two new users (decks of their own), the
    deals of table ``i`` from seed ``seed * 1000 + i`` (so that two runs, of two versions say,
    play the same games), open to spectators by their link when ``watched`` (``delay`` seconds
    behind the play); per table, the
    two players' session cookies, the spectator link's token and the table id."""
    import django

    django.setup()
    logging.disable(logging.INFO)  # a line per session made for the clients
    from django.contrib.auth import get_user_model
    from django.test import Client

    from decks.selectors import format_default
    from decks.services import deck_create
    from tables.models import FriendTable
    from tables.services import friend_table_create, friend_table_join
    from tables.spectators import spectator_settings_set

    samples = Path(ROOT / "fixtures" / "decks" / game)
    lists = [(samples / f"{name}.txt").read_text(encoding="utf-8") for name in DECKS[game]]
    users = get_user_model().objects
    run = secrets.token_hex(3)
    tables = []
    for number in range(count):
        people, decks = [], []
        for chair in (0, 1):
            person = users.create_user(f"bench-{run}-{number}-{chair}", password=None)
            people.append(person)
            decks.append(
                deck_create(
                    owner=person,
                    game=game,
                    name=f"Bench {chair}",
                    decklist=lists[chair],
                    format=format_default(game),
                    visibility="private",
                )
            )
        table = friend_table_create(owner=people[0], deck=decks[0])
        if watched:
            spectator_settings_set(table, spectators=FriendTable.Spectators.LINK, delay=delay)
        friend_table_join(
            table_pk=table.pk, token=table.invite_token, user=people[1], deck=decks[1]
        )
        # no position has been asked for yet: the deal is the seed's
        FriendTable.objects.filter(pk=table.pk).update(seed=seed * 1000 + number)
        cookies = []
        for person in people:
            client = Client()
            client.force_login(person)
            cookies.append(client.cookies["sessionid"].value)
        tables.append({"pk": table.pk, "cookies": cookies, "token": table.spectator_token})
    return tables


@dataclass
class Tally:
    """What the clients measured, together."""

    latencies: list[float] = field(default_factory=list)
    connects: list[float] = field(default_factory=list)
    #: the size of every position message after a player's first (its page's whole view)
    sizes: list[int] = field(default_factory=list)
    #: the same, of the spectators' messages
    spectator_sizes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    capped: int = 0
    moves: int = 0


class Arrivals:
    """Players connect ``at_once`` at a time (each waits for its first position); the game
    starts for all when every player has arrived (or failed to)."""

    def __init__(self, players: int, at_once: int) -> None:
        self.gate = asyncio.Semaphore(at_once)
        self.everyone = asyncio.Event()
        self.waiting = players

    def arrived(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.everyone.set()


async def play_table(
    url: str,
    table: dict[str, Any],
    tally: Tally,
    args: argparse.Namespace,
    seed: int,
    arrivals: Arrivals,
) -> None:
    """The two players of one table, each on its own WebSocket, until the game ends."""
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws", 1) + f"/ws/play/friends/{table['pk']}/"
    chooser = random.Random(seed)
    moves = [0]
    done = asyncio.Event()

    async def player(cookie: str) -> None:
        async with arrivals.gate:  # players arrive a few at a time, then all play at once
            started = time.perf_counter()
            socket_ = await connect(
                ws_url,
                origin=url,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={cookie}"},
                open_timeout=args.timeout,
                max_size=2**23,
            )
            pending: str | bytes | None = await asyncio.wait_for(
                socket_.recv(), timeout=args.timeout
            )
            tally.connects.append(time.perf_counter() - started)
        arrivals.arrived()
        await arrivals.everyone.wait()
        async with socket_:
            moved_at, sent = -1, 0.0
            while True:
                silence = 0.0
                while True:  # a message, or the table is done (its other player saw the end)
                    if pending is not None:
                        text = pending
                        pending = None
                        break
                    try:
                        text = await asyncio.wait_for(socket_.recv(), timeout=0.5)
                        tally.sizes.append(len(text))
                        break
                    except TimeoutError:
                        if done.is_set():
                            return
                        silence += 0.5
                        if silence >= args.timeout:
                            tally.errors.append(
                                f"table {table['pk']}: no message for {args.timeout}s"
                            )
                            return
                message = json.loads(text)
                if message.get("type") != "position":
                    tally.errors.append(f"table {table['pk']}: {message}")
                    return
                if moved_at >= 0 and message["seen"] > moved_at:
                    tally.latencies.append(time.perf_counter() - sent)
                    moved_at = -1
                if message["finished"] or moves[0] >= args.max_moves:
                    done.set()
                    return
                if message["your_move"] and message["seen"] > moved_at and moved_at < 0:
                    choices = ACTION.findall(message["html"])
                    if not choices:
                        tally.errors.append(f"table {table['pk']}: its move but no choices")
                        return
                    moved_at, sent = message["seen"], time.perf_counter()
                    moves[0] += 1
                    tally.moves += 1
                    await socket_.send(
                        json.dumps(
                            {
                                "type": "move",
                                "action": int(chooser.choice(choices)),
                                "seen": message["seen"],
                            }
                        )
                    )

    async def watched(cookie: str) -> None:
        try:
            await player(cookie)
        except Exception as error:  # a closed socket, a refused handshake: an error to count
            tally.errors.append(f"table {table['pk']}: {type(error).__name__}: {error}")
            arrivals.arrived()
        done.set()

    async def spectator(socket_: Any, first: str | bytes) -> None:
        """A spectator's messages after its first, until the game ends or the players stop (and,
        with a delay, the delay has passed since). As the page does, it asks for a refresh once
        a message's ``refresh_in`` seconds have passed."""
        refresh_at = _refresh_at(first)
        async with socket_:
            while True:
                wait = 0.5 if refresh_at is None else max(0.0, refresh_at - time.monotonic())
                try:
                    text = await asyncio.wait_for(socket_.recv(), timeout=min(wait, 0.5))
                except TimeoutError:
                    if refresh_at is not None and time.monotonic() >= refresh_at:
                        refresh_at = None
                        await socket_.send(json.dumps({"type": "refresh"}))
                    elif done.is_set() and (refresh_at is None or args.spectator_delay == 0):
                        return
                    continue
                tally.spectator_sizes.append(len(text))
                if json.loads(text).get("finished"):
                    return
                refresh_at = _refresh_at(text)

    watching = []
    for _ in range(args.spectators):  # connected, and sent the whole page, before play starts
        socket_ = await connect(
            f"{ws_url}watch/?token={table['token']}",
            origin=url,  # type: ignore[arg-type]
            open_timeout=args.timeout,
            max_size=2**23,
        )
        first = await asyncio.wait_for(socket_.recv(), timeout=args.timeout)
        watching.append(spectator(socket_, first))
    await asyncio.gather(*(watched(cookie) for cookie in table["cookies"]), *watching)
    if moves[0] >= args.max_moves:
        tally.capped += 1


def _refresh_at(message: str | bytes) -> float | None:
    """When (``time.monotonic``) a spectator's page asks again after ``message``: None when the
    message names no time (no delay, or nothing more to show yet). The page waits a quarter of
    a second more than it is told (static/js/friend-watch.js)."""
    refresh_in = json.loads(message).get("refresh_in")
    return None if refresh_in is None else time.monotonic() + float(refresh_in) + 0.25


async def play_all(url: str, tables: list[dict[str, Any]], args: argparse.Namespace) -> Tally:
    tally = Tally()
    arrivals = Arrivals(2 * len(tables), args.arriving)
    await asyncio.gather(
        *(
            play_table(url, table, tally, args, args.seed + i, arrivals)
            for i, table in enumerate(tables)
        )
    )
    return tally


def finished_games(pks: list[int]) -> int:
    from tables.models import FriendTable

    return FriendTable.objects.filter(pk__in=pks, status=FriendTable.Status.FINISHED).count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", choices=sorted(DECKS), default="regality-vs-religion")
    parser.add_argument("--url", default="", help="a running server (default: start daphne)")
    parser.add_argument("--max-moves", type=int, default=1000, help="per table")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds of silence")
    parser.add_argument(
        "--seed", type=int, default=35, help="of the players' choices and the tables' deals"
    )
    parser.add_argument(
        "--in-memory", action="store_true", help="the in-memory channel layer even with Redis"
    )
    parser.add_argument(
        "--arriving", type=int, default=4, help="players connecting at once before play starts"
    )
    parser.add_argument("--spectators", type=int, default=0, help="watching each table")
    parser.add_argument(
        "--spectator-delay", type=int, default=0, help="seconds the spectators' view lags play"
    )
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
    server = None
    with tempfile.TemporaryDirectory(prefix="deckwright-friend-bench-") as data_dir:
        if args.url:
            url = args.url.rstrip("/")
        else:
            env = local_production_env(Path(data_dir), secrets.token_urlsafe(50))
            env.pop("DECKWRIGHT_WEBSOCKET_URL", None)
            layer_url = "" if args.in_memory else redis_url()
            if layer_url:
                env["REDIS_URL"] = layer_url
            else:
                env.pop("REDIS_URL", None)
            prepare_data_dir(env)
            subprocess.run(
                [sys.executable, "manage.py", "load_game_data", "--verbosity", "0"],
                cwd=ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            os.environ.clear()
            os.environ.update(env)
            server, url = start_server(env, Path(data_dir) / "daphne.log")
        try:
            started = time.perf_counter()
            tables = create_tables(
                args.game,
                args.tables,
                args.seed,
                watched=args.spectators > 0,
                delay=args.spectator_delay,
            )
            setup_seconds = time.perf_counter() - started
            from django.conf import settings

            backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
            layer = "Redis" if backend.startswith("channels_redis.") else "in-memory"
            started = time.perf_counter()
            tally = asyncio.run(play_all(url, tables, args))
            seconds = time.perf_counter() - started
            stored_finished = finished_games([t["pk"] for t in tables])
            server_log = (
                (Path(data_dir) / "daphne.log").read_text(errors="replace") if server else ""
            )
        finally:
            if server is not None:
                server.terminate()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()

    latencies = sorted(tally.latencies)
    engines = os.environ.get("DECKWRIGHT_ENGINES") or "default (compiled where built)"
    print(f"# Friend tables: {dt.date.today()}, {platform.node()}, {os.cpu_count()} cores")
    print(f"server: daphne at {url}, channel layer {layer}; engines {engines}")
    print(
        f"game {args.game}: {len(tables)} tables, {2 * len(tables)} players,"
        f" {args.spectators * len(tables)} spectators"
        + (
            f" ({args.spectator_delay} s behind)"
            if args.spectators and args.spectator_delay
            else ""
        )
    )
    print(f"tables created in {setup_seconds:.1f} s")
    print(f"games finished: {stored_finished} of {len(tables)} ({tally.capped} at the move cap)")
    print(f"moves: {tally.moves} in {seconds:.1f} s = {tally.moves / seconds:.1f} moves/s")
    if latencies:
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(
            f"reply latency per move: p50 {statistics.median(latencies) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
    if tally.connects:
        print(
            f"connect (handshake and first position, {args.arriving} arriving at once): "
            f"p50 {statistics.median(tally.connects) * 1000:.0f} ms, "
            f"max {max(tally.connects) * 1000:.0f} ms"
        )
    for who, sizes in (("", tally.sizes), ("spectators' ", tally.spectator_sizes)):
        if sizes:
            sizes = sorted(sizes)
            print(
                f"{who}messages after the first: {len(sizes)},"
                f" mean {statistics.mean(sizes) / 1000:.1f} KB,"
                f" p95 {sizes[int(0.95 * (len(sizes) - 1))] / 1000:.1f} KB,"
                f" max {sizes[-1] / 1000:.1f} KB, {sum(sizes) / 1e6:.1f} MB in all"
            )
    print(f"errors: {len(tally.errors)}")
    for error in tally.errors[:20]:
        print(f"  {error}")
    if tally.errors:
        complaints = server_complaints(server_log)
        if complaints:
            print("the server's errors (the last line of each, and how many):")
            for line, count in complaints.most_common(20):
                print(f"  {count} x {line}")
        sys.exit(1)


if __name__ == "__main__":
    main()
