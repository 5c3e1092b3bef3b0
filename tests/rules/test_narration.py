"""Readable logs: every game's events in plain words, grouped by turn (issue 18, point 2).

Real seeded games of every game, played by a random agent and by one that always takes the first
legal action, are narrated by the game's plug-in; the lines must read as words a player knows:
no engine ids or codes, no raw squares, no Python values, every card a card of the game, and each
turn's group holding only that turn's plays.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, card_key, get_game, plugin_for, registered_games
from rules.engines.core.narration import Narrator, TurnGroup, second_person

ROOT = Path(__file__).resolve().parents[2]
MAX_ACTIONS = 20_000
SEATS = ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
GAMES = sorted(registered_games())
#: the games that declare their own narrator (docs/engines.md: a narrator is optional)
NARRATED = [slug for slug in GAMES if plugin_for(slug).narrator is not None]
#: what a line may never show: engine codes (snake_case, kebab-case words), squares and ids
#: ("-2,-1", "[0, 1]", "targets 64"), Python values and reprs
RAW = re.compile(
    r"[a-z]+_[a-z]+|\b[a-z]+-[a-z]+-[a-z]+\b|\[|\]|\{|\}|-?\d+\s*,\s*-?\d+|\bNone\b|\bTrue\b"
    r"|\bFalse\b|\btargets\b|\bphase\b \w+_|<|>"
)
#: per game, the plays only the player whose turn it is makes (a game not listed: none)
OWN_TURN_KINDS = {
    "revolt-n-reign": {"pillar", "drain"},
    "rival-realms": {"attack"},
    "reggae-revolution": {"buy", "yay", "give", "obtain"},
    "regality-vs-religion": {"place"},
    "reign-absolute": {"move", "attack", "doom", "reinforce"},
}


def card_keys(slug: str) -> dict[str, str]:
    """The name of every card in the game's card data (what has a card page), by key."""
    keys = {}
    for path in (ROOT / "fixtures" / slug / "cards").glob("*.yaml"):
        for record in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            keys[card_key(record["name"])] = record["name"]
    return keys


def first_legal(state):
    return state.legal_actions()[0]


def play(slug: str, seed: int, agent: str):
    game = get_game(slug)
    state = game.new_initial_state(seed, game.example_setups()[0])
    chooser = RandomAgent(seed + 11).act if agent == "random" else first_legal
    for _ in range(MAX_ACTIONS):
        player = state.current_player()
        if player == TERMINAL:
            break
        state.apply(state.sample_chance() if player == CHANCE else chooser(state))
    return [event.as_dict() for event in state.event_log()]


def narrate(slug: str, events) -> list[TurnGroup]:
    """The events in words, with the card names a page passes (the game's card data)."""
    return plugin_for(slug).narrate(events, SEATS, card_keys(slug))


@pytest.mark.parametrize("slug", NARRATED)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20), agent=st.sampled_from(["random", "first"]))
def test_every_event_of_a_real_game_is_said_in_plain_words(slug, seed, agent):
    events = play(slug, seed, agent)
    groups = narrate(slug, events)
    known = card_keys(slug)
    lines = [line for group in groups for line in group.lines]
    assert lines, "a whole game says something"
    for line in lines:
        assert line.text.strip() and line.text[0].isupper(), line.text
        assert not RAW.search(line.text), f"{slug}: {line.text!r}"
        # the game's own narrator says every event (the shared fallback says "Seat 1: kind.")
        fallback = line.kind.replace("_", " ").replace("-", " ")
        assert not line.text.endswith(f": {fallback}."), f"{slug}: {line.text!r}"
        for card in line.cards:
            assert card.key in known, f"{slug}: {card.name!r} is no card of the game"
            assert card.name == known[card.key]


#: "you" with a third-person verb ("You plays", "you goes", "You is")
NOT_YOU = re.compile(r"\b[Yy]ou (?:[a-z]+ (?:\w+ )*and )?(?:[a-z]*[^s\W]s|is|has)\b")


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20))
def test_a_test_hands_log_speaks_to_you_in_the_second_person(slug, seed):
    events = play(slug, seed, "random")
    groups = plugin_for(slug).narrate(events, ["You", "The rival", "Player 3"], card_keys(slug))
    for line in (line for group in groups for line in group.lines):
        assert not NOT_YOU.search(line.text), f"{slug}: {line.text!r}"
        assert "; The rival" not in line.text and ", The rival" not in line.text, line.text


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20), agent=st.sampled_from(["random", "first"]))
def test_each_turn_group_holds_only_that_turn(slug, seed, agent):
    events = play(slug, seed, agent)
    groups = narrate(slug, events)
    turns = [group for group in groups if group.turn is not None]
    assert turns, "a whole game has turns"
    # headings count the turns one by one, each naming its number and who plays it
    assert [group.turn for group in turns] == list(range(1, len(turns) + 1))
    for group in turns:
        assert group.heading == f"Turn {group.turn}: {SEATS[group.player]}"
        # a play only the player whose turn it is makes is in that player's turn
        for line in group.lines:
            if line.kind in OWN_TURN_KINDS.get(slug, set()):
                assert line.player == group.player, (group.heading, line.text)
    # only the setup comes before the first turn, and it holds no turn's plays
    if groups[0].turn is None:
        assert groups[0].heading == "Setup"
        assert not [
            ln for ln in groups[0].lines if ln.kind in OWN_TURN_KINDS.get(slug, set()) - {"place"}
        ]
    # every describable event is said once: nothing is lost between the groups
    said = sum(len(group.lines) for group in groups)
    assert said == sum(
        1
        for event in events
        if plugin_for(slug).narration(SEATS).turn_of(event) is None
        and plugin_for(slug).narration(SEATS).describe(event)
    )


def test_you_are_spoken_to_in_the_second_person():
    narrator = Narrator(["You", "The rival"])
    assert narrator.does(0, "plays") == "You play"
    assert narrator.does(1, "passes") == "The rival passes"
    assert narrator.whose(0) == "your" and narrator.whose(1) == "the rival's"
    assert [second_person(v) for v in ("has", "is", "reaches", "carries")] == [
        "have",
        "are",
        "reach",
        "carry",
    ]


@pytest.mark.parametrize(
    ("slug", "player", "reason", "line"),
    [
        ("reign-absolute", 1, "last-liege", "The rival wins: the last Liege Unit in play."),
        ("reign-absolute", -1, "turn-limit", "The game ends: the turn limit was reached"),
        ("rival-realms", 0, "life", "You win: life down to 0."),
        ("rival-realms", None, "stalemate", "The game ends: stalemate: neither player"),
    ],
)
def test_the_end_of_a_game_says_who_won_and_why_or_that_no_one_did(slug, player, reason, line):
    plugin = plugin_for(slug)
    narrator = plugin.narration(["You", "The rival"])
    said = narrator.describe({"kind": "game_over", "player": player, "reason": reason})
    assert said is not None and len(said) == 1
    assert str(said[0]).startswith(line)


def test_a_card_key_is_named_from_the_card_names_given():
    narrator = Narrator(["Seat 1"], {"queen-cardinal": "Queen / Cardinal"})
    assert narrator.card("queen-cardinal").name == "Queen / Cardinal"
    assert narrator.card("warden-thornwood").name == "Warden Thornwood"
    assert narrator.card("Homestead Claim").key == "homestead-claim"


def test_the_board_positions_are_said_as_the_rulebooks_describe_them():
    from rules.engines.regality_vs_religion.narration import space as cell
    from rules.engines.reign_absolute.narration import space as square

    assert cell("b2") == "the centre space"
    # as the table draws the board: rank 1 (Regality's side) at the bottom
    assert cell("a1") == "the bottom-left space"
    assert cell("c3") == "the top-right space"
    assert square([0, 0]) == "the middle space of the Battlefield"
    assert square([-2, 1]) == "the space 2 left and 1 up from the middle"


def test_a_walk_calls_the_side_you_play_you_whichever_seat_it_is():
    from rules.engines.core.hands import walk_seats

    assert walk_seats(False) == ["You", "The rival", "Player 3", "Player 4"]
    # a Religion deck in Regality vs Religion sits in seat 1
    assert walk_seats(False, 1)[:2] == ["The rival", "You"]
    assert walk_seats(True) == ["You", "Player 2", "Player 3", "Player 4"]
    plugin = plugin_for("regality-vs-religion")
    events = [
        {"kind": "turn-start", "player": 0, "turn": 1},
        {"kind": "place", "player": 0, "tile": "citizen", "cell": "b2"},
        {"kind": "turn-start", "player": 1, "turn": 2},
        {"kind": "place", "player": 1, "tile": "temple", "cell": "a1"},
    ]
    groups = plugin.narrate(events, walk_seats(False, 1))
    assert [group.heading for group in groups] == ["Turn 1: The rival", "Turn 2: You"]
    assert [line.text for group in groups for line in group.lines] == [
        "The rival places Citizen on the centre space.",
        "You place Temple on the bottom-left space.",
    ]


def test_the_log_names_each_space_where_the_table_draws_it():
    """A log line and the table never disagree on where a space is (the table's grid rows run
    top to bottom, its columns left to right)."""
    from rules.engines.regality_vs_religion.narration import space
    from rules.engines.regality_vs_religion.table import rvr_table

    plugin = plugin_for("regality-vs-religion")
    state = plugin.game().new_initial_state(3, {"variant": "standard"})
    grid = rvr_table(state, None)["grid"]["cells"]
    rows = {1: "top", 2: "middle", 3: "bottom"}
    columns = {1: "left", 2: "middle", 3: "right"}
    assert len(grid) == 9
    for cell in grid:
        row, column = rows[cell["row"]], columns[cell["column"]]
        expected = "the centre space" if row == column == "middle" else f"the {row}-{column} space"
        assert space(cell["label"]) == expected, cell["label"]


def test_a_team_game_says_you_begin_when_you_move_first():
    """The sweeps above play each game's first sample setup, Reggae Revolution's for one player;
    with two the setup line gave the first player, you, a third-person verb ("you begins")."""
    game = get_game("reggae-revolution")
    state = game.new_initial_state(3, {"players": 2})
    events = [event.as_dict() for event in state.event_log()]
    lines = [
        line.text
        for group in plugin_for("reggae-revolution").narrate(
            events, ["You", "Player 2"], card_keys("reggae-revolution")
        )
        for line in group.lines
    ]
    assert "Two players play together; you begin." in lines
    assert not [line for line in lines if NOT_YOU.search(line)]
