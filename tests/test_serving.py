"""The production setup answers as a deployment would: DEBUG=0, collected static files, gunicorn.

One gunicorn (``deckwright/gunicorn.conf.py``) per module, on a free loopback port, serving a
temporary data directory filled by ``collectstatic``; the tests speak HTTP to it. No request here
needs the database, so none is created.
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from common.proxy import free_port, local_production_env, prepare_data_dir

ROOT = Path(__file__).resolve().parent.parent
TEN_YEARS = 315_360_000  # WhiteNoise's max-age for files whose name carries their content hash
HASHED = re.compile(r"\.[0-9a-f]{12}\.(css|js|png)$")
STATIC_URL = re.compile(r"""(?:src|href)="(/static/[^"]+)\"""")
GC_FREEZE_AFTER = 3  # requests before a worker freezes its objects again (production: 200)


def production_env(data_dir: Path) -> dict[str, str]:
    """The environment of a production server on plain HTTP (what `make serve` sets), small."""
    return {
        **local_production_env(data_dir, secrets.token_urlsafe(50)),
        "WEB_CONCURRENCY": "1",
        "GUNICORN_THREADS": "2",
        "GUNICORN_GC_FREEZE_AFTER": str(GC_FREEZE_AFTER),
    }


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("production")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[httpx.Client]:
    env = production_env(data_dir)
    prepare_data_dir(env)
    port = free_port()
    bind = f"127.0.0.1:{port}"
    log = (data_dir / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deckwright/gunicorn.conf.py", "--bind", bind],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    try:
        for _ in range(300):
            if process.poll() is not None:
                pytest.fail(f"gunicorn exited: {(data_dir / 'gunicorn.log').read_text()}")
            try:
                client.get("/static/missing.css")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield client
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _assets(html: str) -> list[str]:
    return STATIC_URL.findall(html)


def _assert_served_for_good(client: httpx.Client, url: str) -> httpx.Response:
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200, url
    assert HASHED.search(url), f"{url} has no content hash in its name"
    cache = response.headers["Cache-Control"]
    assert f"max-age={TEN_YEARS}" in cache and "immutable" in cache, (url, cache)
    return response


def test_site_css_js_and_htmx_are_hashed_compressed_and_cached_for_good(server) -> None:
    page = server.get("/no-such-page/")  # the branded 404 page carries the site's assets
    assets = _assets(page.text)
    names = {re.sub(r"\.[0-9a-f]{12}\.", ".", url.rsplit("/", 1)[1]) for url in assets}
    assert {"deckwright.css", "deckwright.js"} <= names
    assert any(name.startswith("htmx") for name in names), names

    for url in assets:
        response = _assert_served_for_good(server, url)
        assert response.headers["Content-Encoding"] == "gzip", url
        kind = "text/css" if url.endswith(".css") else "text/javascript"
        assert response.headers["Content-Type"].startswith(kind), url
    css = server.get(next(url for url in assets if url.endswith(".css")))
    assert ":root" in css.text  # httpx undid the gzip: the real stylesheet


@pytest.mark.parametrize("page", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_api_docs_pages_load_their_assets_from_this_server(server, page: str) -> None:
    response = server.get(page)
    assert response.status_code == 200
    assets = _assets(response.text) + re.findall(r'<script src="(/static/[^"]+)"', response.text)
    assert any("drf_spectacular_sidecar" in url for url in assets), assets
    for url in set(assets):
        _assert_served_for_good(server, url)
    other_hosts = re.findall(r"https?://[^\s\"'<>)]+", response.text)
    assert other_hosts == [], f"{page} names other hosts: {other_hosts}"


def test_unknown_static_file_is_a_404(server) -> None:
    assert server.get("/static/css/no-such-file.css").status_code == 404


def test_pages_and_api_answer_404s_in_their_own_shape(server) -> None:
    page = server.get("/no-such-page/")
    assert page.status_code == 404
    assert "Page not found" in page.text and 'action="/cards/"' in page.text
    assert "Django" not in page.text  # not the framework's bare page

    api = server.get("/api/v1/no-such-thing/")
    assert api.status_code == 404
    assert api.headers["Content-Type"] == "application/problem+json"
    assert api.json()["code"] == "not-found"


def test_security_headers_are_sent(server) -> None:
    response = server.get("/no-such-page/")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
@pytest.mark.parametrize(
    ("page", "rendered"),
    [
        ("/api/v1/docs/", ".swagger-ui .info .title"),
        ("/api/v1/redoc/", "h1"),
        ("/api/v1/redoc/", "text=API docs by Redocly"),  # the sidebar foot: Redocly's logo
    ],
)
def test_api_docs_render_in_a_browser_asking_no_other_host(server, page, rendered) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    base = str(server.base_url).rstrip("/")
    elsewhere: list[str] = []  # requests that left the browser for another host

    def only_this_server(route) -> None:
        url = route.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            tab = browser.new_page()
            tab.route("**/*", only_this_server)
            tab.goto(base + page)
            shown = tab.locator(rendered).first
            sync_api.expect(shown).to_be_visible(timeout=30_000)
            if not rendered.startswith("text="):
                sync_api.expect(shown).to_contain_text("Deckwright API")
            tab.wait_for_load_state("networkidle")
        finally:
            browser.close()
    assert elsewhere == [], f"{page} asked other hosts for {elsewhere}"


def test_the_worker_freezes_its_loaded_objects_then_again_after_its_first_requests(
    server, data_dir
) -> None:
    # deckwright/gunicorn.conf.py: a full collection no longer walks the app's own objects
    for _ in range(GC_FREEZE_AFTER):
        assert server.get("/static/missing.css").status_code == 404
    log_path = data_dir / "gunicorn.log"
    for _ in range(100):  # the hook runs once the response is sent
        log = log_path.read_text()
        if "after" in log and "froze" in log:
            break
        time.sleep(0.1)
    loaded = re.search(r"froze (\d+) objects of the loaded app", log)
    served = re.search(rf"froze (\d+) objects after {GC_FREEZE_AFTER} requests", log)
    assert loaded and served, log
    assert int(loaded[1]) > 10_000  # Django, the apps and their modules
    assert int(served[1]) > int(loaded[1])
    assert log.count("froze") == 2  # once each: not on every request after the third
