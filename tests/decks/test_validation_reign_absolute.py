"""Reign Absolute: a deck is one whole faction deck with exactly one Liege (Setup)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.validation import card_index, validate

pytestmark = pytest.mark.django_db
GAME = "reign-absolute"


def faction(branch: str) -> dict[str, int]:
    deck: dict[str, int] = {}
    for c in card_index(GAME).cards:
        if c.branch == branch and c.type in ("liege", "unit"):
            assert c.copies_in_set is not None, c.name  # a Liege's or a unit's count is set
            deck[c.name] = c.copies_in_set
    return deck


@pytest.mark.parametrize("branch", ["empire", "elves", "azuma", "umbrous"])
def test_each_whole_faction_deck_is_legal_at_its_liege_size(branch):
    deck = faction(branch)
    liege = next(c for c in card_index(GAME).cards if c.type == "liege" and c.branch == branch)

    report = validate(GAME, deck)

    assert report.legal, report.to_dict()
    assert report.card_count == liege.stats["faction_deck_size"]


def test_unit_copies_must_match_the_faction_deck():
    deck = faction("empire")
    deck["Empire Archers"] += 1
    deck["Empire Legionnaires"] -= 1

    report = validate(GAME, deck)

    assert report.codes == ["unit-copies", "unit-copies"]
    assert {v.cards[0] for v in report.violations} == {"Empire Archers", "Empire Legionnaires"}


def test_faction_size_follows_the_liege():
    deck = faction("elves")
    deck["Elves Rangers"] += 1

    report = validate(GAME, deck)

    assert sorted(report.codes) == ["faction-size", "unit-copies"]
    size = next(v for v in report.violations if v.code == "faction-size")
    assert "Elves Oak Queen states 11" in size.message


def test_liege_count_with_no_liege_judges_the_majority_faction():
    deck = faction("azuma")
    del deck["Azuma Shogun"]

    report = validate(GAME, deck)

    assert sorted(report.codes) == ["faction-size", "liege-count"]
    assert next(v for v in report.violations if v.code == "liege-count").details["count"] == 0


def test_mixed_factions_names_the_cards_outside_the_lieges_faction():
    deck = faction("umbrous")
    deck["Umbrous Husks"] -= 1
    deck["Empire Ballista"] = 1

    report = validate(GAME, deck)

    assert sorted(report.codes) == ["mixed-factions", "unit-copies"]
    mixed = next(v for v in report.violations if v.code == "mixed-factions")
    assert mixed.cards == ["Empire Ballista"]


def test_reinforcements_are_not_units():
    deck = faction("umbrous")
    deck["Umbrous Husks"] -= 1
    deck["Cancel"] = 1

    report = validate(GAME, deck)

    assert sorted(report.codes) == ["not-a-unit", "unit-copies"]
    assert next(v for v in report.violations if v.code == "not-a-unit").cards == ["Cancel"]


def test_every_break_at_once():
    deck = faction("empire")
    deck["Elves Oak Queen"] = 1
    deck["Spyglass"] = 2
    deck["Empire Archers"] = 5
    deck["Empire Sovreign"] = 1

    report = validate(GAME, deck)

    assert set(report.codes) == {
        "not-a-unit",
        "mixed-factions",
        "liege-count",
        "faction-size",
        "unit-copies",
        "unknown-card",
    }


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_decks_agree_with_an_independent_count(data):
    rows = list(
        Card.objects.filter(game__slug=GAME).values_list(
            "name", "card_type__slug", "branch__slug", "copies_in_set", "stats"
        )
    )
    base = faction(data.draw(st.sampled_from(["empire", "elves", "azuma", "umbrous"])))
    deck = dict(base) if data.draw(st.booleans()) else {}
    for name, *_ in data.draw(st.lists(st.sampled_from(rows), max_size=6)):
        deck[name] = deck.get(name, 0) + data.draw(st.integers(1, 2))
    for name in data.draw(st.lists(st.sampled_from(sorted(base)), max_size=3)):
        deck.pop(name, None)

    report = validate(GAME, deck)

    info = {name: (kind, branch, copies, stats) for name, kind, branch, copies, stats in rows}
    units = {n: q for n, q in deck.items() if info[n][0] in ("liege", "unit")}
    lieges = [n for n in units if info[n][0] == "liege"]
    expected = set()
    if any(info[n][0] not in ("liege", "unit") for n in deck):
        expected.add("not-a-unit")
    if sum(units[n] for n in lieges) != 1:
        expected.add("liege-count")
    by_faction: dict[str, int] = {}
    for n, q in units.items():
        by_faction[info[n][1]] = by_faction.get(info[n][1], 0) + q
    if len(lieges) == 1:
        home = info[lieges[0]][1]
    elif by_faction:
        home = min(by_faction, key=lambda f: (-by_faction[f], f))
    else:
        home = None
    if any(info[n][1] != home for n in units):
        expected.add("mixed-factions")
    if home is not None:
        size = next(
            s["faction_deck_size"] for n, (k, b, c, s) in info.items() if k == "liege" and b == home
        )
        if sum(deck.values()) != size:
            expected.add("faction-size")
        for n, (kind, branch, copies, _) in info.items():
            if kind == "unit" and branch == home and deck.get(n, 0) != copies:
                expected.add("unit-copies")
    assert set(report.codes) == expected
