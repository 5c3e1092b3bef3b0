"""Playing against the AI in a real browser (issue 18, point 4): a whole Regality vs Religion
game against alpha-beta clicked through, and the first turns of a Revolt N Reign game against
greedy at phone width, the moves made with the keyboard. Screenshots go to
``test-artifacts/play-*.png``.

Uses the browser fixtures of ``tests/web/test_browser.py`` (skipped, saying why, without chromium).
"""

from __future__ import annotations

from rules.models import PlayedGame
from tests.web.browser import BROWSER_TESTS, expect, log_in, shot
from tests.web.test_matchup_runs import two_decks

pytestmark = BROWSER_TESTS


def _start(tab, game: str, deck: int, opponent: int, agent: str) -> None:
    tab.goto("/play/")
    tab.get_by_label("Game", exact=True).select_option(game)
    tab.get_by_role("button", name="Pick decks").click()
    tab.get_by_label("Your deck").select_option(str(deck))
    tab.get_by_label("The AI's deck").select_option(str(opponent))
    tab.get_by_label("AI", exact=True).select_option(agent)
    tab.get_by_role("button", name="Start the game").click()
    expect(tab.get_by_test_id("table")).to_be_visible()


def test_a_whole_regality_vs_religion_game_against_alpha_beta(page, user, password):
    a, b = two_decks(user, "regality-vs-religion")
    log_in(page, user, password)
    _start(page, "regality-vs-religion", a.pk, b.pk, "alphabeta")
    status = page.get_by_test_id("play-status")
    shot(page, "play-regality-vs-religion-start")
    for _ in range(60):  # a 3x3 board fills long before
        if "Game over" in status.inner_text():
            break
        expect(status).to_contain_text("Your move")
        version = PlayedGame.objects.get().version
        page.get_by_test_id("play-choice").first.click()
        page.wait_for_function(
            "v => !document.querySelector('[name=version]') || "
            "document.querySelector('[name=version]').value != v",
            arg=str(version),
        )
    expect(status).to_contain_text("Game over")
    shot(page, "play-regality-vs-religion-end")
    game = PlayedGame.objects.get()
    assert game.status == PlayedGame.Status.FINISHED and game.result in {"won", "lost", "draw"}
    # the finished game is listed and replays with every hand open
    page.get_by_role("link", name="Replay this game").click()
    expect(page.get_by_test_id("replay-result")).to_contain_text("Every hand is open")
    page.get_by_role("link", name="First step").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("Step 1 of")
    page.get_by_role("link", name="Next step").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("Step 2 of")


def test_first_turns_of_revolt_n_reign_against_greedy_on_a_phone(
    browser,
    live_server,
    user,
    password,
):
    a, b = two_decks(user, "revolt-n-reign")
    context = browser.new_context(base_url=live_server.url, viewport={"width": 375, "height": 740})
    phone = context.new_page()
    log_in(phone, user, password)
    _start(phone, "revolt-n-reign", a.pk, b.pk, "greedy")
    status = phone.get_by_test_id("play-status")
    for _ in range(6):
        expect(status).to_contain_text("Your move")
        version = PlayedGame.objects.get().version
        # the keyboard reaches every choice: focus the first one and press Enter
        phone.get_by_test_id("play-choice").first.focus()
        phone.keyboard.press("Enter")
        phone.wait_for_function(
            "v => document.querySelector('[name=version]') && "
            "document.querySelector('[name=version]').value != v",
            arg=str(version),
        )
    assert PlayedGame.objects.get().version == 6
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375 + 1, width
    # the rival's hand is backs on the player's page
    rival = phone.get_by_test_id("table-seat").nth(1)
    expect(rival.get_by_role("img", name="A face-down card").first).to_be_visible()
    shot(phone, "play-revolt-n-reign-phone")
    context.close()


def test_the_ais_deck_list_follows_your_deck_in_regality_vs_religion(page, user, password):
    # given the demo set's Regality vs Religion decks
    from decks.demo import demo_load
    from decks.models import Deck
    from tests.decks.conftest import SAMPLES_DIR

    demo_load(samples_dir=SAMPLES_DIR)
    rvr = Deck.objects.filter(game__slug="regality-vs-religion").order_by("name")
    log_in(page, user, password)
    page.goto("/play/?game=regality-vs-religion")
    yours, theirs = page.get_by_label("Your deck"), page.get_by_label("The AI's deck")
    for deck in rvr:
        # when the player picks a deck
        yours.select_option(str(deck.pk))
        # then the AI's list offers exactly the decks of the other alignment in its variant
        offered = theirs.evaluate(
            "s => Array.from(s.options).filter(o => !o.disabled && !o.hidden).map(o => o.text)"
        )
        side = {card.card.branch.slug for card in deck.cards.select_related("card__branch")}
        other = "religion" if "regality" in side else "regality"
        expected = [
            f"{d.name} ({d.variant})"
            for d in rvr
            if d.variant == deck.variant and d.cards.filter(card__branch__slug=other).exists()
        ]
        assert offered == expected, deck.name
        assert theirs.evaluate("s => s.options[s.selectedIndex].text") in expected
        # and where the variant hides tiles, no AI that needs the whole board is offered
        agents = page.get_by_label("AI", exact=True).evaluate(
            "s => Array.from(s.options).filter(o => !o.disabled).map(o => o.value)"
        )
        secret = deck.variant.startswith("secret")
        assert ("alphabeta" in agents, "hard" in agents) == (not secret, not secret), deck.name
        note = page.get_by_test_id("play-agent-open")
        expect(note).to_be_visible() if secret else expect(note).to_be_hidden()
    shot(page, "play-regality-vs-religion-pairs")
    # and the pair picked starts a game
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_test_id("table")).to_be_visible()
