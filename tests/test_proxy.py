"""The shipped reverse proxy (deploy/nginx/, ``manage.py serve_proxy``) in front of gunicorn.

One private nginx and one gunicorn per module, started by the same command ``make serve-proxy``
runs, on free loopback ports, serving a migrated temporary data directory. Skipped, with the
reason, where nginx is not installed (``make test`` installs Debian's nginx-light).
"""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from common.proxy import (
    ProxyError,
    ProxyServer,
    Site,
    find_nginx,
    free_port,
    hold_unfinished_requests,
    prepare_data_dir,
)
from tests.test_serving import ROOT, production_env

pytestmark = pytest.mark.skipif(
    find_nginx() is None,
    reason="nginx is not installed (Debian: apt-get install nginx-light; make test does it)",
)

SLOW_CLIENTS = 500
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("proxied")
    prepare_data_dir(production_env(directory))
    return directory


@pytest.fixture(scope="module")
def ports(data_dir: Path) -> Iterator[tuple[int, int]]:
    """(nginx's port, gunicorn's port), both served by ``manage.py serve_proxy``."""
    listen, upstream = free_port(), free_port()
    log = (data_dir / "serve_proxy.log").open("w")
    process = subprocess.Popen(
        [
            *(sys.executable, "manage.py", "serve_proxy"),
            *("--listen", f"127.0.0.1:{listen}", "--upstream", f"127.0.0.1:{upstream}"),
            *("--websocket-upstream", f"127.0.0.1:{free_port()}"),
            *("--run-dir", str(data_dir / "proxy")),
        ],
        cwd=ROOT,
        env=production_env(data_dir),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(600):
            if process.poll() is not None:
                pytest.fail(f"serve_proxy exited: {(data_dir / 'serve_proxy.log').read_text()}")
            if "Serving http://" in (data_dir / "serve_proxy.log").read_text():
                break
            time.sleep(0.1)
        else:
            pytest.fail("serve_proxy did not start within 60 s")
        yield listen, upstream
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        log.close()


@pytest.fixture()
def proxied(ports: tuple[int, int]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=f"http://127.0.0.1:{ports[0]}", timeout=5) as client:
        yield client


def _still_open(client: socket.socket) -> bool:
    client.setblocking(False)
    try:
        return client.recv(1) != b""  # data would be an answer: not expected either way
    except BlockingIOError:
        return True  # nothing to read and not closed
    except OSError:
        return False


def test_a_request_is_answered_while_500_slow_clients_hold_their_connections(
    ports: tuple[int, int], proxied: httpx.Client
) -> None:
    with ExitStack() as stack:
        held = hold_unfinished_requests(ports[0], SLOW_CLIENTS, stack)
        answer = proxied.get("/accounts/login/")  # times out after 5 s (gunicorn alone: never)
        assert answer.status_code == 200
        assert 'name="password"' in answer.text
        # the slow clients were held, not dropped, while that request was served
        assert sum(_still_open(client) for client in held) >= SLOW_CLIENTS * 0.9


def _upgrade_status(port: int, path: str) -> str:
    """The status line answering a WebSocket upgrade of ``path`` (from the site's own origin)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: http://127.0.0.1:{port}\r\n\r\n"
            ).encode()
        )
        return client.recv(4096).decode("latin-1").split("\r\n", 1)[0]


def test_the_proxy_passes_websocket_upgrades_on_to_daphne(ports: tuple[int, int]) -> None:
    # a live table's socket reaches the consumer through nginx: refused there (403: nobody is
    # signed in), where gunicorn, which speaks no WebSocket, answers the same path with a 404
    assert " 403 " in _upgrade_status(ports[0], "/ws/play/friends/1/") + " "
    assert " 404 " in _upgrade_status(ports[1], "/ws/play/friends/1/") + " "


def test_without_the_proxy_a_few_slow_clients_starve_gunicorn(ports: tuple[int, int]) -> None:
    # The failure the proxy is there for: the test server's gunicorn has 2 threads, and 3 clients
    # that never finish their request hold them, so a normal request is not answered.
    with ExitStack() as stack:
        hold_unfinished_requests(ports[1], 3, stack)
        with pytest.raises(httpx.ReadTimeout):
            httpx.get(f"http://127.0.0.1:{ports[1]}/accounts/login/", timeout=3)
    # once they are gone, gunicorn answers again
    assert httpx.get(f"http://127.0.0.1:{ports[1]}/accounts/login/", timeout=30).status_code == 200


def test_static_files_are_served_compressed_and_cached_for_good(proxied: httpx.Client) -> None:
    page = proxied.get("/accounts/login/").text
    css = re.search(r'href="(/static/css/[^"]+\.[0-9a-f]{12}\.css)"', page)
    assert css, "the page links its stylesheet by a hashed name"
    answer = proxied.get(css.group(1), headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["cache-control"] == "public, max-age=315360000, immutable"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "text/css" in answer.headers["content-type"]
    assert "{" in answer.text  # decompressed, it is the stylesheet


def test_an_unknown_static_file_is_the_sites_own_404(proxied: httpx.Client) -> None:
    answer = proxied.get("/static/css/no-such-file.css")
    assert answer.status_code == 404
    assert "nginx" not in answer.text  # the app's page, not the proxy's


def test_a_body_over_the_limit_is_refused_before_the_app(proxied: httpx.Client) -> None:
    answer = proxied.post(
        "/api/v1/validate/",
        content=b"1 x\n" * 700_000,  # 2.8 MB; the limit is 2 MB
        headers={"Content-Type": "text/plain"},
    )
    assert answer.status_code == 413


def test_the_app_counts_the_clients_address_not_one_it_forged(
    proxied: httpx.Client, data_dir: Path
) -> None:
    form = proxied.get("/accounts/login/")
    token = CSRF_FIELD.search(form.text)
    assert token
    failed = proxied.post(
        "/accounts/login/",
        data={"csrfmiddlewaretoken": token.group(1), "username": "nobody", "password": "wrong"},
        headers={"X-Forwarded-For": "203.0.113.7"},
    )
    assert failed.status_code == 200  # the form again, with its error
    with sqlite3.connect(data_dir / "deckwright.sqlite3") as database:
        addresses = {
            row[0]
            for row in database.execute(
                "SELECT ip_address FROM axes_accessattempt WHERE username = 'nobody'"
            )
        }
    # nginx appended the address it saw; TRUSTED_PROXY_COUNT=1 takes that one, not the forgery
    assert addresses == {"127.0.0.1"}


def test_the_site_configuration_is_accepted_by_nginx_with_and_without_tls(
    tmp_path: Path,
) -> None:
    certificate, key = tmp_path / "site.crt", tmp_path / "site.key"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=decks.example.org", "-keyout", str(key), "-out", str(certificate)),
        ],
        check=True,
        capture_output=True,
    )
    for site in (
        Site(listen=f"127.0.0.1:{free_port()}", static_root=tmp_path),
        Site(
            listen=f"127.0.0.1:{free_port()}",
            static_root=tmp_path,
            server_name="decks.example.org",
            tls_certificate=certificate,
            tls_key=key,
        ),
    ):
        server = ProxyServer(site, tmp_path / "run")
        server.check()  # raises with nginx's words if refused
        rendered = (tmp_path / "run" / "deckwright.conf").read_text()
        assert "{{" not in rendered.replace("{{...}}", "")
        proto = "https" if site.tls_certificate else "http"
        assert f"X-Forwarded-Proto {proto};" in rendered


def test_a_refused_configuration_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProxyError, match="nginx refused"):
        ProxyServer(Site(listen="127.0.0.1:8000", max_body="lots"), tmp_path).check()
    with pytest.raises(ProxyError, match="both a certificate and its key"):
        Site(tls_certificate=tmp_path / "only.crt").render()
