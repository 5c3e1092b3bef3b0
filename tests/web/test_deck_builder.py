"""The deck builder's list (images, numbers, grouping, sorting, offending cards), folded versions
and revert, the legality date and the draw odds calculator."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from decks.models import DeckVersion
from decks.services import deck_card_add
from decks.stats import hypergeometric_at_least
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _rows(body: str) -> list[str]:
    """The card names of the list's rows, in page order."""
    return re.findall(r'<li class="deck-row[^"]*" data-card="([^"]+)"', body)


def _sections(body: str) -> list[str]:
    return re.findall(r"<h3>([^<]+?) <span class=\"muted\">", body)


def test_each_row_has_a_thumbnail_a_full_preview_and_the_printed_numbers(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    row = re.search(r'<li class="deck-row" data-card="Eagle Dive">(.*?)</li>', body, re.S)
    assert row is not None
    html = row.group(1)
    assert re.search(
        r'class="card-thumb" src="/cards/revolt-n-reign/eagle-dive\.\w+\.icon\.png"', html
    )
    assert re.search(
        r'class="card-preview" role="tooltip" id="([^"]+)"><img src="/cards/revolt-n-reign/eagle-dive\.\w+\.png"',
        html,
    )
    preview_id = re.search(r'class="card-preview" role="tooltip" id="([^"]+)"', html).group(1)
    assert f'aria-describedby="{preview_id}"' in html  # the name announces its preview
    card = legal_deck.cards.get(card__name="Eagle Dive").card
    assert f'data-number="cost"><span class="number-label">IP cost</span> {card.cost}<' in html


def test_group_by_cost_and_sort_by_cost_are_kept_in_the_url(alice, legal_deck):
    url = reverse("deck-detail", args=[legal_deck.pk])
    body = alice.get(url, {"group": "cost", "sort": "name"}).content.decode()
    costs = {c.card.cost for c in legal_deck.cards.select_related("card")}
    titles = _sections(body)
    assert titles == [f"IP cost {c}" for c in sorted(c for c in costs if c is not None)] + (
        ["No cost"] if None in costs else []
    )
    by_type = _sections(alice.get(url).content.decode())
    assert by_type[:2] == ["Unconstitutional Act", "Pillar"]

    body = alice.get(url, {"sort": "cost"}).content.decode()
    names = _rows(body)
    cards = {c.card.name: c.card.cost for c in legal_deck.cards.select_related("card")}
    attack = [n for n in names if n in {"Eagle Dive", "Talon Strike", "Privateer Raid"}]
    assert attack == sorted(attack, key=lambda n: (cards[n], n.casefold()))
    # the choices are in the form, so a change keeps them (the +/- forms carry them too)
    assert 'name="sort" value="cost"' in body


def test_a_change_keeps_the_grouping_when_it_redirects(alice, legal_deck):
    response = alice.post(
        reverse("deck-card-set", args=[legal_deck.pk]),
        {"card": "Eagle Dive", "change": "1", "group": "branch", "sort": "cost"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith("?group=branch&sort=cost")


def test_an_unknown_grouping_is_a_400_with_the_reason(alice, legal_deck):
    response = alice.get(reverse("deck-detail", args=[legal_deck.pk]), {"group": "colour"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_offending_cards_carry_the_violation_in_their_row(alice, user):
    deck = make_deck(user, name="Banned", sample_name="illegal-banned")
    body = alice.get(
        reverse("deck-detail", args=[deck.pk]), {"as_of": "2026-10-01"}
    ).content.decode()
    row = re.search(
        r'<li class="deck-row offending" data-card="Writs of Assistance">(.*?)</li>', body, re.S
    )
    assert row is not None
    assert "banned" in row.group(1).lower()
    assert 'data-card="Molasses Act"' in body
    assert '<li class="deck-row offending" data-card="Molasses Act">' not in body


def test_the_legality_date_judges_the_deck_by_that_day_lists(alice, user):
    deck = make_deck(user, name="Banned", sample_name="illegal-banned")
    url = reverse("deck-detail", args=[deck.pk])
    later = alice.get(url, {"as_of": "2026-10-01"}).content.decode()
    before_ban = alice.get(url, {"as_of": "2026-05-15"}).content.decode()
    assert "Writs of Assistance" in re.search(
        r'<ul class="violations">(.*?)</ul>', later, re.S
    ).group(1)
    violations = re.search(r'<ul class="violations">(.*?)</ul>', before_ban, re.S)
    assert violations is None or "Writs of Assistance" not in violations.group(1)
    assert 'value="2026-05-15"' in before_ban
    # the live panel answers for the same day
    panel = alice.get(reverse("deck-workspace", args=[deck.pk]), {"as_of": "2026-05-15"}, **HX)
    assert "offending" not in re.search(
        r'data-card="Writs of Assistance"', panel.content.decode()
    ).group(0)
    bad = alice.get(url, {"as_of": "2026-13-01"})
    assert bad.status_code == 400
    assert "Enter a valid date" in bad.content.decode()


def test_quick_clicks_by_the_same_user_fold_into_one_version(alice, legal_deck, settings):
    settings.DECK_VERSION_FOLD_SECONDS = 60
    url = reverse("deck-card-set", args=[legal_deck.pk])
    start = legal_deck.version

    def click(card: str, change: str) -> None:
        legal_deck.refresh_from_db()  # each click is made from the page the last one showed
        data = {"card": card, "change": change, "version": legal_deck.version}
        assert alice.post(url, data, **HX).status_code == 200

    for change in ("1", "1", "-1", "1"):
        click("Eagle Dive", change)
    legal_deck.refresh_from_db()
    assert legal_deck.version == start + 1
    latest = legal_deck.versions.get(number=start + 1)
    assert latest.note == "Eagle Dive: 2 -> 4"
    assert {e["name"]: e["quantity"] for e in latest.entries}["Eagle Dive"] == 4
    # a set count, a click after it and a click after the window each make a new version
    alice.post(url, {"card": "Eagle Dive", "quantity": "2"}, **HX)
    click("Talon Strike", "1")
    legal_deck.refresh_from_db()
    assert legal_deck.version == start + 3
    DeckVersion.objects.filter(deck=legal_deck, number=start + 3).update(
        saved_at=timezone.now() - dt.timedelta(seconds=61)
    )
    click("Talon Strike", "1")
    legal_deck.refresh_from_db()
    assert legal_deck.version == start + 4
    # a click from a page showing an older version (another tab) is not folded: it is told
    stale = alice.post(url, {"card": "Talon Strike", "change": "1", "version": start + 3}, **HX)
    assert "changed since you opened it" in stale.content.decode()
    legal_deck.refresh_from_db()
    assert legal_deck.version == start + 5


def test_clicks_do_not_fold_into_another_users_or_when_folding_is_off(user, legal_deck, settings):
    settings.DECK_VERSION_FOLD_SECONDS = 60
    start = legal_deck.version
    deck = deck_card_add(deck=legal_deck, card="Eagle Dive", actor=None, fold_onto=start)
    deck = deck_card_add(deck=deck, card="Eagle Dive", actor=user, fold_onto=deck.version)
    assert deck.version == start + 2  # the system's change is never folded into
    deck = deck_card_add(deck=deck, card="Eagle Dive", actor=user)
    assert deck.version == start + 3  # an add not made from the builder's buttons
    settings.DECK_VERSION_FOLD_SECONDS = 0
    deck = deck_card_add(deck=deck, card="Eagle Dive", actor=user, fold_onto=deck.version)
    deck = deck_card_add(deck=deck, card="Eagle Dive", actor=user, fold_onto=deck.version)
    assert deck.version == start + 5


def test_revert_to_an_old_version_from_the_versions_page(alice, legal_deck):
    original = {
        (e["name"], e["zone"]): e["quantity"] for e in legal_deck.versions.get(number=1).entries
    }
    set_url = reverse("deck-card-set", args=[legal_deck.pk])
    alice.post(set_url, {"card": "Eagle Dive", "quantity": "0"}, **HX)
    alice.post(set_url, {"card": "Talon Strike", "quantity": "4"}, **HX)
    legal_deck.refresh_from_db()
    page = alice.get(reverse("deck-versions", args=[legal_deck.pk])).content.decode()
    assert 'aria-label="Revert to version 1"' in page
    assert f'aria-label="Revert to version {legal_deck.version}"' not in page  # the current one
    assert '<input type="hidden" name="version" value="3">' in page  # the version shown

    url = reverse("deck-revert", args=[legal_deck.pk, 1])
    response = alice.post(url, {"version": "3"}, follow=True)
    assert "Reverted to version 1: saved as version 4." in response.content.decode()
    legal_deck.refresh_from_db()
    assert legal_deck.version == 4
    assert {
        (r.card.name, r.zone): r.quantity for r in legal_deck.cards.select_related("card")
    } == original
    assert legal_deck.versions.get(number=4).note == "reverted to version 1"
    again = alice.post(url, {"version": "4"}, follow=True)
    assert "already holds the cards of version 1" in again.content.decode()
    missing = alice.post(reverse("deck-revert", args=[legal_deck.pk, 99]), {"version": "4"})
    assert missing.status_code == 400
    assert "has no version 99" in missing.content.decode()


def test_a_revert_from_a_history_page_the_deck_has_moved_on_from_changes_nothing(alice, legal_deck):
    """A revert replaces the whole list: one asked from a page shown before a later change
    (another tab) is refused, saying so, and the later change stays; one without the version
    the page showed is refused too."""
    set_url = reverse("deck-card-set", args=[legal_deck.pk])
    alice.post(set_url, {"card": "Eagle Dive", "quantity": "0"}, **HX)  # version 2, then
    alice.post(set_url, {"card": "Talon Strike", "quantity": "4"}, **HX)  # 3, from another tab
    url = reverse("deck-revert", args=[legal_deck.pk, 1])

    stale = alice.post(url, {"version": "2"}, follow=True)
    bare = alice.post(url)

    assert "Nothing was reverted: the deck changed after this page was shown" in (
        stale.content.decode()
    )
    assert bare.status_code == 400 and "needs the version the history page showed" in (
        bare.content.decode()
    )
    legal_deck.refresh_from_db()
    assert legal_deck.version == 3
    assert legal_deck.cards.get(card__name="Talon Strike").quantity == 4


def test_only_the_owner_may_revert(client, other_user, legal_deck):
    client.force_login(other_user)
    assert client.post(reverse("deck-revert", args=[legal_deck.pk, 1])).status_code == 404
    page = client.get(reverse("deck-versions", args=[legal_deck.pk]))
    assert "Revert to this" not in page.content.decode()


def test_per_card_odds_and_the_custom_calculator(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    table = re.search(r'data-testid="card-odds">(.*?)</table>', body, re.S).group(1)
    # 2 Eagle Dive among 57 cards in the draw pile (3 Unconstitutional Acts are set aside)
    eagle = re.search(r"<th scope=\"row\">Eagle Dive</th><td>2</td><td>([\d.]+)%</td>", table)
    pile = 57
    assert float(eagle.group(1)) == round(float(hypergeometric_at_least(pile, 2, 7, 1)) * 100, 1)

    odds_url = reverse("deck-odds", args=[legal_deck.pk])
    query = {"cards": ["Eagle Dive", "Talon Strike"], "at_least": "2", "by": "turn", "turn": "4"}
    answer = alice.get(odds_url, query, **HX)
    assert answer.status_code == 200
    exact = hypergeometric_at_least(pile, 4, 7 + 4, 2)
    text = answer.content.decode()
    assert f"{float(exact) * 100:.1f}%" in text
    assert f"exactly {exact.numerator}/{exact.denominator}" in text
    draws = alice.get(odds_url, {**query, "by": "draws", "draws": "15"}, **HX).content.decode()
    assert f"{float(hypergeometric_at_least(pile, 4, 15, 2)) * 100:.1f}%" in draws
    # without htmx, the whole page with the answer
    page = alice.get(odds_url, query)
    assert page.status_code == 200 and 'data-testid="odds-answer"' in page.content.decode()
    # the address alone (a bookmark, a shared link) opens the page with the calculator to fill
    bare = alice.get(odds_url)
    assert bare.status_code == 200 and "This field is required" not in bare.content.decode()
    assert 'data-testid="odds-answer"' not in bare.content.decode()
    refused = alice.get(
        odds_url, {"cards": ["Not A Card"], "at_least": "1", "by": "turn", "turn": "1"}, **HX
    )
    assert refused.status_code == 400
    assert "Select a valid choice" in refused.content.decode()


def test_the_odds_of_a_pile_without_the_cards_are_zero(alice, legal_deck):
    answer = alice.get(
        reverse("deck-odds", args=[legal_deck.pk]),
        {"cards": ["Eagle Dive"], "at_least": "3", "by": "draws", "draws": "60"},
        **HX,
    )
    assert "<strong>0.0%</strong>" in answer.content.decode()
    assert hypergeometric_at_least(57, 2, 57, 3) == Fraction(0)


def test_the_builder_reads_the_decks_cards_once_for_the_verdict_the_statistics_and_the_list(
    alice, legal_deck
):
    """The verdict, the statistics and the list share one read of the deck's cards with their
    details: one query of the deck's cards for the whole page, whatever its size."""
    with CaptureQueriesContext(connection) as queries:
        response = alice.get(reverse("deck-detail", args=[legal_deck.pk]))
    assert response.status_code == 200
    card_reads = [q["sql"] for q in queries if 'FROM "decks_deckcard"' in q["sql"]]
    assert len(card_reads) == 1, card_reads
    assert len(_rows(response.content.decode())) == legal_deck.cards.count()


def test_a_refused_card_change_names_the_field_in_words(alice, legal_deck):
    """The deck page says "Quantity: ...", the words of the box, not the field's name in code."""
    answer = alice.post(
        reverse("deck-card-add", args=[legal_deck.pk]),
        {"name": "Eagle Dive", "quantity": "1000"},
        **HX,
    )

    assert answer.status_code == 422
    page = answer.content.decode()
    assert "Quantity: Ensure this value is less than or equal to 999." in page
    assert "quantity: " not in page
