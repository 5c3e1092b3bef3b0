"""gunicorn behind nginx: the shipped proxy configuration (``deploy/nginx/``) and a runner for it.

``render_site`` fills the site template for a given listening address, upstream and static
folder; ``render_standalone`` wraps it into a complete configuration for a private nginx that
keeps its files under one run directory and needs no root. ``ProxyServer`` starts gunicorn on
loopback and that nginx in front of it (``manage.py serve_proxy``, ``make serve-proxy``).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "deploy" / "nginx"
#: where Debian (and most systems) keep nginx; a plain ``PATH`` lookup misses /usr/sbin for users
NGINX_PLACES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
MIME_TYPES = ("/etc/nginx/mime.types", "/usr/local/etc/nginx/mime.types")
#: the static files Deckwright serves, for an nginx without a mime.types file of its own
OWN_TYPES = (
    "types { text/css css; application/javascript js; application/json json map; "
    "image/png png; image/svg+xml svg; text/html html; text/plain txt md; }"
)
_FIELD = re.compile(r"\{\{(\w+)\}\}")


class ProxyError(RuntimeError):
    """nginx is missing, its configuration is refused, or a server did not start."""


def find_nginx() -> str | None:
    """The nginx program: ``$NGINX``, then ``PATH``, then the usual sbin folders."""
    named = os.environ.get("NGINX")
    if named:
        return named if os.access(named, os.X_OK) else None
    found = shutil.which("nginx")
    if found:
        return found
    return next((place for place in NGINX_PLACES if os.access(place, os.X_OK)), None)


def _fill(template: str, fields: dict[str, str]) -> str:
    def field(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in fields:
            raise KeyError(f"the nginx template asks for {{{{{name}}}}}, which nobody fills")
        return fields[name]

    return _FIELD.sub(field, template)


@dataclass(frozen=True)
class Site:
    """What the site template needs to know."""

    listen: str = "127.0.0.1:8000"
    upstream: str = "127.0.0.1:8001"
    #: daphne's address, for the WebSockets of live tables (/ws/)
    websocket_upstream: str = "127.0.0.1:8002"
    static_root: Path = ROOT / "var" / "staticfiles"
    server_name: str = "_"
    max_body: str = "2m"
    tls_certificate: Path | None = None
    tls_key: Path | None = None

    def render(self) -> str:
        if (self.tls_certificate is None) != (self.tls_key is None):
            raise ProxyError("TLS needs both a certificate and its key")
        if self.tls_certificate is not None:
            listen = (
                # "ssl http2" on the listen line: nginx 1.22 (Debian 12) has no "http2 on"
                f"listen {self.listen} ssl http2;\n"
                f"    ssl_certificate {self.tls_certificate};\n"
                f"    ssl_certificate_key {self.tls_key};"
            )
            proto = "https"
        else:
            listen = f"listen {self.listen};"
            proto = "http"
        return _fill(
            (TEMPLATES / "deckwright.conf").read_text(),
            {
                "listen": listen,
                "upstream": self.upstream,
                "websocket_upstream": self.websocket_upstream,
                "static_root": str(Path(self.static_root).resolve()),
                "server_name": self.server_name,
                "max_body": self.max_body,
                "forwarded_proto": proto,
            },
        )


def render_standalone(run_dir: Path) -> str:
    """The main configuration of a private nginx keeping everything under ``run_dir``; it
    includes ``run_dir/deckwright.conf``. Started by root, its workers stay root: the files it
    serves may sit in folders only their owner can read (a test's temporary directory)."""
    mime = next((path for path in MIME_TYPES if Path(path).is_file()), None)
    return _fill(
        (TEMPLATES / "standalone.conf").read_text(),
        {
            "run_dir": str(run_dir.resolve()),
            "user": "user root;" if os.geteuid() == 0 else "",
            "types": f"include {mime};" if mime else OWN_TYPES,
        },
    )


def free_port() -> int:
    """A loopback port nobody listens on now (for test and benchmark servers)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def prepare_data_dir(env: dict[str, str]) -> None:
    """As ``make serve`` does for the data directory of ``env``: the database migrated (the
    API's rate-limit counters live in a table when REDIS_URL is unset), the static files
    collected."""
    for command in (["migrate"], ["collectstatic"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "--noinput", "--verbosity", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )


def hold_unfinished_requests(port: int, count: int, stack: ExitStack) -> list[socket.socket]:
    """Open up to ``count`` connections to ``port`` that never finish their request (the tests'
    and benchmark's slow clients): four in five stop inside their headers, every fifth sends a
    POST's headers and 9 of its 100,000 body bytes. ``stack`` closes them; fewer are returned
    when the system refuses more."""
    held = []
    for index in range(count):
        try:
            client = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            break
        if index % 5:
            client.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Ag")
        else:
            client.sendall(
                b"POST /api/v1/validate/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\n60 Copies"
            )
        held.append(client)
    return held


def local_production_env(data_dir: Path, secret_key: str) -> dict[str, str]:
    """The environment of a production server on plain HTTP on this machine, as ``make serve``
    sets it, with its own data directory (SQLite file, static files): the tests' and
    benchmarks' servers. Database and HTTPS settings of the calling environment are dropped."""
    inherited = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"} and not key.startswith("SECURE_")
    }
    return {
        **inherited,
        "DEBUG": "0",
        "SECRET_KEY": secret_key,
        "DECKWRIGHT_DATA_DIR": str(data_dir),
        "DECKWRIGHT_HTTPS": "0",
        "GUNICORN_ACCESS_LOG": "",
    }


def _wait_until_answering(address: str, process: subprocess.Popen[bytes], what: str) -> None:
    """Wait until the server answers HTTP (any status): gunicorn's master listens before its
    workers have loaded the app, and connections made then wait in the backlog."""
    host, _, port = address.rpartition(":")
    for _ in range(600):
        if process.poll() is not None:
            raise ProxyError(f"{what} exited with status {process.returncode} before it answered")
        connection = http.client.HTTPConnection(host or "127.0.0.1", int(port), timeout=1)
        try:
            connection.request("HEAD", "/static/")
            connection.getresponse()
            return
        except OSError:
            time.sleep(0.1)
        finally:
            connection.close()
    raise ProxyError(f"{what} did not answer on {address} within 60 s")


class ProxyServer:
    """gunicorn on ``site.upstream`` (loopback), daphne on ``site.websocket_upstream`` for the
    WebSockets, and a private nginx on ``site.listen``."""

    def __init__(self, site: Site, run_dir: Path, nginx: str | None = None) -> None:
        found = nginx or find_nginx()
        if found is None:
            raise ProxyError(
                "nginx is not installed: on Debian, `apt-get install nginx-light` "
                "(or set NGINX to its path)"
            )
        self.nginx = found
        self.site = site
        self.run_dir = run_dir
        #: each running server with the signal that stops it once its requests in flight are done
        #: (gunicorn: TERM; nginx: QUIT)
        self.processes: list[tuple[subprocess.Popen[bytes], signal.Signals]] = []

    def write_config(self) -> Path:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "deckwright.conf").write_text(self.site.render())
        main = self.run_dir / "nginx.conf"
        main.write_text(render_standalone(self.run_dir))
        return main

    def _nginx(self, main: Path, *extra: str) -> list[str]:
        return [self.nginx, "-p", str(self.run_dir), "-c", str(main), *extra]

    def check(self) -> Path:
        """Write the configuration and have nginx test it; a refusal is a ProxyError with
        nginx's own words."""
        main = self.write_config()
        test = subprocess.run(self._nginx(main, "-t", "-q"), capture_output=True, text=True)
        if test.returncode != 0:
            raise ProxyError(f"nginx refused {main}:\n{test.stderr.strip()}")
        return main

    def start(self, env: dict[str, str] | None = None) -> None:
        """Start gunicorn, wait until it listens, then nginx; the app trusts one proxy's
        ``X-Forwarded-For`` entry (``TRUSTED_PROXY_COUNT=1``)."""
        main = self.check()
        app_env = {**(env if env is not None else os.environ), "TRUSTED_PROXY_COUNT": "1"}
        gunicorn = subprocess.Popen(
            [
                sys.executable,
                *("-m", "gunicorn", "-c", "deckwright/gunicorn.conf.py"),
                *("--bind", self.site.upstream),
            ],
            cwd=ROOT,
            env=app_env,
        )
        self.processes.append((gunicorn, signal.SIGTERM))
        host, _, port = self.site.websocket_upstream.rpartition(":")
        daphne = subprocess.Popen(
            [
                sys.executable,
                *("-m", "daphne", "-b", host, "-p", port),
                *("--proxy-headers", "deckwright.asgi:application"),
            ],
            cwd=ROOT,
            env=app_env,
        )
        self.processes.append((daphne, signal.SIGTERM))
        try:
            _wait_until_answering(self.site.upstream, gunicorn, "gunicorn")
            _wait_until_answering(self.site.websocket_upstream, daphne, "daphne")
            proxy = subprocess.Popen(self._nginx(main, "-g", "daemon off; master_process on;"))
            self.processes.append((proxy, signal.SIGQUIT))
            _wait_until_answering(self.site.listen, proxy, "nginx")
        except BaseException:
            self.stop()
            raise

    def wait(self) -> int:
        """Block until either server exits (then stop the other) and give its status."""
        while True:
            for process, _ in self.processes:
                status = process.poll()
                if status is not None:
                    self.stop()
                    return status
            time.sleep(0.2)

    def stop(self) -> None:
        for process, stop_signal in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(stop_signal)
        for process, _ in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
