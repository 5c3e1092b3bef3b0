"""Decklist rules a user can trip over: sideboards, section headers a game does not know, and
quantities no deck can hold, each refused with its line number instead of a silent wrong deck."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.decklist import (
    DecklistFormat,
    DecklistParseError,
    decklist_entries,
    decklist_export,
    decklist_read,
)
from decks.decklist.model import MAX_LINES, MAX_QUANTITY
from decks.validation import card_index
from tests.decks.conftest import RNR

REGGAE = "reggae-revolution"


def _problems(text: str, kind: DecklistFormat = "text", game: str | None = None) -> dict[int, str]:
    with pytest.raises(DecklistParseError) as caught:
        parsed = decklist_read(text, kind)
        if game:
            decklist_entries(game, parsed)
    return {problem.line: problem.message for problem in caught.value.problems}


@pytest.mark.parametrize("header", ["[Sideboard]", "Sideboard:", "SB:", "[Side board (15)]"])
def test_a_sideboard_is_refused_with_its_line_not_merged_into_the_deck(header):
    problems = _problems(f"[Attack]\n2 Eagle Dive\n{header}\n2 Talon Strike\n")

    assert list(problems) == [3]
    assert "sideboard" in problems[3] and "none of Deckwright's five games has one" in problems[3]


def test_a_sideboard_zone_in_csv_or_json_is_refused_too():
    csv_problems = _problems("quantity,name,zone\n1,Stamp Act,\n2,Eagle Dive,Sideboard\n", "csv")
    assert list(csv_problems) == [3] and "sideboard" in csv_problems[3]
    cards = [{"name": "Stamp Act"}, {"name": "Eagle Dive", "zone": "sideboard"}]
    json_problems = _problems(json.dumps({"cards": cards}), "json")
    assert list(json_problems) == [2] and "sideboard" in json_problems[2]


@pytest.mark.parametrize("line", ["[[[[x]]]]", "[[Attack]]", "[Att]ack]"])
def test_brackets_inside_a_header_are_an_error_not_an_empty_deck(line):
    problems = _problems(f"2 Stamp Act\n{line}\nEagle Dive\n")
    assert list(problems) == [2]
    assert "not a section header" in problems[2]


@pytest.mark.django_db
def test_a_header_the_game_does_not_know_is_an_error_naming_the_real_sections():
    problems = _problems("[Attack]\n2 Eagle Dive\n\n[Creatures]\n1 Stamp Act\n", game=RNR)

    assert list(problems) == [4]
    assert "'Creatures' is not a section of Revolt N Reign decklists" in problems[4]
    assert "Unconstitutional Act" in problems[4] and "Pillar" in problems[4]


@pytest.mark.django_db
def test_a_zoned_game_lists_its_zones_for_an_unknown_header():
    problems = _problems("[Starting deck]\n3 Dove Badge\n[Sideways]\n1 Dove Badge\n", game=REGGAE)
    assert list(problems) == [3]
    assert "Starting deck" in problems[3] and "Lineup" in problems[3]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header",
    [
        "[Attack]",
        "Attacks:",
        "[Unconstitutional Acts]",
        "[Pillars (18)]",
        "[pillar]",
        "[Eagle]",  # a branch
        "[Petitions]",  # a subtype
        "[Deck]",
        "Main deck:",
        "[Unknown cards]",  # what the export writes for names that are not cards
    ],
)
def test_headers_a_player_would_write_are_accepted(header):
    entries = decklist_entries(RNR, decklist_read(f"{header}\n2 Eagle Dive\n"))
    assert [(e.name, e.quantity) for e in entries] == [("Eagle Dive", 2)]


@pytest.mark.django_db
def test_a_card_type_added_to_the_catalogue_is_a_known_header_at_the_next_read():
    # known_headers is derived once per card index: it must follow the index, not outlive it
    from cards.models import CardType, Game

    text = "[Ambushes]\n2 Eagle Dive\n"
    assert "'Ambushes' is not a section" in _problems(text, game=RNR)[1]
    CardType.objects.create(game=Game.objects.get(slug=RNR), slug="ambush", name="Ambush")

    entries = decklist_entries(RNR, decklist_read(text))
    assert [(e.name, e.quantity) for e in entries] == [("Eagle Dive", 2)]


@pytest.mark.django_db
def test_a_zone_in_a_game_without_zones_is_an_error():
    problems = _problems("quantity,name,zone\n2,Eagle Dive,banana\n", "csv", game=RNR)
    assert list(problems) == [2]
    assert "no zones" in problems[2] and "'banana'" in problems[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("-1 Stamp Act", "quantity -1 is not between 1 and 999"),
        ("\u22122x Stamp Act", "quantity \u22122 is not between 1 and 999"),
        ("0 Stamp Act", "quantity 0 is not between 1 and 999"),
        ("1000 Stamp Act", "quantity 1000 is not between 1 and 999"),
        ("1000x Stamp Act", "quantity 1000 is not between 1 and 999"),
        ("99999999999 Stamp Act", "quantity 99999999999 is not between 1 and 999"),
        ("1.5 Stamp Act", "quantity 1.5 is not a whole number"),
    ],
)
def test_impossible_quantities_are_quantity_errors_with_the_line_not_unknown_cards(line, wanted):
    problems = _problems(f"# game: revolt-n-reign\n1 Tea Act\n{line}\n", game=RNR)
    assert list(problems) == [3]
    assert problems[3].startswith(wanted)


@pytest.mark.django_db
def test_the_api_answers_a_huge_quantity_as_a_400_naming_line_and_quantity(client):
    response = client.post(
        "/api/v1/validate/",
        {"game": RNR, "decklist": "1 Tea Act\n1000 Stamp Act\n"},
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation-error"
    assert "line 2: quantity 1000 is not between 1 and 999" in body["detail"]


@pytest.mark.parametrize("kind", ["csv", "json"])
@pytest.mark.parametrize("quantity", ["-3", "0", "1000"])
def test_csv_and_json_quantities_out_of_range_say_so(kind, quantity):
    if kind == "csv":
        text = f"quantity,name\n1,Tea Act\n{quantity},Stamp Act\n"
        line = 3
    else:
        text = json.dumps(
            {"cards": [{"name": "Tea Act"}, {"name": "X", "quantity": int(quantity)}]}
        )
        line = 2
    problems = _problems(text, kind)
    assert list(problems) == [line]
    assert f"quantity {quantity} is not between 1 and {MAX_QUANTITY}" in problems[line]


# --- properties -----------------------------------------------------------------------------

LINE_PIECES = st.sampled_from(
    ["[", "]", "[[", "]]", "Sideboard", "SB", ":", "#", " ", "x", "2", "-", "1000", "0", "\u2212",
     "Stamp Act", "Attack", "Creatures", ".", "5", "\t", "Eagle Dive", "(3)", "game: r"]
)  # fmt: skip
DECKLIST_TEXT = st.lists(st.lists(LINE_PIECES, max_size=6).map("".join), max_size=12).map("\n".join)


def _line_count(text: str) -> int:
    return len(text.splitlines())


@given(st.one_of(DECKLIST_TEXT, st.text(max_size=300)))
@settings(max_examples=300, deadline=None)
def test_any_text_parses_or_fails_with_line_numbers(text):
    try:
        decklist = decklist_read(text)
    except DecklistParseError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.message
            assert 1 <= problem.line <= _line_count(text) or (
                problem.line == 0 and _line_count(text) > MAX_LINES
            )
    else:
        assert all(1 <= e.quantity <= MAX_QUANTITY for e in decklist.entries)
        assert all(1 <= e.line <= _line_count(text) for e in decklist.entries)


@pytest.mark.django_db
@given(DECKLIST_TEXT)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_reads_for_a_game_or_fails_with_line_numbers(text):
    try:
        entries = decklist_entries(RNR, decklist_read(text))
    except DecklistParseError as exc:
        assert all(1 <= problem.line <= _line_count(text) for problem in exc.problems)
    else:
        assert all(1 <= e.quantity <= MAX_QUANTITY for e in entries)


@pytest.fixture(scope="module")
def rnr_names(django_db_blocker) -> list[str]:
    with django_db_blocker.unblock():
        return [card.name for card in card_index(RNR).cards]


@pytest.mark.django_db
@given(data=st.data(), quantity=st.integers(-(10**12), 10**12))
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_quantity_is_either_those_copies_or_a_quantity_error_never_an_unknown_card(
    rnr_names, data, quantity
):
    name = data.draw(st.sampled_from(rnr_names))
    text = f"1 Tea Act\n{quantity} {name}\n"
    try:
        entries = decklist_entries(RNR, decklist_read(text))
    except DecklistParseError as exc:
        assert not 1 <= quantity <= MAX_QUANTITY
        [problem] = exc.problems
        assert problem.line == 2 and problem.message.startswith("quantity")
    else:
        assert 1 <= quantity <= MAX_QUANTITY
        assert (entries[-1].name, entries[-1].quantity) == (name, quantity)


@pytest.mark.django_db
@given(data=st.data())
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_export_of_a_parsed_export_is_the_same_text(rnr_names, data):
    picks = data.draw(st.lists(st.sampled_from(rnr_names), max_size=20, unique=True))
    deck = {name: data.draw(st.integers(1, MAX_QUANTITY)) for name in picks}

    exported = decklist_export(RNR, deck, {"name": "Again"})
    again = decklist_export(RNR, decklist_entries(RNR, decklist_read(exported)), {"name": "Again"})

    assert again == exported
