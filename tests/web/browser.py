"""What every browser test shares: Debian's chromium, the marks that skip without it, where
screenshots go, and the steps many tests take (log in, create a deck).

The fixtures (``browser``, ``page``, and the game data a live-server test needs back after the
previous one flushed the database) are in ``tests/web/conftest.py``. A browser test module sets
``pytestmark = BROWSER_TESTS`` and imports the helpers it uses from here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.web.conftest import RNR

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(settings.BASE_DIR) / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000

BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="browser tests need Debian's chromium at /usr/bin/chromium "
        "(`make browser` or `apt-get install chromium`)",
    ),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = sync_api.expect


def shot(page, name: str) -> None:
    """Save a full-page screenshot as ``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def log_in(page, user, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My decks")


def create_deck(page, name: str, decklist: str = "") -> None:
    page.goto("/decks/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Game", exact=True).select_option(RNR)
    page.locator("#id_format").select_option(label="Standard")
    if decklist:
        page.get_by_label("Start from a decklist (optional)").fill(decklist)
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def verdict(page):
    return page.get_by_test_id("verdict")
