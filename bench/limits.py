"""How many requests get past the anonymous API throttle when several processes serve at once.

    .venv/bin/python bench/limits.py                      # database table, Redis, process memory
    .venv/bin/python bench/limits.py --processes 4 --requests 150 --backend database

Each of N processes is a separate Python interpreter (as gunicorn's workers are) that sends M
anonymous ``GET /api/v1/games/`` through Django's full stack, each with a made-up
``X-Forwarded-For``, all against one SQLite file and a limit of 120 a minute. With counters every
process shares (common.counters: a database table without REDIS_URL, Redis with it) about 120
pass whatever N is; with per-process memory (the old default) each process allows its own 120.
(Counts are per fixed window of a minute, shifted per client: a run that straddles the end of
its window may pass up to twice the limit, as with any fixed-window limiter.)
Redis is 127.0.0.1:6379 database 11 (flushed first; skipped with a message when unreachable).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = "redis://127.0.0.1:6379/11"
LIMIT = "120/minute"

WORKER = """
import json, sys, uuid
import deckwright.settings as configured
backend = sys.argv[1]
if backend == "memory":  # what every process had before the shared counters
    configured.LIMITS_STORE = "cache"
    configured.CACHES["limits"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
import django
django.setup()
from django.test import Client
client = Client()
statuses = []
for _ in range(int(sys.argv[2])):
    forged = f"203.0.113.{uuid.uuid4().int % 250 + 1}"
    statuses.append(client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=forged).status_code)
print(json.dumps({"passed": statuses.count(200), "throttled": statuses.count(429)}))
"""


def _redis_reason() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as error:  # any failure means: no Redis to measure
        return f"Redis is not reachable at {REDIS_URL} ({error})"
    return None


def run(backend: str, processes: int, requests: int, data_dir: Path) -> dict[str, float]:
    env = {
        **os.environ,
        "DECKWRIGHT_DATA_DIR": str(data_dir),
        "DATABASE_URL": f"sqlite:///{data_dir / 'bench-limits.sqlite3'}",
        "API_THROTTLE_ANON": LIMIT,
        "LOG_LEVEL": "ERROR",  # not one "Too Many Requests" line per refusal
        "DJANGO_SETTINGS_MODULE": "deckwright.settings",
    }
    env.pop("REDIS_URL", None)
    if backend == "redis":
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        env["REDIS_URL"] = REDIS_URL
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", "from common.counters import counter_clear; counter_clear()"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    started = time.perf_counter()
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, backend, str(requests)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    results = [json.loads(worker.communicate()[0].strip().splitlines()[-1]) for worker in workers]
    seconds = time.perf_counter() - started
    return {
        "passed": sum(r["passed"] for r in results),
        "throttled": sum(r["throttled"] for r in results),
        "seconds": seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--requests", type=int, default=150, help="requests per process")
    parser.add_argument(
        "--backend", choices=["database", "redis", "memory"], action="append", default=None
    )
    options = parser.parse_args()
    backends = options.backend or ["database", "redis", "memory"]
    total = options.processes * options.requests
    print(f"{options.processes} processes x {options.requests} requests = {total}, limit {LIMIT}")
    print("every request with a different made-up X-Forwarded-For, TRUSTED_PROXY_COUNT=0\n")
    with tempfile.TemporaryDirectory(prefix="deckwright-bench-limits-") as tmp:
        for backend in backends:
            if backend == "redis" and (reason := _redis_reason()):
                print(f"{backend:>9}: skipped, {reason}")
                continue
            figures = run(backend, options.processes, options.requests, Path(tmp))
            print(
                f"{backend:>9}: {figures['passed']:4d} passed, {figures['throttled']:4d} throttled "
                f"({figures['seconds']:.1f} s)"
            )


if __name__ == "__main__":
    main()
