"""Slow clients against gunicorn alone and against gunicorn behind the shipped nginx.

    .venv/bin/python bench/slow_clients.py                 # 500 slow clients, 20 probes each way
    .venv/bin/python bench/slow_clients.py --slow 2000 --probes 50

Prepares a data directory (migrate, collectstatic) in a temporary folder, then starts gunicorn
with the production settings of ``make serve`` (2 workers x 4 threads) and, in front of it, the
private nginx of ``make serve-proxy`` (``common.proxy``). For each way in (gunicorn's own
port, nginx's port) it opens ``--slow`` connections that each send part of a request and then
nothing (four in five stop inside their headers, one in five sends the headers of a POST and 9
of its 100,000 body bytes), then times ``--probes`` normal requests of the log-in page, one
after another, each with a ``--timeout`` limit. It prints how many were answered and their
latency (p50, max), as a Markdown table for docs/performance.md (*Slow clients*).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.proxy import (  # noqa: E402
    ProxyServer,
    Site,
    find_nginx,
    free_port,
    hold_unfinished_requests,
    local_production_env,
    prepare_data_dir,
)


def probe(port: int, probes: int, timeout: float) -> tuple[int, list[float]]:
    answered, seconds = 0, []
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=timeout) as client:
        for _ in range(probes):
            start = time.perf_counter()
            try:
                ok = client.get("/accounts/login/").status_code == 200
            except httpx.TransportError:
                ok = False
            seconds.append(time.perf_counter() - start)
            answered += ok
    return answered, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=500, help="slow connections (at most 4,000)")
    parser.add_argument("--probes", type=int, default=20, help="normal requests timed each way")
    parser.add_argument("--timeout", type=float, default=5.0, help="a probe's limit, seconds")
    args = parser.parse_args()
    if not 0 < args.slow <= 4000:
        parser.error("--slow must be between 1 and 4,000")
    if find_nginx() is None:
        sys.exit("nginx is not installed (Debian: apt-get install nginx-light)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 2 * args.slow + 256)), hard))

    with tempfile.TemporaryDirectory(prefix="deckwright-slow-") as folder, ExitStack() as stack:
        data_dir = Path(folder)
        env = local_production_env(data_dir, "bench-slow-clients-" + "x" * 40)
        prepare_data_dir(env)
        listen, upstream = free_port(), free_port()
        site = Site(
            listen=f"127.0.0.1:{listen}",
            upstream=f"127.0.0.1:{upstream}",
            websocket_upstream=f"127.0.0.1:{free_port()}",
            static_root=data_dir / "staticfiles",
        )
        server = ProxyServer(site, data_dir / "proxy")
        server.start(env)
        stack.callback(server.stop)
        rows = []
        for way, port in (("gunicorn alone", upstream), ("behind nginx", listen)):
            with ExitStack() as slow:
                opened = len(hold_unfinished_requests(port, args.slow, slow))
                time.sleep(0.5)  # let the servers take them in
                answered, seconds = probe(port, args.probes, args.timeout)
            rows.append((way, opened, answered, seconds))
            time.sleep(1)  # gunicorn's threads are free again once the slow sockets close

    print(
        f"Slow clients, {dt.date.today()}, {platform.node()} ({os.cpu_count()} cores), "
        f"gunicorn {os.environ.get('WEB_CONCURRENCY', '2')} workers x "
        f"{os.environ.get('GUNICORN_THREADS', '4')} threads, probe timeout {args.timeout:g} s\n"
    )
    print("| way in | slow connections | probes answered | p50 | max |")
    print("|---|---:|---:|---:|---:|")
    for way, opened, answered, seconds in rows:
        print(
            f"| {way} | {opened} | {answered} of {len(seconds)} | "
            f"{statistics.median(seconds) * 1000:.0f} ms | {max(seconds) * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()
