"""Gunicorn settings of the production server (`make serve`; sizing in docs/deploy.md).

Threaded workers (gthread): a worker process runs GUNICORN_THREADS requests at once, and each
thread keeps one database connection open (CONN_MAX_AGE), so one server holds at most
WEB_CONCURRENCY x GUNICORN_THREADS connections. Clients beyond that wait in the listen backlog
instead of opening more connections. Run from the project directory:

    gunicorn -c deckwright/gunicorn.conf.py [--bind 127.0.0.1:8000]
"""

from __future__ import annotations

import gc
import itertools
from pathlib import Path
from typing import Any

from deckwright.env import env_int, env_str

wsgi_app = "deckwright.wsgi:application"
bind = env_str("GUNICORN_BIND", "127.0.0.1:8000").split(",")
worker_class = "gthread"
workers = env_int("WEB_CONCURRENCY", 2)  # about one per CPU core: the GIL holds a process to one
threads = env_int("GUNICORN_THREADS", 4)  # threads overlap database and network waits
backlog = env_int("GUNICORN_BACKLOG", 2048)  # queued connections beyond the busy threads
timeout = env_int("GUNICORN_TIMEOUT", 30)  # a worker silent this long is restarted
graceful_timeout = 30
# Seconds an idle client connection is kept: longer than the idle timeout of a proxy or load
# balancer in front (nginx and most balancers: 60 s), so that none of them sends a request on a
# connection gunicorn is closing that instant (at 5 s, bench/load.py saw such resets under 200
# clients). An idle connection waits in the poller; it holds no thread.
keepalive = env_int("GUNICORN_KEEPALIVE", 75)
accesslog = env_str("GUNICORN_ACCESS_LOG", "-") or None  # "-" = stdout; empty = off
errorlog = "-"
# The worker heartbeat file lives in memory where there is some (containers' /tmp may be a slow
# overlay).
worker_tmp_dir = "/dev/shm" if Path("/dev/shm").is_dir() else None
# No runtime control socket (gunicornc): its default path is per user, not per server, so two
# servers on one machine would share it.
control_socket_disable = True


# Garbage collector (docs/deploy.md, *Pauses of the garbage collector*). A worker holds some
# 98,000 objects once the app is loaded and 141,000 once its first pages are served (URL
# resolvers, templates, the vocabularies); every full collection walked them all, 50-115 ms on
# the 2-core machine of docs/performance.md, once every few hundred requests: the slowest
# requests (bench/gc_pauses.py). Frozen objects are left out of collections for good, so each
# worker freezes what it holds after loading the app and again, after a full collection, once
# it has served this many requests (0: never freeze).
_gc_freeze_after = env_int("GUNICORN_GC_FREEZE_AFTER", 200)
_served = itertools.count(1)


def _freeze(worker: Any, moment: str) -> None:
    gc.collect()  # what is garbage now would otherwise be kept for good
    gc.freeze()
    worker.log.info("froze %d objects %s", gc.get_freeze_count(), moment)


def post_worker_init(worker: Any) -> None:
    if _gc_freeze_after > 0:
        _freeze(worker, "of the loaded app")


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    if _gc_freeze_after > 0 and next(_served) == _gc_freeze_after:
        _freeze(worker, f"after {_gc_freeze_after} requests")
