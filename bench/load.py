"""Load test of the production setup on loopback: many concurrent clients for a bounded time.

    .venv/bin/python bench/load.py                    # 200 clients, 60 s: gunicorn and runserver,
                                                      # on SQLite and on PostgreSQL
    .venv/bin/python bench/load.py --clients 50 --seconds 10 --server gunicorn --database sqlite

For each database the script prepares its own data directory (``BENCH_DATA_DIR``, default
``$TMPDIR/deckwright-load``): migrate, load every game's cards, collectstatic. Then, for each
server, it starts the server on 127.0.0.1 (gunicorn with ``deckwright/gunicorn.conf.py`` on
``--port``, runserver on ``--port + 1``; DEBUG=0, plain HTTP), warms it up, and lets ``--clients``
clients send requests back to back for ``--seconds``, each over its own keep-alive connection.
The clients take turns through four endpoints: the card search of the API
(``/api/v1/cards/?q=...``), the card browser page (``/cards/?q=...``), a card page, and deck
validation (``POST /api/v1/validate/``). It prints, per endpoint, requests, errors (any non-200
answer, timeout or broken connection), throughput and p50/p99 latency, as Markdown tables.

Against a server already running (``make serve``, its database and data as they are):

    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --pid 12345 --clients 200

``--pid`` (repeatable) names the server's processes; their CPU and their children's (gunicorn's
workers) is read from /proc before and after the run and reported per answer. The server's
throttle rates are its own: start it with ``API_THROTTLE_ANON=1000000/second`` (and ``_USER``)
or most answers will be 429s, which count as errors.

The load generator: ``wrk`` where it is installed (Debian's package; ``--load-client wrk``), with
a Lua script cycling through the same four requests (it reports the mix as a whole, not per
endpoint), else this script's own asyncio client. Either way the generator's own CPU is measured
(``wrk``'s from the kernel's accounting of finished children, the asyncio client's from this
process, which runs on one core) and the report says when it was the bottleneck: the asyncio
client busy more than 80% of the run's time, or the machine's cores busy more than 90% with
server and client together.

Everything is bounded and local: only the loopback address (``--url`` too), at most 1,000
clients and 600 s, a request times out after 30 s, and a server the script started is stopped
when its run ends (or the script is interrupted).

Throttling is lifted for the measurement: the servers get ``API_THROTTLE_ANON`` and
``API_THROTTLE_USER`` = ``1000000/second`` (every client here shares one address, so the
production rate of 120 requests a minute would answer almost everything with 429). The throttle's
own work (one round trip to the shared counters per API request) is still done and measured.

PostgreSQL: ``BENCH_PG_ADMIN_URL`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) must
be allowed to create a role and a database. The servers connect as the role ``deckwright_load``
with ``CONNECTION LIMIT --pg-role-limit`` (default 40): a server that opens a connection per
client thread (runserver) then fails inside that limit, as it would against ``max_connections``,
without taking PostgreSQL away from anything else on the machine. The peak number of the role's
connections during the run is printed. The figures go in docs/performance.md, *Load*.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import itertools
import json
import os
import platform
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only, by design: this script never loads another machine
MAX_CLIENTS = 1000
MAX_SECONDS = 600
REQUEST_TIMEOUT = 30.0
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PG_ROLE = PG_DATABASE = "deckwright_load"
DATA_ROOT = Path(os.environ.get("BENCH_DATA_DIR", Path(tempfile.gettempdir()) / "deckwright-load"))
NO_THROTTLE = "1000000/second"

SEARCHES = ["t:attack b:eagle ip<=3", "storm", "(b:bison OR b:scroll) r>=uncommon"]
ENDPOINTS = ["api search", "web search", "card page", "validate"]


@dataclass
class Sample:
    """Every answer of one endpoint in a run."""

    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def machine() -> str:
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}"


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


# ---------------------------------------------------------------------------------------------
# Setting up: databases, data, the servers' environment


def pg_admin():
    import psycopg

    return psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=3)


def pg_prepare(role_limit: int) -> str:
    """Create (or adjust) the bench role and database; return the servers' DATABASE_URL."""
    from psycopg import sql

    with pg_admin() as admin:
        exists = admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [PG_ROLE]).fetchone()
        verb = "ALTER" if exists else "CREATE"
        admin.execute(
            sql.SQL(verb + " ROLE {} LOGIN CONNECTION LIMIT {}").format(
                sql.Identifier(PG_ROLE), sql.Literal(role_limit)
            )
        )
        found = admin.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [PG_DATABASE]
        ).fetchone()
        if not found:
            admin.execute(
                sql.SQL("CREATE DATABASE {} OWNER {}").format(
                    sql.Identifier(PG_DATABASE), sql.Identifier(PG_ROLE)
                )
            )
    parts = urlsplit(PG_ADMIN_URL)
    netloc = f"{PG_ROLE}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit((parts.scheme, netloc, f"/{PG_DATABASE}", "", ""))


def pg_connections() -> int:
    with pg_admin() as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE usename = %s", [PG_ROLE]
        ).fetchone()
    return int(row[0])


def server_env(database: str, args: argparse.Namespace) -> dict[str, str]:
    data_dir = DATA_ROOT / database
    data_dir.mkdir(parents=True, exist_ok=True)
    key_file = data_dir / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DEBUG", "SECRET_KEY", "DECKWRIGHT_DATA_DIR"}
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=key_file.read_text().strip(),
        DECKWRIGHT_DATA_DIR=str(data_dir),
        DECKWRIGHT_HTTPS="0",  # plain HTTP on loopback, like `make serve`
        API_THROTTLE_ANON=NO_THROTTLE,
        API_THROTTLE_USER=NO_THROTTLE,
        GUNICORN_ACCESS_LOG="",  # a log line per request would be measured too
    )
    if args.workers:
        env["WEB_CONCURRENCY"] = str(args.workers)
    if args.threads:
        env["GUNICORN_THREADS"] = str(args.threads)
    if database == "postgres":
        env["DATABASE_URL"] = pg_prepare(args.pg_role_limit)
    return env


def prepare_data(env: dict[str, str]) -> None:
    for command in (
        ["migrate", "--noinput"],
        ["load_game_data"],
        ["collectstatic", "--noinput"],
    ):
        subprocess.run(
            [sys.executable, "manage.py", *command, "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def cpu_seconds(*pids: int) -> float:
    """User and system CPU time of processes and their children (gunicorn's workers), from
    /proc (a worker that exited during the run takes its time with it: restart-free runs)."""
    tick = os.sysconf("SC_CLK_TCK")
    wanted = set(pids)
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(stat.parent.name) in wanted or int(fields[1]) in wanted:
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def children_cpu() -> float:
    """CPU seconds of this script's finished child processes (wrk)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def loopback_base(url: str) -> str:
    """``url`` as scheme://host:port if its host is a loopback address, else SystemExit."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise SystemExit(f"--url must be http://host:port, not {url!r}")
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 80)}
    except OSError as exc:
        raise SystemExit(f"--url: cannot resolve {parts.hostname} ({exc})") from None
    if not all(ipaddress.ip_address(address).is_loopback for address in addresses):
        raise SystemExit(
            "--url must be a loopback address: this script never loads another machine"
        )
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


@dataclass
class Server:
    base: str
    pid: int


@contextlib.contextmanager
def running_server(kind: str, port: int, env: dict[str, str]) -> Iterator[Server]:
    """Start a server on 127.0.0.1:port, wait until it answers, stop it afterwards."""
    bind = f"{HOST}:{port}"
    if kind == "gunicorn":
        command = [sys.executable, "-m", "gunicorn", "-c", "deckwright/gunicorn.conf.py"]
        command += ["--bind", bind]
    else:
        command = [sys.executable, "manage.py", "runserver", "--noreload", bind]
    log_path = Path(env["DECKWRIGHT_DATA_DIR"]) / f"{kind}.log"
    log = log_path.open("wb")  # closed in the finally below
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://{bind}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"{kind} exited:\n{log_path.read_text(errors='replace')}")
            try:
                httpx.get(f"{base}/api/v1/", timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{kind} did not answer on {bind} within 60 s") from None
                time.sleep(0.2)
        yield Server(base, process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


# ---------------------------------------------------------------------------------------------
# The load


@dataclass
class Plan:
    """The requests the clients cycle through."""

    card_pages: list[str]
    decklist: str

    def request(self, endpoint: str, turn: int) -> tuple[str, str, dict]:
        query = SEARCHES[turn % len(SEARCHES)]
        if endpoint == "api search":
            return "GET", "/api/v1/cards/", {"params": {"q": query}}
        if endpoint == "web search":
            return "GET", "/cards/", {"params": {"q": query}}
        if endpoint == "card page":
            return "GET", self.card_pages[turn % len(self.card_pages)], {}
        body = {"game": "revolt-n-reign", "format": "standard", "decklist": self.decklist}
        return "POST", "/api/v1/validate/", {"json": body}


def make_plan(base: str) -> Plan:
    """Card addresses from the API, a legal sample deck; every endpoint answers 200 once."""
    response = httpx.get(f"{base}/api/v1/cards/", params={"game": "revolt-n-reign"}, timeout=30)
    response.raise_for_status()
    pages = [f"/games/revolt-n-reign/cards/{card['slug']}/" for card in response.json()["results"]]
    decklist = (ROOT / "fixtures/decks/revolt-n-reign/legal-eagle-control.txt").read_text()
    plan = Plan(card_pages=pages[:20], decklist=decklist)
    with httpx.Client(base_url=base, timeout=30) as client:
        for endpoint in ENDPOINTS:
            method, path, options = plan.request(endpoint, 0)
            answer = client.request(method, path, **options)
            if answer.status_code != 200:
                raise SystemExit(f"{endpoint}: {method} {path} answered {answer.status_code}")
    return plan


async def load(base: str, plan: Plan, clients: int, seconds: float) -> tuple[dict, float]:
    """`clients` clients send requests back to back for `seconds`; returns samples, duration."""
    samples = {endpoint: Sample() for endpoint in ENDPOINTS}
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    timeout = httpx.Timeout(REQUEST_TIMEOUT)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def one_client(number: int) -> None:
            for turn in itertools.count(number):
                if time.perf_counter() >= deadline:
                    return
                endpoint = ENDPOINTS[turn % len(ENDPOINTS)]
                method, path, options = plan.request(endpoint, turn // len(ENDPOINTS))
                sample = samples[endpoint]
                sent = time.perf_counter()
                try:
                    answer = await client.request(method, path, **options)
                except httpx.TimeoutException:
                    sample.error("timeout")
                    continue
                except httpx.TransportError as exc:
                    sample.error(type(exc).__name__)
                    continue
                if answer.status_code == 200:
                    sample.latencies_ms.append((time.perf_counter() - sent) * 1000)
                else:
                    sample.error(f"HTTP {answer.status_code}")

        await asyncio.gather(*(one_client(number) for number in range(clients)))
        return samples, time.perf_counter() - started


class ConnectionWatch(threading.Thread):
    """Samples the bench role's PostgreSQL connections while the load runs."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = 0
        self.stop = threading.Event()

    def run(self) -> None:
        with pg_admin() as admin:
            while not self.stop.is_set():
                row = admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE usename = %s", [PG_ROLE]
                ).fetchone()
                self.peak = max(self.peak, int(row[0]))
                self.stop.wait(0.25)


WRK_SCRIPT = """
local requests = {}
%s
local turn = 0
request = function()
  turn = turn + 1
  return requests[(turn %% #requests) + 1]
end
"""


def lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


def run_wrk(base: str, plan: Plan, clients: int, seconds: float) -> tuple[str, float, float]:
    """The mix through ``wrk`` (``clients`` connections, a thread per core); returns its
    report, the run's length and wrk's CPU seconds."""
    lines = []
    for turn in range(len(SEARCHES) * len(plan.card_pages)):
        endpoint = ENDPOINTS[turn % len(ENDPOINTS)]
        method, path, options = plan.request(endpoint, turn // len(ENDPOINTS))
        if "params" in options:
            path += "?" + urlencode(options["params"])
        if "json" in options:
            body = json.dumps(options["json"])
            headers = '{["Content-Type"] = "application/json"}'
            call = f"wrk.format({lua_string(method)}, {lua_string(path)}, {headers}, {lua_string(body)})"
        else:
            call = f"wrk.format({lua_string(method)}, {lua_string(path)})"
        lines.append(f"requests[#requests + 1] = {call}")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % "\n".join(lines))
    threads = max(1, min(clients, os.cpu_count() or 1))
    command = ["wrk", f"-t{threads}", f"-c{clients}", f"-d{seconds:g}s", "--latency"]
    command += ["--timeout", f"{REQUEST_TIMEOUT:g}s", "-s", script.name, base]
    before, started = children_cpu(), time.perf_counter()
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=True)
    finally:
        os.unlink(script.name)
    return result.stdout, time.perf_counter() - started, children_cpu() - before


def cpu_verdict(server_cpu: float, client_cpu: float, duration: float, in_process: bool) -> str:
    """Whose CPU limited the run: the load generator's share, and the machine's."""
    cores = os.cpu_count() or 1
    client_share = client_cpu / duration
    machine_share = (server_cpu + client_cpu) / (duration * cores)
    text = (
        f"Load generator CPU: {client_cpu:.1f} s ({client_share:.0%} of one core);"
        f" server and generator together {machine_share:.0%} of the {cores} cores."
    )
    if in_process and client_share > 0.8:
        text += (
            " **The client was the bottleneck** (its one core was busy most of the run):"
            " latency and throughput are the client's, not the server's."
        )
    elif machine_share > 0.9:
        text += (
            " **The machine's cores were saturated**; the generator took"
            f" {client_cpu / max(server_cpu + client_cpu, 1e-9):.0%} of the CPU used."
        )
    return text


def report(title: str, samples: dict[str, Sample], duration: float, extra: str) -> None:
    print(f"\n### {title}\n")
    print("| endpoint | requests | errors | req/s | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    every: list[float] = []
    all_errors: dict[str, int] = {}
    for endpoint, sample in samples.items():
        every += sample.latencies_ms
        for kind, count in sample.errors.items():
            all_errors[kind] = all_errors.get(kind, 0) + count
        print(row(endpoint, sample.latencies_ms, sum(sample.errors.values()), duration))
    print(row("**all**", every, sum(all_errors.values()), duration))
    kinds = ", ".join(f"{kind}: {count}" for kind, count in sorted(all_errors.items()))
    print(f"\n{duration:.1f} s measured. Errors: {kinds or 'none'}. {extra}".rstrip())


def row(label: str, latencies: list[float], errors: int, duration: float) -> str:
    if not latencies:
        return f"| {label} | 0 | {errors} | 0 | - | - |"
    return (
        f"| {label} | {len(latencies) + errors:,} | {errors:,} | {len(latencies) / duration:,.1f}"
        f" | {statistics.median(latencies):,.0f} | {percentile(latencies, 0.99):,.0f} |"
    )


def describe(kind: str, env: dict[str, str]) -> str:
    if kind == "runserver":
        return "runserver (a thread per connection)"
    workers = env.get("WEB_CONCURRENCY", "2")
    threads = env.get("GUNICORN_THREADS", "4")
    return f"gunicorn ({workers} workers x {threads} threads, gthread)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="concurrent clients (200)")
    parser.add_argument("--seconds", type=float, default=60, help="length of each run (60)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds first (5)")
    parser.add_argument("--server", choices=["gunicorn", "runserver", "both"], default="both")
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--port", type=int, default=18700, help="gunicorn's; runserver +1")
    parser.add_argument("--workers", type=int, help="gunicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--threads", type=int, help="threads per worker (GUNICORN_THREADS)")
    parser.add_argument("--pg-role-limit", type=int, default=40, help="CONNECTION LIMIT (40)")
    parser.add_argument("--url", help="a server already running (loopback only): no setup")
    parser.add_argument(
        "--pid", type=int, action="append", default=[], help="the --url server's process(es)"
    )
    parser.add_argument(
        "--load-client",
        choices=["auto", "wrk", "python"],
        default="auto",
        help="wrk where installed (auto), or this script's asyncio client",
    )
    args = parser.parse_args()
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1 to {MAX_CLIENTS}")
    if not 0 < args.seconds <= MAX_SECONDS or not 0 <= args.warmup <= MAX_SECONDS:
        parser.error(f"--seconds and --warmup must be at most {MAX_SECONDS}")
    if not 1024 <= args.port < 65535:
        parser.error("--port must be 1024 to 65534")

    use_wrk = args.load_client == "wrk" or (args.load_client == "auto" and shutil.which("wrk"))
    if args.load_client == "wrk" and not shutil.which("wrk"):
        parser.error("--load-client wrk: wrk is not installed (Debian: apt-get install wrk)")
    if args.url:
        running_server_load(loopback_base(args.url), args, bool(use_wrk))
        return
    databases = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    servers = ["gunicorn", "runserver"] if args.server == "both" else [args.server]
    print(f"## Load: {args.clients} clients, {args.seconds:g} s per run")
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}; load average {load_average()}")
    for database in databases:
        if database == "postgres":
            try:
                pg_connections()
            except Exception as exc:
                print(f"\nPostgreSQL skipped: {PG_ADMIN_URL} unreachable ({exc})")
                continue
        env = server_env(database, args)
        prepare_data(env)
        for offset, kind in enumerate(servers):
            with running_server(kind, args.port + offset, env) as server:
                base = server.base
                plan = make_plan(base)
                if args.warmup:
                    asyncio.run(load(base, plan, min(args.clients, 16), args.warmup))
                watch = ConnectionWatch() if database == "postgres" else None
                if watch:
                    watch.start()
                cpu_before, client_before = cpu_seconds(server.pid), time.process_time()
                samples, duration = asyncio.run(load(base, plan, args.clients, args.seconds))
                cpu = cpu_seconds(server.pid) - cpu_before
                client_cpu = time.process_time() - client_before
                answered = sum(len(sample.latencies_ms) for sample in samples.values())
                extra = (
                    f"Server CPU: {cpu:.1f} s, {cpu * 1000 / max(answered, 1):.1f} ms per answered"
                    f" request (the clients: {client_cpu:.1f} s). Load average after:"
                    f" {load_average()}."
                )
                if watch:
                    watch.stop.set()
                    watch.join()
                    extra += (
                        f" Peak PostgreSQL connections of the server: {watch.peak}"
                        f" (role limit {args.pg_role_limit})."
                    )
                name = "SQLite" if database == "sqlite" else "PostgreSQL"
                report(f"{describe(kind, env)}, {name}", samples, duration, extra)


def running_server_load(base: str, args: argparse.Namespace, use_wrk: bool) -> None:
    """The mix against a server already running at ``base`` (``--url``)."""
    for pid in args.pid:
        if not Path(f"/proc/{pid}/stat").exists():
            raise SystemExit(f"--pid {pid}: no such process on this machine")
    generator = "wrk" if use_wrk else "asyncio client (this script, one core)"
    print(f"## Load: {args.clients} clients, {args.seconds:g} s, against {base}; {generator}")
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}; load average {load_average()}")
    plan = make_plan(base)
    if args.warmup:
        asyncio.run(load(base, plan, min(args.clients, 16), args.warmup))
    cpu_before = cpu_seconds(*args.pid) if args.pid else 0.0
    if use_wrk:
        output, duration, client_cpu = run_wrk(base, plan, args.clients, args.seconds)
        answered = wrk_answers(output)
    else:
        client_before = time.process_time()
        samples, duration = asyncio.run(load(base, plan, args.clients, args.seconds))
        client_cpu = time.process_time() - client_before
        answered = sum(len(sample.latencies_ms) for sample in samples.values())
    extra = ""
    if args.pid:
        cpu = cpu_seconds(*args.pid) - cpu_before
        extra = (
            f"Server CPU (pids {', '.join(map(str, args.pid))} and their children): {cpu:.1f} s,"
            f" {cpu * 1000 / max(answered, 1):.2f} ms per answer."
        )
    else:
        cpu = 0.0
        extra = "Server CPU not measured (give its process ids with --pid)."
    extra += " " + cpu_verdict(cpu, client_cpu, duration, in_process=not use_wrk)
    extra += f" Load average after: {load_average()}."
    if use_wrk:
        print(f"\n### wrk, the mix as a whole\n\n```\n{output.strip()}\n```\n\n{extra}")
    else:
        report(f"the server at {base}", samples, duration, extra)


def wrk_answers(output: str) -> int:
    """Requests wrk completed, less its non-2xx/3xx answers."""
    done = re.search(r"(\d+) requests in", output)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return (int(done.group(1)) if done else 0) - (int(bad.group(1)) if bad else 0)


if __name__ == "__main__":
    main()
