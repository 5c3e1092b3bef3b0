"""Gunicorn settings of the production server (`make serve`; sizing in docs/deploy.md).

Threaded workers (gthread): a worker process runs GUNICORN_THREADS requests at once, and each
thread keeps one database connection open (CONN_MAX_AGE), so one server holds at most
WEB_CONCURRENCY x GUNICORN_THREADS connections. Clients beyond that wait in the listen backlog
instead of opening more connections. Run from the project directory:

    gunicorn -c deckwright/gunicorn.conf.py [--bind 127.0.0.1:8000]
"""

from __future__ import annotations

from pathlib import Path

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
