"""Matchups from decklist files: validated decks, turns, first-player figures, exported games."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.agents import MCTSAgent
from rules.engines.core import Rng, get_game
from rules.matchups import DeckFileError, matchup_setup, read_deck_file
from rules.simulation import replay_record, run

SLUG = "revolt-n-reign"
DECKS = Path(__file__).resolve().parents[2] / "fixtures" / "decks" / SLUG
EAGLE = DECKS / "legal-eagle-control.txt"
BISON = DECKS / "legal-bison-pressure.txt"
SCROLL = DECKS / "legal-scroll-petitions.txt"


@pytest.mark.django_db
def test_a_legal_decklist_file_becomes_sixty_card_names():
    deck = read_deck_file(SLUG, EAGLE)
    assert deck.label == "Eagle Control"
    assert len(deck.cards) == 60
    assert deck.cards.count("Signal Ridge") == 6


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("illegal-bill-cap.txt", r"illegal deck: bill-cap: .*\(line 51"),
        ("illegal-unknown-card.txt", r"unknown-card: .*line 56"),
        ("illegal-deck-size.txt", "illegal deck"),
    ],
)
def test_an_illegal_deck_is_refused_with_its_violations_and_file(name, expected):
    with pytest.raises(DeckFileError, match=expected) as caught:
        read_deck_file(SLUG, DECKS / name)
    assert name in str(caught.value)


@pytest.mark.django_db
def test_unreadable_files_name_the_file_and_line(tmp_path):
    with pytest.raises(DeckFileError, match=r"missing\.txt: cannot read"):
        read_deck_file(SLUG, tmp_path / "missing.txt")
    broken = tmp_path / "broken.txt"
    broken.write_text("1 Stamp Act\nthis is not a card line at all 0\n", encoding="utf-8")
    with pytest.raises(DeckFileError, match=r"broken.txt: .*line"):
        read_deck_file(SLUG, broken)


@pytest.mark.django_db
def test_a_matchup_reports_turns_endings_and_the_first_player():
    setup, decks, seats = matchup_setup(SLUG, [EAGLE, BISON])
    assert seats == (0, 1)
    report = run(
        SLUG,
        setup,
        ["random", "random"],
        6,
        seed=4,
        alternate_seats=True,
        side_names=[deck.label for deck in decks],
    )
    again = run(
        SLUG,
        setup,
        ["random", "random"],
        6,
        seed=4,
        alternate_seats=True,
        side_names=[deck.label for deck in decks],
    )
    assert report.to_json() == again.to_json()
    assert [side.name for side in report.sides] == ["Eagle Control", "Bison Pressure"]
    assert sum(side.wins for side in report.sides) + report.draws == 6
    assert report.turns_mean is not None and 1 <= report.turns_min <= report.turns_max
    assert report.first_player is not None and report.first_player.games == 6
    first = report.first_player
    assert first.wins + first.losses + first.draws == 6
    assert first.ci_low <= first.win_rate <= first.ci_high
    assert sum(sum(counts.values()) for counts in report.end_reasons_by_side.values()) == 6


def test_engines_without_hooks_report_no_turns():
    report = run("regality-vs-religion", {"variant": "draft"}, ["random", "random"], 3, seed=1)
    assert report.turns_mean is None and report.turns_min is None
    # Regality vs Religion names its starting seat (first_player), so that part is reported
    assert report.first_player is not None and report.first_player.games == 3


def test_alternating_seats_swaps_agents_and_keeps_sides():
    game = get_game(SLUG)
    setup = game.example_setups()[0]
    # side 0 always plays a one-iteration MCTS; the logged odd game must show it in seat 1
    report = run(
        game,
        setup,
        [lambda seed: MCTSAgent(seed, iterations=1), "random"],
        2,
        seed=3,
        alternate_seats=True,
        log_game=1,
    )
    assert report.game_log is not None and report.game_log["seats"] == [1, 0]
    winner = report.game_log["winner"]
    if winner is not None:
        assert report.results[1] == report.game_log["seats"][winner]


@pytest.mark.django_db
def test_an_exported_game_replays_to_the_same_end(tmp_path):
    log_file = tmp_path / "game.json"
    out = io.StringIO()
    call_command(
        "simulate",
        "--game",
        SLUG,
        "--deck-a",
        str(SCROLL),
        "--deck-b",
        str(EAGLE),
        "--agents",
        "greedy,random",
        "--games",
        "2",
        "--seed",
        "6",
        "--log-game",
        "1",
        "--log-file",
        str(log_file),
        "--json",
        stdout=out,
    )
    report = json.loads(out.getvalue())
    assert report["games"] == 2 and report["turns_mean"] is not None
    record = json.loads(log_file.read_text(encoding="utf-8"))
    assert record["actions"] and record["events"]
    game = get_game(SLUG)
    replayed = replay_record(record, game)
    assert replayed.is_terminal()
    assert replayed.returns() == record["returns"]
    assert replayed.end_reason() == record["end_reason"]
    assert [event.as_dict() for event in replayed.events] == record["events"]
    assert [(p, str(a)) for p, a in replayed.history] == [
        (item["player"], item["action"]) for item in record["actions"]
    ]


@pytest.mark.django_db
def test_the_command_refuses_an_illegal_deck_with_its_violations():
    with pytest.raises(CommandError, match=r"illegal-copy-limit.txt: illegal deck"):
        call_command(
            "simulate",
            "--game",
            SLUG,
            "--deck-a",
            str(DECKS / "illegal-copy-limit.txt"),
            "--deck-b",
            str(EAGLE),
            stdout=io.StringIO(),
        )
    with pytest.raises(CommandError, match="go together"):
        call_command("simulate", "--game", SLUG, "--deck-a", str(EAGLE), stdout=io.StringIO())


def test_the_rollout_hooks_play_legal_moves_and_score_inside_the_range():
    game = get_game(SLUG)
    state = game.new_initial_state(5, game.example_setups()[1]).quiet()
    rng = Rng(2)
    while not state.is_terminal():
        action = state.rollout_action(rng)
        assert action in state.legal_actions()
        for player in (0, 1):
            assert -1.0 < state.rollout_value(player) < 1.0
        state.apply(action)
    assert state.rollout_value(state.winner()) == 1.0


def test_mcts_still_plays_full_random_rollouts_when_asked():
    game = get_game(SLUG)
    state = game.new_initial_state(7, game.example_setups()[2])
    agent = MCTSAgent(seed=1, iterations=4, rollout_turns=None, rollout_policy=False)
    for _ in range(5):
        action = agent.act(state)
        assert action in state.legal_actions()
        state.apply(action)


# -- fair seats (issue 16) ------------------------------------------------------------------------


def test_seat_order_rotates_every_side_through_every_seat():
    from rules.simulation import seat_order

    assert [seat_order(3, game, rotate=True) for game in range(4)] == [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 1, 2],
    ]
    assert seat_order(2, 1, rotate=True) == [1, 0]
    assert seat_order(3, 1, rotate=False) == [0, 1, 2]


def test_plugins_rotate_their_per_seat_setup_with_the_seats():
    from rules.engines.core import plugin_for

    reign = plugin_for("reign-absolute")
    setup = {"factions": ["elves", "empire", "azuma"], "first_player": 0}
    # game 1 seats side 1 in seat 0: its faction goes there, the first seat stays the first
    assert reign.rotate_seats(setup, 1, 3) == {
        "factions": ["empire", "azuma", "elves"],
        "first_player": 0,
    }
    assert reign.rotate_seats(setup, 3, 3) == setup
    assert reign.rotate_seats({"factions": ["elves", "azuma"]}, 1, 2) == {
        "factions": ["azuma", "elves"]
    }
    rival = plugin_for("rival-realms")
    assert rival.rotate_seats({"decks": [["a"], ["b"]]}, 1, 2) == {"decks": [["b"], ["a"]]}
    # Regality vs Religion: the seats are alignments, so the agents change sides, not the setup
    regality = plugin_for("regality-vs-religion")
    assert regality.rotate_seats({"variant": "standard", "first": "religion"}, 1, 2) == {
        "variant": "standard",
        "first": "religion",
    }


@pytest.mark.parametrize("games", [2, 4, 6])
def test_with_two_seats_and_2k_games_each_side_moves_first_k_times(games):
    report = run(
        SLUG, {"first_player": 0}, ["random", "random"], games, seed=8, alternate_seats=True
    )
    assert [side.moved_first for side in report.sides] == [games // 2, games // 2]
    assert report.first_player is not None and report.first_player.games == games
    assert sum(side.first_wins for side in report.sides) == report.first_player.wins
    # by seat and by side count the same games
    assert sum(s.wins for s in report.seats) == sum(s.wins for s in report.sides)
    assert report.seats[0].wins == report.first_player.wins  # seat 0 always moves first
    fixed = run(SLUG, {"first_player": 0}, ["random", "random"], games, seed=8)
    assert [side.moved_first for side in fixed.sides] == [games, 0]


def test_rotating_reports_are_deterministic_for_a_seed_and_count_by_seat_and_by_side():
    setup = {"factions": ["elves", "empire", "azuma"]}
    one = run("reign-absolute", setup, ["random"] * 3, 3, seed=2, alternate_seats=True)
    two = run("reign-absolute", setup, ["random"] * 3, 3, seed=2, alternate_seats=True)
    assert one.to_json() == two.to_json()
    assert [game["seats"] for game in one.game_summaries] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert one.alternate_seats and len(one.seats) == 3
    decided = 3 - one.draws
    assert sum(s.wins for s in one.sides) == sum(s.wins for s in one.seats) == decided
    for side in one.sides:
        assert side.ci_low <= side.win_rate <= side.ci_high


def test_a_game_played_on_its_own_rotates_as_its_number_in_the_run():
    whole = run(SLUG, {"first_player": 0}, ["random", "random"], 3, seed=5, alternate_seats=True)
    alone = run(
        SLUG,
        {"first_player": 0},
        ["random", "random"],
        1,
        seed=5,
        alternate_seats=True,
        start_index=1,
    )
    assert alone.game_summaries[0]["seats"] == whole.game_summaries[1]["seats"] == [1, 0]


def test_a_cooperative_team_is_never_rotated():
    report = run("reggae-revolution", {"players": 3}, ["team"] * 3, 2, seed=1, alternate_seats=True)
    assert report.alternate_seats is False
    assert all(game["seats"] == [0, 1, 2] for game in report.game_summaries)


def test_reggae_revolution_seats_one_player_per_deck_or_the_whole_team_with_one():
    from rules.engines.core import DeckCards, SetupError, plugin_for

    plugin = plugin_for("reggae-revolution")
    starters = DeckCards("Starters", ({"name": "Peace", "zone": ""},))
    full = DeckCards(
        "Full", ({"name": "Peace", "zone": ""}, {"name": "Dub Poet", "zone": "lineup"})
    )
    assert plugin.matchup_setup([starters], players=3).seats == (0, 0, 0)
    plan = plugin.matchup_setup([starters, full, starters], players=3)
    assert plan.seats == (0, 1, 2)
    assert plan.setup == {"players": 3, "lineup": ["Dub Poet"]}
    with pytest.raises(SetupError, match="one deck or 3 decks, not 2"):
        plugin.matchup_setup([starters, full], players=3)


def test_the_best_agent_of_each_game_is_its_matchup_default():
    from rules.engines.core import plugin_for

    assert plugin_for("revolt-n-reign").matchup_agents[0] == "plan"
    assert plugin_for("reggae-revolution").matchup_agents[0] == "team"
    assert plugin_for("regality-vs-religion").matchup_agents[0] == "alphabeta"
