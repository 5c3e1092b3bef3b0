"""Test hands for Regality vs Religion: a side and its neutral tiles, played greedily against random.

Decks are the sample decklists of ``fixtures/decks/regality-vs-religion``, turned into one record
per tile (the shape ``Card.record()`` gives, plus the DeckCard zone) from the engine's built-in
copy of the tile list, which a data test proves equal to the database; one test here plays
database records too.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import make_agent
from rules.engines.core import SetupError, plugin_for
from rules.engines.regality_vs_religion.hands import goldfish
from rules.engines.regality_vs_religion.tiles import builtin_records
from tests.rules.hands_helpers import assert_seeded, deck_records, within_95

SLUG = "regality-vs-religion"
HANDS = plugin_for(SLUG).hands()
assert HANDS is not None
# the model plays agents, which sit above the engines: they are passed in (``uses_agents``)
sample = partial(HANDS.sample, make_agent=make_agent)
walk = partial(HANDS.walk, make_agent=make_agent)
RECORDS = {record["name"]: record for record in builtin_records()}
OTHER_NEUTRALS = 16 - 2  # neutral tiles but the Citizen, less the deck's two


def tile_records(filename: str) -> list[dict[str, Any]]:
    """One record per tile of a sample decklist, each with its zone."""
    return deck_records(SLUG, filename, RECORDS)


STANDARD = tile_records("legal-regality-standard.txt")
RANDOM = tile_records("legal-regality-secret-random.txt")
DRAFT = tile_records("legal-religion-draft.txt")
OLD_STYLE = tile_records("legal-religion-old-style.txt")


def test_no_hand_is_drawn_so_nothing_is_ever_sent_back():
    assert HANDS.policies() == ["never"] and HANDS.default_policy == "never"
    opening = walk(STANDARD, seed=0)
    assert not opening.can_mulligan and not opening.kept
    assert walk(STANDARD, seed=0, mulligans=2, kept=True) == walk(STANDARD, seed=0, kept=True)
    with pytest.raises(ValueError, match="unknown mulligan policy"):
        sample(STANDARD, n=1, mulligan_policy="london")


@pytest.mark.parametrize(
    ("deck", "variant", "side", "first"),
    [
        (STANDARD, "standard", "regality", True),
        (RANDOM, "random", "regality", True),
        (DRAFT, "draft", "religion", False),
        (OLD_STYLE, "old-style", "religion", False),
    ],
)
def test_the_neutral_tiles_name_the_variant_and_the_citizen_names_the_starting_player(
    deck, variant, side, first
):
    # Preparations: the starting player holds the Citizen; Game system options: how many neutrals.
    report = sample(deck, n=4, seed=0)
    assert (report.variant, report.side, report.first) == (variant, side, first)
    figures = dict(report.figures)
    assert figures["You play"] == f"{side.title()}, going {'first' if first else 'second'}"


def test_the_same_seed_gives_the_same_report():
    assert_seeded(sample, RANDOM, n=15, seed=3)


def test_the_starting_side_always_places_the_citizen_first():
    # How to play: the first turn must place the Citizen.
    report = sample(STANDARD, n=20, seed=0)
    assert report.tiles["Citizen"]["placed"] == 1.0
    opening = walk(STANDARD, seed=0)
    assert not [line for line in opening.log if " place" in line]
    assert dict(opening.counters)["Placements"] == "0"
    second = walk(OLD_STYLE, seed=0)
    assert next(line for line in second.log if " place" in line).startswith(
        "The rival places Citizen on"
    )
    assert dict(second.counters)["Placements"] == "1"


def test_the_rivals_neutral_tiles_are_drawn_uniformly_from_the_others():
    # Random: two tiles each; the deck holds Death and Tower, the rival draws 2 of the other 14.
    games = 150
    report = sample(RANDOM, n=games, seed=0)
    assert sum(report.rival_neutrals.values()) == 2 * games
    assert not {"Death", "Tower", "Citizen"} & set(report.rival_neutrals)
    assert len(report.rival_neutrals) == OTHER_NEUTRALS
    dragon = report.rival_neutrals["Dragon"] / games
    assert within_95(dragon, 2 / OTHER_NEUTRALS, games)


def test_the_figures_say_what_the_sampled_games_did():
    # How often the greedy side wins is measured in bench/ (bench/ladder.py, 200 games and
    # more); here the figures must agree with the games sampled, whoever won them.
    report = sample(STANDARD, n=8, seed=0)
    figures = dict(report.figures)
    assert 0 <= report.won <= 8
    sign = "+" if report.mean_margin > 0 else "-" if report.mean_margin < 0 else ""
    assert figures["Mean ally margin at the end"].startswith(sign)
    assert set(report.tiles) == {r["name"] for r in STANDARD}
    for rates in report.tiles.values():
        assert 0 <= rates["placed"] <= 1 and 0 <= rates["removed"] <= 1
    # The opening is everything the side may place: its own tiles and the neutral area.
    assert report.opening_hands[0] == sorted(r["name"] for r in STANDARD)
    assert report.as_dict()["figures"] == [list(row) for row in report.figures]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 5))
def test_a_walk_replays_and_each_turn_places_one_tile_of_the_hand(seed, turns):
    before = walk(STANDARD, seed=seed, turns=turns)
    assert walk(STANDARD, seed=seed, turns=turns) == before
    after = walk(STANDARD, seed=seed, turns=turns + 1)
    if before.finished:
        assert after == before
        return
    assert after.turns == turns + 1
    placed = next(line for line in after.log if line.startswith("You place "))
    placed = placed.removeprefix("You place ").split(" on ")[0]
    offered = before.hand + dict(before.zones).get("Neutral area", [])
    assert placed in offered
    # No tile of this deck brings a tile back, so the hand only shrinks: by the tile placed.
    if placed in before.hand:
        expected = list(before.hand)
        expected.remove(placed)
        assert after.hand == expected
    else:
        assert after.hand == before.hand


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), deck=st.sampled_from([STANDARD, RANDOM, DRAFT, OLD_STYLE]))
def test_a_walk_to_the_end_reports_an_outcome_that_matches_the_board(seed, deck):
    end = walk(deck, seed=seed, turns=20)
    assert end.finished and end.phase == "Game over" and end.outcome
    # the log's last line says how the game ended, in the plugin's words
    assert end.log[-1].startswith(("Regality wins: ", "Religion wins: ", "The game ends in a draw"))
    counters = dict(end.counters)
    ours, theirs = int(counters["Your allies"]), int(counters["Rival's allies"])
    assert ours + theirs <= 9
    if "the board is full" in end.outcome:
        assert end.outcome.startswith("You won" if ours > theirs else "You lost")
        assert len(dict(end.zones)["Board"]) == 3


def test_the_board_is_drawn_from_the_sides_seat():
    regality = dict(walk(STANDARD, seed=0).zones)["Board"]
    religion = dict(walk(OLD_STYLE, seed=0).zones)["Board"]
    assert [row.split()[0] for row in regality] == ["a3", "a2", "a1"]
    assert [row.split()[0] for row in religion] == ["c1", "c2", "c3"]


def test_draft_the_starting_player_does_not_keep_three_neutral_tiles():
    # Draft: the starting player picks two tiles, the second player ends with three. A deck of
    # three draft tiles plays second; holding the Citizen too would make it start with three.
    starting = [*DRAFT, {**RECORDS["Citizen"], "zone": "side"}]
    with pytest.raises(SetupError, match=r"starting player .* ends with 2 neutral tiles"):
        goldfish(starting)
    second = goldfish(DRAFT)
    assert (second.variant, second.first, second.side) == ("draft", 0, 1)
    assert len(second.area) == 7 + 3 and second.rival_draws == 2
    report = sample(DRAFT, n=4, seed=0)
    assert report.first is False


@pytest.mark.parametrize(
    ("filename", "message"),
    [
        ("illegal-mixed-alignment.txt", r"one alignment.*it holds regality, religion"),
        ("illegal-side-tiles.txt", r"lacks Wizard and holds 6"),
        ("illegal-neutral-count.txt", r"4 neutral tiles fit no variant"),
        ("illegal-copy-limit.txt", r"one of each tile \(Contents\): Samurai twice"),
        ("illegal-wrong-zone.txt", r"Citizen cannot be among the neutral tiles"),
        ("illegal-unknown-card.txt", r"there is no tile called 'Dragoon'"),
    ],
)
def test_a_deck_the_engine_cannot_play_is_refused_with_the_reason(filename, message):
    deck = tile_records(filename)
    with pytest.raises(SetupError, match=message):
        goldfish(deck)
    refused = walk(deck, seed=0)
    assert refused.error.startswith("Regality vs Religion cannot play this deck")
    assert not refused.hand and not refused.zones


@pytest.mark.django_db
def test_database_records_play_the_same_games_as_the_built_in_records():
    from cards.models import Card

    tiles = {c.name: c for c in Card.objects.filter(game__slug=SLUG)}
    deck = [{**tiles[r["name"]].record(), "zone": r["zone"]} for r in RANDOM]
    assert sample(deck, n=5, seed=1).as_dict() == sample(RANDOM, n=5, seed=1).as_dict()


def test_the_model_says_it_needs_agents_when_none_are_passed():
    assert HANDS.uses_agents
    with pytest.raises(ValueError, match="plays agents: pass make_agent"):
        HANDS.sample(STANDARD, n=1)
