"""``manage.py simulate --deck-a/--deck-b`` (and -c/-d) for every game: the game's plugin seats
the decklist files, as web matchups do, so every engine plays the decks it is given."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db

DECKS = Path(__file__).resolve().parents[2] / "fixtures" / "decks"


def deck(game: str, name: str) -> str:
    return str(DECKS / game / f"{name}.txt")


def simulate(game: str, decks: list[str], agents: str, *extra: str) -> dict[str, Any]:
    """Run the command with decklist files (deck A first) and return its JSON report."""
    options = [f"--deck-{'abcd'[index]}={path}" for index, path in enumerate(decks)]
    out = io.StringIO()
    call_command(
        "simulate",
        "--game",
        game,
        *options,
        "--agents",
        agents,
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
        *extra,
        stdout=out,
    )
    return json.loads(out.getvalue())


@pytest.fixture
def regality_old_style(tmp_path: Path) -> str:
    """A Regality side for the old-style variant (no neutral tile but the Citizen)."""
    path = tmp_path / "regality-old-style.txt"
    path.write_text(
        "# game: regality-vs-religion\n# name: Crown, Old Style\n# variant: old-style\n\n"
        "[Side]\n"
        + "".join(
            f"1 {name}\n"
            for name in ("Castle", "Citizen", "General", "King", "Minister", "Princess")
        )
        + "1 Queen\n1 Wizard\n",
        encoding="utf-8",
    )
    return str(path)


@pytest.mark.parametrize(
    ("game", "a", "b"),
    [
        ("revolt-n-reign", "legal-eagle-control", "legal-bison-pressure"),
        ("rival-realms", "legal-arcane-court", "legal-knights-and-keeps"),
        ("reign-absolute", "legal-elves-grove", "legal-empire-legion"),
    ],
)
def test_two_decks_of_a_two_player_game_are_played_seat_by_seat(game: str, a: str, b: str):
    report = simulate(game, [deck(game, a), deck(game, b)], "random,random")
    assert report["games"] == 2
    assert sum(side["wins"] for side in report["sides"]) + report["draws"] == 2
    names = [side["name"] for side in report["sides"]]
    assert names[0].startswith("A: ") and names[1].startswith("B: ")
    if game == "reign-absolute":
        assert report["setup"]["factions"] == ["elves", "empire"]
        assert "decks" not in report["setup"]
    else:
        assert [len(cards) for cards in report["setup"]["decks"]] == [
            60 if game == "revolt-n-reign" else 40
        ] * 2


def test_the_first_player_is_the_rulebooks_unless_a_deck_is_named():
    game = "rival-realms"
    decks = [deck(game, "legal-arcane-court"), deck(game, "legal-knights-and-keeps")]
    assert "first_player" not in simulate(game, decks, "random,random")["setup"]
    assert simulate(game, decks, "random,random", "--first", "b")["setup"]["first_player"] == 1
    with pytest.raises(CommandError, match="there is no deck c"):
        simulate(game, decks, "random,random", "--first", "c")


@pytest.mark.parametrize("count", [3, 4])
def test_reign_absolute_seats_three_or_four_factions(count: int):
    game = "reign-absolute"
    names = ["legal-elves-grove", "legal-empire-legion", "legal-azuma-shogunate"]
    names.append("legal-umbrous-shadows")
    report = simulate(game, [deck(game, n) for n in names[:count]], ",".join(["random"] * count))
    factions = ["elves", "empire", "azuma", "umbrous"][:count]
    assert report["setup"]["factions"] == factions
    assert [side["name"][:2] for side in report["sides"]] == [f"{x}:" for x in "ABCD"[:count]]
    assert sum(side["wins"] for side in report["sides"]) + report["draws"] == 2


def test_reign_absolute_refuses_two_decks_of_one_faction():
    game = "reign-absolute"
    elves = deck(game, "legal-elves-grove")
    with pytest.raises(CommandError, match="pick decks of two different factions"):
        simulate(game, [elves, elves], "random,random")


def test_alternating_seats_swaps_the_factions_with_the_agents(tmp_path: Path):
    game = "reign-absolute"
    decks = [deck(game, "legal-elves-grove"), deck(game, "legal-empire-legion")]
    log = tmp_path / "game.json"
    simulate(
        game,
        decks,
        "random,random",
        "--alternate-seats",
        "--log-game",
        "1",
        "--log-file",
        str(log),
    )
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["seats"] == [1, 0]
    assert record["setup"]["factions"] == ["empire", "elves"]


def test_regality_vs_religion_seats_decks_by_alignment_and_reads_the_variant(regality_old_style):
    game = "regality-vs-religion"
    religion = deck(game, "legal-religion-old-style")
    report = simulate(game, [religion, regality_old_style], "greedy,random", "--first", "a")
    # the decklists' "# variant: old-style" line, not the default standard variant
    assert report["setup"]["variant"] == "old-style"
    assert report["setup"]["first"] == "religion"  # deck A's side moves first
    # the engine's seat 0 is Regality: deck B sits there, with its agent
    assert [side["name"] for side in report["sides"]] == [
        "B: Crown, Old Style",
        "A: Hierophant's Flock, Old Style",
    ]
    assert [side["agent"] for side in report["sides"]] == ["random", "greedy"]
    # the rulebook's Preparations leave the starting player to the players: drawn at random
    assert simulate(game, [religion, regality_old_style], "random,random")["setup"]["first"] == (
        "random"
    )


def test_regality_vs_religion_refuses_decks_of_different_variants(regality_old_style):
    game = "regality-vs-religion"
    with pytest.raises(CommandError, match="different variants"):
        simulate(game, [deck(game, "legal-religion-draft"), regality_old_style], "random,random")
    with pytest.raises(CommandError, match="pick one Regality deck and one Religion deck"):
        simulate(game, [regality_old_style, regality_old_style], "random,random")


def test_a_decklist_with_a_variant_the_game_lacks_is_refused(tmp_path: Path):
    game = "regality-vs-religion"
    text = Path(deck(game, "legal-religion-old-style")).read_text(encoding="utf-8")
    odd = tmp_path / "odd.txt"
    odd.write_text(text.replace("old-style", "chess"), encoding="utf-8")
    with pytest.raises(CommandError, match="no variant 'chess'"):
        simulate(game, [str(odd), deck(game, "legal-regality-standard")], "random,random")


@pytest.mark.parametrize(("name", "lineup"), [("legal-starting-deck", 0), ("legal-full-setup", 1)])
def test_reggae_revolution_plays_one_deck_for_a_team_as_large_as_the_agents(name, lineup):
    game = "reggae-revolution"
    report = simulate(game, [deck(game, name)], "random,random,random")
    assert report["setup"]["players"] == 3
    assert bool(report["setup"].get("lineup")) == bool(lineup)
    team = report["team"]
    assert team["wins"] + team["losses"] <= 2
    assert [side["name"].rsplit(", ", 1)[1] for side in report["sides"]] == [
        "player 1",
        "player 2",
        "player 3",
    ]


def test_reggae_revolution_seats_one_player_per_deck_with_its_own_agent():
    game = "reggae-revolution"
    starting, full = deck(game, "legal-starting-deck"), deck(game, "legal-full-setup")
    report = simulate(game, [starting, full, starting], "team,random,team")
    assert report["setup"]["players"] == 3
    assert report["setup"].get("lineup")  # the full setup's lineup, though it is deck B
    assert [side["agent"] for side in report["sides"]] == ["team", "random", "team"]
    assert [side["name"].rsplit(", ", 1)[1] for side in report["sides"]] == [
        "player 1",
        "player 2",
        "player 3",
    ]
    assert report["team"]["wins"] + report["team"]["losses"] <= 2


def test_reggae_revolution_refuses_decks_that_are_not_the_team_and_a_team_too_large():
    game = "reggae-revolution"
    starting = deck(game, "legal-starting-deck")
    with pytest.raises(CommandError, match="A team of 3 takes one deck or 3 decks, not 2"):
        simulate(game, [starting, starting], "random,random,random")
    with pytest.raises(CommandError, match="team has 1 to 4 players"):
        simulate(game, [starting], ",".join(["random"] * 5))


def simulate_text(game: str, decks: list[str], agents: str, *extra: str) -> str:
    """Run the command with decklist files and return its text report."""
    options = [f"--deck-{'abcd'[index]}={path}" for index, path in enumerate(decks)]
    out = io.StringIO()
    call_command(
        "simulate", "--game", game, *options, "--agents", agents, "--seed", "3", *extra, stdout=out
    )
    return out.getvalue()


RNR_DECKS = ("legal-eagle-control", "legal-bison-pressure")


def test_seats_rotate_by_default_so_each_deck_moves_first_in_half_the_games():
    game = "revolt-n-reign"
    decks = [deck(game, name) for name in RNR_DECKS]
    report = simulate(game, decks, "random,random", "--first", "a", "--games", "4")
    assert report["alternate_seats"] is True
    # deck A sits in seat 0 (moving first) in games 0 and 2, deck B in games 1 and 3
    assert [side["moved_first"] for side in report["sides"]] == [2, 2]
    assert report["first_player"]["games"] == 4
    # by deck and by seat count the same games
    by_deck = sum(side["wins"] for side in report["sides"])
    assert by_deck == sum(seat["wins"] for seat in report["seats"]) == 4 - report["draws"]
    assert [seat["seat"] for seat in report["seats"]] == [0, 1]


def test_fixed_seats_keep_deck_a_first_in_every_game():
    game = "revolt-n-reign"
    decks = [deck(game, name) for name in RNR_DECKS]
    report = simulate(game, decks, "random,random", "--first", "a", "--games", "4", "--fixed-seats")
    assert report["alternate_seats"] is False
    assert [side["moved_first"] for side in report["sides"]] == [4, 0]
    # with fixed seats a deck's wins are its seat's
    assert [side["wins"] for side in report["sides"]] == [seat["wins"] for seat in report["seats"]]
    with pytest.raises(CommandError, match="not allowed with"):
        simulate(game, decks, "random,random", "--fixed-seats", "--alternate-seats")


def test_the_text_report_gives_results_by_deck_by_seat_and_for_the_first_player():
    game = "revolt-n-reign"
    decks = [deck(game, name) for name in RNR_DECKS]
    text = simulate_text(game, decks, "random,random", "--first", "a", "--games", "2")
    assert "seating: seats rotated" in text
    assert "by side (deck):" in text
    assert "A: Eagle Control (random):" in text and "B: " in text
    assert "moved first 1 times" in text
    assert "by seat:" in text and "seat 1 (player 0):" in text
    assert "first player:" in text
    fixed = simulate_text(game, decks, "random,random", "--games", "2", "--fixed-seats")
    assert "seating: fixed seats" in fixed


def test_three_reign_absolute_armies_rotate_round_the_table(tmp_path: Path):
    game = "reign-absolute"
    names = ["legal-elves-grove", "legal-empire-legion", "legal-azuma-shogunate"]
    log = tmp_path / "game.json"
    report = simulate(
        game,
        [deck(game, name) for name in names],
        "random,random,random",
        "--games",
        "3",
        "--log-game",
        "1",
        "--log-file",
        str(log),
    )
    record = json.loads(log.read_text(encoding="utf-8"))
    # game 1 seats side (s + 1) mod 3 in seat s: B, C, then A, each with its faction
    assert record["seats"] == [1, 2, 0]
    assert record["setup"]["factions"] == ["empire", "azuma", "elves"]
    assert sum(side["wins"] for side in report["sides"]) + report["draws"] == 3
    assert len(report["seats"]) == 3


def test_the_deck_options_are_checked_before_anything_is_played():
    game = "revolt-n-reign"
    eagle = deck(game, "legal-eagle-control")
    with pytest.raises(CommandError, match="one agent per deck"):
        simulate(game, [eagle, eagle], "random,random,random")
    with pytest.raises(CommandError, match="in order"):
        call_command("simulate", "--game", game, "--deck-a", eagle, "--deck-c", eagle)
    with pytest.raises(CommandError, match="played by 2 decks, not 3"):
        simulate(game, [eagle, eagle, eagle], "random,random,random")


def test_the_text_report_names_a_house_rule_the_setup_turns_on():
    # Rival Realms' Redraw discard is a house rule (docs/rules/rival-realms.md, ruling 23)
    out = io.StringIO()
    setup = '{"redraw_discard": true, "turn_limit": 6}'
    call_command("simulate", "--game", "rival-realms", "--games", "1", "--setup", setup, stdout=out)
    assert "Redraw discard (house rule)" in out.getvalue()
    out = io.StringIO()
    call_command("simulate", "--game", "rival-realms", "--games", "1", stdout=out)
    assert "house rule" not in out.getvalue()


def test_the_text_report_names_revolt_n_reign_house_rules_in_words():
    # docs/rules/revolt-n-reign.md, ruling 41: a Petition count other than the book's 4 is a
    # house rule, and so is once-a-turn activation; at the book's values nothing is named
    out = io.StringIO()
    setup = '{"petitions_needed": 3, "activated_once_per_turn": true, "turn_limit": 4}'
    call_command(
        "simulate", "--game", "revolt-n-reign", "--games", "1", "--setup", setup, stdout=out
    )
    assert "Petition Victory with 3 Petitions (house rule" in out.getvalue()
    assert "Activated effects once per turn (house rule" in out.getvalue()
    out = io.StringIO()
    setup = '{"petitions_needed": 4, "turn_limit": 4}'
    call_command(
        "simulate", "--game", "revolt-n-reign", "--games", "1", "--setup", setup, stdout=out
    )
    assert "house rule" not in out.getvalue()
