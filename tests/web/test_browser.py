"""The pages in a real browser: Debian's chromium driven by Playwright against ``live_server``.

Each test saves a screenshot of the page it checks under ``test-artifacts/``. Without
``/usr/bin/chromium`` (``make test`` installs it) the tests skip and say why.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from decks.validation import validate
from tests.web.browser import (
    ARTIFACTS,
    BROWSER_TESTS,
    TIMEOUT_MS,
    create_deck,
    expect,
    log_in,
    shot,
    verdict,
)
from tests.web.conftest import RNR, sample

pytestmark = BROWSER_TESTS


def test_search_cards_and_open_one(page):
    page.goto("/cards/")
    shot(page, "card-browser")
    search = page.get_by_label("Search", exact=True)
    search.fill("t:attack (b:eagle")
    search.press("Enter")
    error = page.get_by_test_id("query-error")
    expect(error).to_contain_text("column 18")
    expect(search).to_have_value("t:attack (b:eagle")  # nothing typed is lost
    shot(page, "card-browser-error")
    search.fill("t:attack b:eagle")
    search.press("Enter")
    expect(error).to_have_count(0)  # the new results have loaded (no click on the old page)
    expect(page.get_by_test_id("result-count")).to_have_text(re.compile(r"^[1-9][0-9]* cards"))
    page.get_by_role("link", name=re.compile(r"Eagle Dive")).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Eagle Dive")
    expect(page.get_by_test_id("formats")).to_contain_text("Standard")
    expect(page.get_by_role("img", name=re.compile("Card face of Eagle Dive"))).to_be_visible()
    shot(page, "card-detail")


def test_choosing_a_game_brings_its_own_filters(page):
    page.goto("/cards/")
    page.get_by_label("Game").select_option(label="Reign Absolute: Umbrous Edition")
    # the filters follow at once (htmx), under the game's own word for a branch
    faction = page.get_by_label("Faction")
    expect(faction).to_be_visible()
    expect(faction.locator("option")).to_have_text(
        ["Any faction", "Empire", "Elves", "Azuma", "Umbrous"]
    )
    expect(page.get_by_label("Rarity")).to_have_count(0)  # the game has no rarities
    expect(page).to_have_url(re.compile(r"game=reign-absolute"))
    expect(page.locator("#q-help")).to_contain_text("faction:elves t:unit")
    faction.select_option(label="Elves")
    expect(page.get_by_test_id("result-count")).to_have_text("6 cards")
    expect(page.get_by_role("link", name=re.compile("Elves Oak Queen"))).to_be_visible()
    shot(page, "card-browser-game-filters")


def test_an_example_of_the_query_help_opens_its_cards(page):
    page.goto("/help/query-language/")
    shot(page, "query-help")
    reggae = page.locator('section[data-game="reggae-revolution"]')
    expect(reggae.get_by_role("rowheader", name="Colour")).to_be_visible()
    reggae.get_by_role("link", name="colour:red t:main").click()
    expect(page.get_by_label("Search", exact=True)).to_have_value("colour:red t:main")
    expect(page.get_by_label("Game")).to_have_value("reggae-revolution")
    expect(page.get_by_label("Colour")).to_be_visible()
    expect(page.get_by_test_id("result-count")).to_have_text("12 cards")


def test_card_browser_on_a_phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 375, "height": 740})
    phone = context.new_page()
    phone.goto("/cards/?view=list&game=revolt-n-reign")
    width = phone.evaluate("document.documentElement.scrollWidth")
    wide = phone.evaluate(
        "Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 375).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8)"
    )
    shot(phone, "card-browser-phone")
    context.close()
    assert width <= 375, f"the card list must not scroll sideways on a phone: {wide}"


def test_sign_up(page):
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Email").fill("carol@example.com")
    page.get_by_label("Password", exact=True).fill("a-long-test-passphrase-42")
    page.get_by_label("Password confirmation").fill("a-long-test-passphrase-42")
    shot(page, "signup")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My decks")
    expect(page.get_by_role("button", name="Log out carol")).to_be_visible()
    shot(page, "my-decks")


def _without_line(decklist: str, line: str) -> str:
    lines = decklist.splitlines()
    lines.remove(line)
    return "\n".join(lines) + "\n"


def _query_name(url: str) -> str | None:
    """The ``name`` a card-suggestion request asked for (None for any other request)."""
    parts = urlsplit(url)
    if "suggest" not in parts.path:
        return None
    return parse_qs(parts.query).get("name", [None])[0]


def test_build_a_legal_revolt_n_reign_deck_then_break_the_rights_cap(page, user, password):
    log_in(page, user, password)
    create_deck(page, "Scroll Petitions")
    expect(verdict(page)).to_contain_text("Not legal")

    # Paste a legal sample without one of its Pillars: 59 cards.
    decklist = _without_line(sample(RNR, "legal-scroll-petitions"), "1 County Clerk's Office")
    page.get_by_text("Paste or import a decklist").click()
    page.get_by_label("Decklist", exact=True).fill(decklist)
    page.get_by_role("button", name="Import").click()
    # the empty deck was not legal either (two problems): wait for the imported list's verdict
    expect(verdict(page)).to_have_text("Not legal: 1 problem.")
    expect(page.locator('#validation-panel li[data-code="deck-size"]')).to_be_visible()

    # A name that is no card is refused inline, and the box keeps what was typed.
    box = page.get_by_role("combobox", name="Card name")
    box.fill("Zzqx Nothing")
    # Enter once the suggestions have answered (on a loaded machine they can come after a key)
    expect(page.get_by_role("listbox", name="Matching cards")).to_contain_text("No card name")
    box.press("Enter")
    expect(page.get_by_test_id("deck-errors")).to_contain_text("is not a Revolt N Reign card")
    expect(box).to_have_value("Zzqx Nothing")
    box.fill("")

    # Add the missing Pillar from the keyboard: type, arrow down, Enter. The typing's last
    # answer (the whole name typed) is in before the list is redrawn below, or on a loaded machine
    # it could land after that redraw and replace it
    with page.expect_response(lambda r: _query_name(r.url) == "county cle"):
        box.press_sequentially("county cle", delay=30)
    option = page.get_by_role("option", name="County Clerk's Office")
    expect(option).to_be_visible()
    box.press("ArrowDown")
    expect(option).to_have_attribute("aria-selected", "true")
    # an answer that comes after the arrow key (typing outran the server) redraws the list: the
    # card picked stays picked
    page.evaluate(
        """() => htmx.ajax("GET", document.getElementById("card-name").getAttribute("hx-get"),
                           {target: "#card-suggestions", values: {name: "count"}})"""
    )
    expect(page.get_by_role("option", name="Backcountry Uprising")).to_be_visible()
    expect(option).to_have_attribute("aria-selected", "true")
    box.press("Enter")
    expect(verdict(page)).to_contain_text("Legal: 60 cards")
    expect(page.locator("#deck-status")).to_contain_text("Legal")
    expect(box).to_have_value("")  # ready for the next card
    shot(page, "deck-builder-legal")

    # A 13th Rights card breaks the rights cap (and the deck size).
    box.press_sequentially("right of inq", delay=30)
    expect(page.get_by_role("option", name="Right of Inquiry")).to_be_visible()
    box.press("ArrowDown")
    box.press("Enter")
    rights = page.locator('#validation-panel li[data-code="rights-cap"]')
    expect(rights).to_contain_text("13 Rights cards")
    expect(rights).to_contain_text("Rule: Rights Cards")
    shot(page, "deck-builder-rights-cap")

    # Remove it again with its row's button: legal once more.
    page.get_by_role("button", name="Remove Right of Inquiry").click()
    expect(verdict(page)).to_contain_text("Legal: 60 cards")


ILLEGAL = """# game: revolt-n-reign
# name: Everything Wrong
[Unconstitutional Act]
1 Stamp Act
1 Sugar Act
[Attack]
3 Eagle Dive
1 Eagel Strike
[Pillar]
6 Harbor Customs House
"""


ILLEGAL_KNOWN_CARDS = """# game: revolt-n-reign
[Unconstitutional Act]
1 Stamp Act
1 Sugar Act
[Attack]
3 Eagle Dive
3 Talon Strike
[Rights]
2 Right to Counsel
[Pillar]
6 Harbor Customs House
"""
ILLEGAL_KNOWN_CARDS_ENTRIES = {
    "Stamp Act": 1,
    "Sugar Act": 1,
    "Eagle Dive": 3,
    "Talon Strike": 3,
    "Right to Counsel": 2,
    "Harbor Customs House": 6,
}


def test_import_an_illegal_decklist_and_see_every_violation(page, user, password):
    log_in(page, user, password)
    # A name that is no card is refused at import, inline, with a suggestion and the text kept.
    page.goto("/decks/new/")
    page.get_by_label("Name").fill("Everything Wrong")
    page.get_by_label("Start from a decklist (optional)").fill(ILLEGAL)
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_role("alert").first).to_contain_text("Eagel Strike")
    expect(page.get_by_label("Start from a decklist (optional)")).to_have_value(ILLEGAL)
    # Real cards breaking many rules import, and the panel lists every violation.
    create_deck(page, "Everything Wrong", ILLEGAL_KNOWN_CARDS)
    report = validate(RNR, ILLEGAL_KNOWN_CARDS_ENTRIES, format="standard")
    assert {"deck-size", "ua-count", "copy-limit", "rights-cap"} - set(report.codes) == {
        "rights-cap"
    }
    items = page.locator("#validation-panel ul.violations > li")
    expect(items).to_have_count(len(report.violations))
    for violation in report.violations:
        expect(items.filter(has_text=violation.message)).to_have_count(1)
        expect(items.filter(has_text=violation.message)).to_have_attribute(
            "data-code", violation.code
        )
    shot(page, "deck-builder-illegal")


def test_tournament_batch_and_csv_download(page):
    page.goto("/tournament/")
    page.get_by_label("Format").select_option(label="Standard")
    batch = "\n---\n".join(
        [sample(RNR, "legal-eagle-control"), sample(RNR, "illegal-rights-cap"), ILLEGAL]
    )
    page.get_by_label("Paste decklists").fill(batch)
    page.get_by_role("button", name="Check decklists").click()
    expect(page.get_by_test_id("summary")).to_contain_text("3 decks: 1 legal, 2 illegal")
    rows = page.locator(".results-table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_contain_text("Rights cap")
    expect(rows.nth(2).locator('li[data-code="unknown-card"]')).to_contain_text("Eagel Strike")
    shot(page, "tournament-check")
    with page.expect_download() as download_info:
        page.get_by_test_id("csv-link").click()
    download = download_info.value
    body = Path(download.path()).read_text(encoding="utf-8")
    assert body.splitlines()[0] == "deck,verdict,card_count,code,message,rule,cards,judged_on"
    assert "rights-cap" in body
    assert ",legal," in body
    assert download.suggested_filename.startswith("legality-revolt-n-reign-standard-")


def test_deck_builder_transfer_with_a_60_card_deck(page, user, password):
    from tests.web.conftest import make_deck

    deck = make_deck(user)
    log_in(page, user, password)
    sizes: dict[str, int] = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body())))
    started = time.perf_counter()
    page.goto(f"/decks/{deck.pk}/", wait_until="load")
    loaded = time.perf_counter() - started
    expect(verdict(page)).to_contain_text("Legal: 60 cards")
    shot(page, "deck-builder-60")
    total = sum(sizes.values())
    lines = [f"{size:>8} {url.split('/', 3)[-1]}" for url, size in sorted(sizes.items())]
    (ARTIFACTS / "page-weight-browser.txt").write_text(
        f"deck builder, 60-card deck: {len(sizes)} responses, {total} bytes, "
        f"load event after {loaded * 1000:.0f} ms\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    assert total < 250_000
    # The same page on a phone: one column, nothing wider than the screen.
    page.set_viewport_size({"width": 375, "height": 740})
    shot(page, "deck-builder-phone")
    wide = page.evaluate(
        "Array.from(document.querySelectorAll('body *'))"
        ".filter(e => e.getBoundingClientRect().right > 376)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 6)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, wide


def test_test_hands_draw_keep_step_and_deal_many(page, user, password):
    from tests.web.conftest import make_deck

    deck = make_deck(user)
    log_in(page, user, password)
    page.goto(f"/decks/{deck.pk}/")
    page.get_by_role("link", name="test hands").click()
    expect(page.get_by_test_id("hand").locator("li")).to_have_count(7)
    page.get_by_role("link", name="Mulligan", exact=True).click()
    expect(page.get_by_role("heading", level=2).first).to_contain_text("after 1 mulligan")
    page.get_by_role("link", name="Keep", exact=True).click()
    page.get_by_role("link", name="Play turn 1").click()
    expect(page.get_by_role("heading", level=2).first).to_have_text(re.compile("After your turn 1"))
    expect(page.locator(".event-log li").first).to_be_visible()
    page.get_by_label("Hands to deal").fill("30")
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_test_id("summary")).to_contain_text("30")
    shot(page, "test-hands")


def test_test_hands_place_and_play_a_reign_absolute_faction(page, user, password):
    from tests.web.conftest import make_deck

    deck = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Grove")
    log_in(page, user, password)
    page.goto(f"/decks/{deck.pk}/")
    page.get_by_role("link", name="test hands").click()
    expect(page.get_by_test_id("not-available")).to_have_count(0)
    expect(page.get_by_role("heading", name="The deal")).to_be_visible()
    expect(page.get_by_role("heading", name="Placement order (11)")).to_be_visible()
    expect(page.get_by_role("link", name="Mulligan", exact=True)).to_have_count(0)
    page.get_by_role("link", name="Place the units").click()
    expect(page.get_by_role("heading", level=2).first).to_have_text("Units placed")
    expect(page.get_by_role("heading", name="Your units (11)")).to_be_visible()
    page.get_by_role("link", name="Play turn 1").click()
    expect(page.get_by_role("heading", level=2).first).to_have_text(re.compile("After your turn 1"))
    expect(page.locator(".event-log li").first).to_be_visible()
    # The figures form works from the keyboard: type the number, press Enter.
    hands = page.get_by_label("Hands to deal")
    hands.fill("12")
    hands.press("Enter")
    summary = page.get_by_test_id("summary")
    expect(summary).to_contain_text("Liege among your first 3 units placed")
    expect(page.get_by_role("table", name="How the games ended")).to_contain_text(
        "won: the last Liege Unit in play"
    )
    shot(page, "test-hands-reign-absolute")


def test_the_matchup_form_offers_the_agents_of_deck_as_game(page, user, password):
    from tests.web.conftest import make_deck

    make_deck(user, name="Eagles")
    make_deck(user, game="reggae-revolution", sample_name="legal-starting-deck", name="Starters")
    log_in(page, user, password)
    page.goto("/matchups/")
    agent = page.get_by_label("Deck A played by")
    # a Reggae Revolution deck: its team policy is chosen, alpha-beta (not its agent) hidden
    page.get_by_label("Deck A", exact=True).select_option(
        label="Starters (Reggae Revolution, alice)"
    )
    expect(agent).to_have_value("team")
    expect(agent.locator("option[value=alphabeta]")).to_be_disabled()
    # a Revolt N Reign deck: its own default, and no team policy
    page.get_by_label("Deck A", exact=True).select_option(label="Eagles (Revolt N Reign, alice)")
    expect(agent).to_have_value("plan")
    expect(agent.locator("option[value=team]")).to_be_disabled()
    expect(agent.locator("option[value=plan]")).to_be_enabled()


def test_matchup_with_progress_results_and_replay(page, user, password):
    from tests.web.conftest import make_deck

    make_deck(user, name="Eagles")
    make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    log_in(page, user, password)
    page.get_by_role("link", name="Matchups").click()
    page.get_by_label("Deck A", exact=True).select_option(label="Eagles (Revolt N Reign, alice)")
    page.get_by_label("Deck B", exact=True).select_option(label="Bisons (Revolt N Reign, alice)")
    # the form offers the game's best agent (turn plans, seconds a game): random plays faster
    page.get_by_label("Deck A played by").select_option("random")
    page.get_by_label("Deck B played by").select_option("random")
    page.get_by_label("Games").fill("30")
    page.get_by_role("button", name="Play the matchup").click()
    expect(page.get_by_test_id("matchup-results")).to_contain_text("Results of 30 games")
    expect(page.get_by_test_id("progress")).to_have_count(0)
    expect(page.get_by_test_id("win-rate")).to_have_count(2)
    expect(page.get_by_role("img", name=re.compile("Game length"))).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("How games ended"))).to_be_visible()
    games = page.get_by_test_id("matchup-games")
    expect(games.get_by_role("link", name=re.compile(r"^Replay game \d+$"))).to_have_count(25)
    expect(games).to_contain_text(re.compile(r"Games 1\W25 of 30"))
    shot(page, "matchup-results")
    games.get_by_role("link", name="Next games →").click()
    page.get_by_role("link", name="Replay game 27").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game 27 of Eagles vs Bisons")
    step = page.get_by_test_id("replay-step")
    expect(step).to_contain_text("Step 1 of")
    page.get_by_role("link", name="Next step").click()
    expect(step).to_contain_text("Step 2 of")
    # the arrow keys are the page's deferred script's: the heading shows before that script runs
    page.wait_for_load_state("domcontentloaded")
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("Step 3 of")
    page.get_by_label(re.compile("Go to step")).fill("1")
    page.get_by_role("button", name="Go").click()
    expect(step).to_contain_text("Step 1 of")
    expect(page.locator("[aria-current=step]")).to_have_count(1)
    shot(page, "matchup-replay")
    # each step is a turn whose log says what happened in words; a card it names opens the
    # card's page
    page.get_by_label(re.compile("Go to step")).fill("2")
    page.get_by_role("button", name="Go").click()
    expect(step).to_contain_text(re.compile(r"Step 2 of \d+: Turn 1: (Eagles|Bisons)"))
    log = page.get_by_test_id("replay-log")
    for _ in range(20):
        expect(log).not_to_contain_text("_")
        if log.locator("a").count():
            break
        page.get_by_role("link", name="Next step").click()
    card = log.locator("a").first
    name = card.inner_text()
    card.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    page.go_back()
    # on a phone the replay, the results with the list of games and the form fit the screen
    page.set_viewport_size({"width": 375, "height": 740})
    for url in (page.url, page.url.split("games/")[0], "/matchups/"):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{url} scrolls sideways on a phone ({width}px)"
    expect(page.get_by_test_id("recent-runs")).to_contain_text("Eagles vs Bisons")
    shot(page, "matchup-new-phone")


def test_two_tabs_on_one_deck_lose_nothing(browser, live_server, user, password):
    """Tab B still shows version 1 when tab A adds a copy: B's "+" counts on top of A's and B is
    told; B's "remove" (an overwrite) is refused with A's change shown, and works once B has
    seen the current list."""
    from tests.web.conftest import make_deck

    deck = make_deck(user, name="Two Tabs")
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        tab_a = context.new_page()
        log_in(tab_a, user, password)
        tab_b = context.new_page()
        for tab in (tab_a, tab_b):
            tab.goto(f"/decks/{deck.pk}/")
        line = "li:has(a:text-is('Eagle Dive')) [data-testid=qty]"
        before = int(tab_a.locator(line).inner_text())

        tab_a.get_by_role("button", name="One more Eagle Dive").click()
        expect(tab_a.locator(line)).to_have_text(str(before + 1))

        tab_b.get_by_role("button", name="One more Eagle Dive").click()
        expect(tab_b.locator(line)).to_have_text(str(before + 2))
        expect(tab_b.get_by_test_id("deck-notice")).to_contain_text("changed since you opened it")

        tab_a.get_by_role("button", name="One fewer Eagle Dive").click()
        # A's count reads before + 1 both before and after this answer, so wait for the answer
        # itself: A's "-" landed on top of B's save, and A is told so.
        expect(tab_a.get_by_test_id("deck-notice")).to_contain_text("changed since you opened it")
        expect(tab_a.locator(line)).to_have_text(str(before + 1))

        tab_b.get_by_role("button", name="Remove Eagle Dive").click()
        conflict = tab_b.get_by_test_id("deck-conflict")
        expect(conflict).to_contain_text("This deck changed since you opened it.")
        expect(conflict).to_contain_text("Nothing was changed")
        expect(tab_b.locator(line)).to_have_text(str(before + 1))  # the current list
        shot(tab_b, "deck-builder-conflict")

        tab_b.get_by_role("button", name="Remove Eagle Dive").click()
        expect(tab_b.locator(line)).to_have_count(0)
        expect(tab_b.get_by_test_id("deck-conflict")).to_have_count(0)
    finally:
        context.close()
