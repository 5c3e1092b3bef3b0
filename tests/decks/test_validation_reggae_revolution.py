"""Reggae Revolution: the 12-card starting deck and the game-setup check (Setup)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.decklist import decklist_entries, decklist_read
from decks.validation import validate
from tests.decks.conftest import read_sample

pytestmark = pytest.mark.django_db
GAME = "reggae-revolution"
STARTERS = ["Dove Badge", "Heart Patch", "Linked Hands", "Respect Nod"]


def starting(**counts: int) -> list[tuple[str, int, str]]:
    base = dict.fromkeys(STARTERS, 3)
    base.update({name.replace("_", " "): n for name, n in counts.items()})
    return [(name, n, "starting") for name, n in base.items() if n]


def full_setup() -> list:
    return decklist_entries(GAME, decklist_read(read_sample(GAME, "legal-full-setup")))


def test_three_of_each_starter_is_the_starting_deck():
    report = validate(GAME, starting())

    assert report.legal
    assert report.card_count == 12


def test_an_unsectioned_list_is_a_starting_deck():
    text = "3 Dove Badge\n3 Heart Patch\n3 Linked Hands\n3 Respect Nod\n"

    assert validate(GAME, decklist_entries(GAME, decklist_read(text))).legal


def test_starter_count_is_exactly_three_of_each():
    report = validate(GAME, starting(Dove_Badge=4, Heart_Patch=2))

    assert report.codes == ["starter-count", "starter-count"]
    assert sorted(v.cards[0] for v in report.violations) == ["Dove Badge", "Heart Patch"]
    assert report.violations[0].rule == "Setup"


def test_starting_deck_size_is_twelve():
    report = validate(GAME, starting(Dove_Badge=4))

    assert sorted(report.codes) == ["starter-count", "starting-deck-size"]
    size = next(v for v in report.violations if v.code == "starting-deck-size")
    assert size.message == (
        "Starting deck: 13 cards, the rulebook gives each player exactly 12 (Setup)"
    )


def test_a_main_deck_card_cannot_start_in_the_starting_deck():
    entries = [*starting(Dove_Badge=2), ("Rainbow Riddim", 1, "starting")]

    report = validate(GAME, entries)

    assert sorted(report.codes) == ["starter-count", "wrong-zone"]


def test_the_full_setup_sample_is_legal():
    report = validate(GAME, full_setup())

    assert report.legal, report.to_dict()
    assert report.card_count == 12 + 52 + 22


def test_the_lineup_is_six_cards():
    entries = full_setup()
    lineup = next(e for e in entries if e.zone == "lineup")
    lineup.zone = "main"

    assert validate(GAME, entries).codes == ["lineup-size"]


def test_the_villain_deck_holds_every_villain_and_scheme():
    entries = [e for e in full_setup() if e.name != "Curfew Sirens"]

    report = validate(GAME, entries)

    assert report.codes == ["setup-incomplete"]
    assert report.violations[0].cards == ["Curfew Sirens"]


def test_no_more_copies_than_the_box_holds():
    entries = [*full_setup(), ("Prism Horn", 1, "lineup")]

    report = validate(GAME, entries)

    assert sorted(report.codes) == ["copies-in-set", "lineup-size"]


def test_an_unknown_zone_is_reported():
    report = validate(GAME, [*starting(), ("Prism Horn", 1, "attic")])

    assert report.codes == ["unknown-zone"]


def test_every_break_at_once():
    entries = [e for e in full_setup() if e.name != "Curfew Sirens"]
    entries += [("Dove Badge", 1, "starting"), ("Oppression Order", 1, "villain")]
    entries += [("Dub Plate Speciall", 1, "main")]

    report = validate(GAME, entries)

    assert set(report.codes) == {
        "starting-deck-size",
        "starter-count",
        "wrong-zone",
        "setup-incomplete",
        "unknown-card",
    }


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_starting_decks_agree_with_an_independent_count(data):
    rows = list(Card.objects.filter(game__slug=GAME).values_list("name", "card_type__slug"))
    kind = dict(rows)
    picks = data.draw(st.lists(st.sampled_from(rows), max_size=8))
    deck: dict[str, int] = dict.fromkeys(STARTERS, 3) if data.draw(st.booleans()) else {}
    for name, _ in picks:
        deck[name] = deck.get(name, 0) + data.draw(st.integers(1, 3))

    report = validate(GAME, deck)

    expected = set()
    if sum(deck.values()) != 12:
        expected.add("starting-deck-size")
    if any(deck.get(name, 0) != 3 for name in STARTERS):
        expected.add("starter-count")
    if any(kind[name] != "starter" for name in deck):
        expected.add("wrong-zone")
    assert set(report.codes) == expected
