"""The decklist formats: text (with sections, comments, metadata), JSON and CSV; round trips."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.decklist import (
    DecklistParseError,
    DecklistSettings,
    deck_counts,
    decklist_entries,
    decklist_export,
    decklist_read,
    decklist_settings,
    guess_kind,
)
from decks.validation import card_index, rules_for, validate
from rules.engines.core import registered_games
from tests.decks.conftest import RNR

GAMES = registered_games()


def test_the_three_quantity_spellings_and_a_bare_name():
    decklist = decklist_read("2 Stamp Act\n2x Sugar Act\n3X Tea Act\nQuartering Act\n")

    assert [(e.name, e.quantity) for e in decklist.entries] == [
        ("Stamp Act", 2),
        ("Sugar Act", 2),
        ("Tea Act", 3),
        ("Quartering Act", 1),
    ]
    assert [e.line for e in decklist.entries] == [1, 2, 3, 4]


def test_sections_comments_metadata_and_blank_lines():
    text = (
        "# game: revolt-n-reign\n"
        "# name: Eagle Control\n"
        "# Format: standard\n"
        "\n"
        "[Unconstitutional Act]\n"
        "1 Stamp Act  \n"
        "# a comment: not metadata once the cards have started\n"
        "Attack:\n"
        "2 Eagle Dive\n"
    )

    decklist = decklist_read(text)

    assert decklist.metadata == {
        "game": "revolt-n-reign",
        "name": "Eagle Control",
        "format": "standard",
    }
    assert [(e.name, e.section) for e in decklist.entries] == [
        ("Stamp Act", "Unconstitutional Act"),
        ("Eagle Dive", "Attack"),
    ]


def test_parse_errors_name_every_bad_line_and_the_problem():
    text = "2 Stamp Act\n0 Tea Act\n3x\n[Attack\n1000x Eagle Dive\n" + "x" * 130 + "\nok\x07\n"

    with pytest.raises(DecklistParseError) as caught:
        decklist_read(text)

    problems = {p.line: p.message for p in caught.value.problems}
    assert sorted(problems) == [2, 3, 4, 5, 6, 7]
    assert "quantity 0" in problems[2]
    assert "no card name" in problems[3]
    assert "section header" in problems[4]
    assert "1000" in problems[5]
    assert "at most 120" in problems[6]
    assert "control characters" in problems[7]
    assert str(caught.value).startswith("line 2: ")


def test_bytes_that_are_not_utf8_are_a_parse_error():
    with pytest.raises(DecklistParseError, match="not UTF-8"):
        decklist_read(b"2 Stamp Act\n\xff\xfe\n")


@given(st.one_of(st.text(), st.binary()))
@settings(max_examples=300, deadline=None)
def test_garbage_text_raises_only_the_documented_parse_error(garbage):
    for kind in ("text", "json", "csv"):
        try:
            decklist = decklist_read(garbage, kind)
        except DecklistParseError as exc:
            assert exc.problems and all(p.message for p in exc.problems)
        else:
            assert all(1 <= e.quantity <= 999 and e.name.strip() for e in decklist.entries)


@given(
    st.lists(
        st.sampled_from(
            [
                "2 Stamp Act",
                "[Attack]",
                "Attack:",
                "# c",
                "",
                "2x",
                "x3 Foo",
                "3",
                "[ ]",
                "#: x",
                "\t",
                "ümlaut Card",
            ]
        )
    )
)
@settings(max_examples=200, deadline=None)
def test_near_miss_lines_raise_only_the_documented_parse_error(lines):
    try:
        decklist_read("\n".join(lines))
    except DecklistParseError as exc:
        assert all(p.line >= 1 for p in exc.problems)


@pytest.mark.django_db
def test_names_match_ignoring_case_and_punctuation():
    decklist = decklist_read("2 STAMP-ACT\n1 sailors petition\n")

    entries = decklist_entries(RNR, decklist)

    assert [(e.name, e.quantity) for e in entries] == [
        ("Stamp Act", 2),
        ("Sailors' Petition", 1),
    ]


@pytest.mark.django_db
def test_unknown_names_come_with_the_closest_real_names_and_their_line():
    decklist = decklist_read("1 Stamp Act\n2 Eagel Dive\n")

    report = validate(RNR, decklist_entries(RNR, decklist))

    unknown = [v for v in report.violations if v.code == "unknown-card"]
    assert unknown[0].details["suggestions"][0] == "Eagle Dive"
    assert unknown[0].details["lines"] == [2]
    assert "(line 2)" in unknown[0].message


@pytest.mark.django_db
def test_a_name_that_starts_with_a_number_reads_as_that_card(card_factory, game_factory):
    game = game_factory(slug="numbered-game")
    card_factory(game=game, name="1776 Declaration")
    card_factory(game=game, name="76 Trombones")
    card_factory(game=game, name="Trumpets")

    text = "1776 Declaration\n76 Trombones\n2 76 Trombones\n3 Trumpets\n"
    entries = decklist_entries(game.slug, decklist_read(text))

    assert [(e.name, e.quantity) for e in entries] == [
        ("1776 Declaration", 1),
        ("76 Trombones", 1),
        ("76 Trombones", 2),
        ("Trumpets", 3),
    ]


@pytest.mark.django_db
def test_export_is_canonical_sorted_and_sectioned():
    deck = {"Tea Act": 1, "Stamp Act": 1, "eagle dive": 2, "Harbor Customs House": 6}

    text = decklist_export(RNR, deck, {"name": "Mini", "format": "standard"})

    assert text == (
        "# game: revolt-n-reign\n"
        "# name: Mini\n"
        "# format: standard\n"
        "\n"
        "[Unconstitutional Act]\n"
        "1 Stamp Act\n"
        "1 Tea Act\n"
        "\n"
        "[Pillar]\n"
        "6 Harbor Customs House\n"
        "\n"
        "[Attack]\n"
        "2 Eagle Dive\n"
    )


@pytest.mark.django_db
def test_export_of_a_zoned_game_writes_zones_as_sections():
    entries = [("Dove Badge", 3, "starting"), ("Rainbow Riddim", 1, "lineup")]

    text = decklist_export("reggae-revolution", entries)

    assert "[Starting deck]\n3 Dove Badge\n" in text
    assert "[Lineup]\n1 Rainbow Riddim\n" in text


@pytest.fixture(scope="module")
def pools(django_db_blocker) -> dict[str, list[str]]:
    with django_db_blocker.unblock():
        return {game: [c.name for c in card_index(game).cards] for game in GAMES}


@st.composite
def decks_of(draw, game: str, names: list[str]):
    zones = rules_for(game).zones or ("",)
    picks = draw(st.lists(st.sampled_from(names), max_size=25, unique=True))
    return {(name, draw(st.sampled_from(zones))): draw(st.integers(1, 40)) for name in picks}


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["text", "json", "csv"])
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_parse_of_export_is_the_same_deck(pools, game, kind, data):
    deck = data.draw(decks_of(game, pools[game]))
    entries = [(name, quantity, zone) for (name, zone), quantity in deck.items()]

    exported = decklist_export(game, entries, {"name": "Round trip"}, kind)
    again = decklist_entries(game, decklist_read(exported, kind))

    assert deck_counts(again) == deck
    if kind != "csv":  # the CSV export is the cards alone, for plain CSV readers
        assert decklist_read(exported, kind).metadata["name"] == "Round trip"
    assert guess_kind("", exported) == kind  # a pasted export is read as what it is


def test_a_csv_list_may_carry_its_variant_and_day_above_the_header():
    # a CSV export holds the cards alone; a player who adds the text list's # lines above the
    # header gets the variant and day read, and errors keep the file's own line numbers
    text = "# game: regality-vs-religion\n# variant: draft\n\n# As-Of: 2026-10-01\n"
    text += 'quantity,name\n1,"\'=SUM(A1)"\n2,Anvil\n'
    again = decklist_read(text, "csv")
    assert decklist_settings(again, "regality-vs-religion") == DecklistSettings(
        None, "draft", dt.date(2026, 10, 1)
    )
    assert [(e.name, e.quantity, e.line) for e in again.entries] == [
        ("=SUM(A1)", 1, 6),
        ("Anvil", 2, 7),
    ]
    with pytest.raises(DecklistParseError) as caught:
        decklist_read("# variant: draft\n\nquantity,name\nx,Anvil\n", "csv")
    assert [(p.line, p.message) for p in caught.value.problems] == [
        (4, "quantity 'x' is not a number")
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('[{"name": "Stamp Act", "quantity": 2}]', "json"),
        ("  [ ]", "json"),
        ('{"cards": []}', "json"),
        ("[Attack]\n2 Eagle Dive\n", "text"),
        ("# game: revolt-n-reign\nquantity,name\n2,Stamp Act\n", "csv"),
        ("Name,Quantity,Zone\nStamp Act,2,\n", "csv"),
        ("2 Stamp Act\n1 Name, the Bold\n", "text"),
        ("# name: quantity, name\n2 Stamp Act\n", "text"),
    ],
)
def test_detect_reads_a_pasted_list_by_its_first_line(text, kind):
    assert guess_kind("", text) == kind


def test_json_decklists_read_metadata_and_cards():
    text = json.dumps(
        {
            "game": "revolt-n-reign",
            "name": "J",
            "cards": [{"name": "Stamp Act", "quantity": 1}, {"name": "Eagle Dive"}],
        }
    )

    decklist = decklist_read(text, "json")

    assert decklist.metadata == {"game": "revolt-n-reign", "name": "J"}
    assert [(e.name, e.quantity) for e in decklist.entries] == [("Stamp Act", 1), ("Eagle Dive", 1)]


def test_json_errors_name_the_card_position_or_the_line():
    with pytest.raises(DecklistParseError) as caught:
        decklist_read('{"cards": [{"name": "A", "quantity": 0}, {"quantity": 2}, 7]}', "json")
    assert [p.line for p in caught.value.problems] == [1, 2, 3]

    with pytest.raises(DecklistParseError) as caught:
        decklist_read('{\n"cards": [\n', "json")
    assert caught.value.problems[0].line == 3
    assert "not valid JSON" in caught.value.problems[0].message


@pytest.mark.parametrize(
    "text",
    ["[" * 4096, '{"cards": ' + "[" * 40 + "]" * 40 + "}", '{"cards": [{"name": "\\ud800"}]}'],
)
def test_json_nested_too_deeply_or_not_unicode_is_a_decklist_error(text):
    with pytest.raises(DecklistParseError) as caught:
        decklist_read(text, "json")
    message = caught.value.problems[0].message
    assert "nested deeper than 32 levels at line 1" in message or "unpaired surrogate" in message


def test_csv_decklists_and_their_errors():
    decklist = decklist_read("name,quantity\nStamp Act,1\nEagle Dive,2\n\n", "csv")
    assert [(e.name, e.quantity) for e in decklist.entries] == [("Stamp Act", 1), ("Eagle Dive", 2)]

    with pytest.raises(DecklistParseError) as caught:
        decklist_read("quantity,name\ntwo,Stamp Act\n3,\n", "csv")
    assert [(p.line, p.message) for p in caught.value.problems] == [
        (2, "quantity 'two' is not a number"),
        (3, "the row has no card name"),
    ]
    with pytest.raises(DecklistParseError, match="'name' column"):
        decklist_read("qty,card\n1,Stamp Act\n", "csv")


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        ("quantity,name,name\n2,Stamp Act,Tea Act\n", 1, "names 'name' (columns 2, 3) more"),
        ('quantity,name\n2,"Tea Act\n1,Stamp Act\n', 2, "a quoted cell is never closed"),
        ("quantity,name\n2,Tea Act,extra\n", 2, "the row has 3 cells, and the header names 2"),
    ],
)
def test_a_csv_list_that_would_lose_a_card_or_a_cell_is_refused(text, line, said):
    """A second name column, a quote left open (the rest of the file read into one name) and a
    row with a cell past the header's columns each dropped a card or a cell without a word."""
    with pytest.raises(DecklistParseError) as caught:
        decklist_read(text, "csv")
    [problem] = caught.value.problems
    assert problem.line == line and said in problem.message
    # cells under columns the reader does not use, and empty trailing cells, stay fine
    kept = decklist_read("quantity,name,set\n2,Tea Act,RNR\n1,Stamp Act,,\n", "csv")
    assert [(e.name, e.quantity) for e in kept.entries] == [("Tea Act", 2), ("Stamp Act", 1)]


@settings(max_examples=50, deadline=None)
@given(
    day=st.dates(),
    fmt=st.from_regex(r"[a-z][a-z0-9-]{0,20}", fullmatch=True),
    game=st.sampled_from(sorted(registered_games())),
    kind=st.sampled_from(["text", "json"]),
)
def test_a_decklist_says_its_format_variant_and_day_and_refuses_another_game(day, fmt, game, kind):
    meta = {"game": game, "format": fmt, "variant": "draft", "as_of": day.isoformat()}
    if kind == "text":
        text = "".join(f"# {k}: {v}\n" for k, v in meta.items()) + "1 Stamp Act\n"
    else:
        text = json.dumps({**meta, "cards": [{"name": "Stamp Act", "quantity": 1}]})
    parsed = decklist_read(text, kind)
    assert decklist_settings(parsed, game) == DecklistSettings(fmt, "draft", day)
    other = next(slug for slug in sorted(registered_games()) if slug != game)
    with pytest.raises(DecklistParseError) as refused:
        decklist_settings(parsed, other)
    assert f"this decklist is for {game}, not {other}" in str(refused.value)


def test_a_decklist_with_a_day_that_is_no_date_is_refused_with_the_value():
    parsed = decklist_read("# as_of: 2026-02-30\n1 Stamp Act\n")
    with pytest.raises(DecklistParseError, match="as_of '2026-02-30' is not a date"):
        decklist_settings(parsed, RNR)
    assert decklist_settings(decklist_read("1 Stamp Act\n"), RNR) == DecklistSettings()
