"""The agents' strength ladder (``rules.ladder``): the rating fit, the round robin's fairness,
the command and what it publishes."""

from __future__ import annotations

import io
import json
import math

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ladder as ladder_module
from rules.agents import parse_entrant, web_agent
from rules.engines.core import plugin_for, plugins
from rules.ladder import ELO, PRIOR_DRAWS, THE_GAME, Pairing, fit_ratings, play_ladder, play_one

RVR = "regality-vs-religion"


def test_two_agents_are_rated_by_the_odds_of_their_score():
    # 300 points of 400, plus the virtual draw: odds 300.5 : 100.5
    fitted = fit_ratings([Pairing("plan", "random", 400, 300.0, 0, 0)])
    elo, low, high = fitted["plan"]
    assert elo == pytest.approx(400 * math.log10(300.5 / 100.5), abs=1e-6)
    p = 300.5 / 401
    half = 1.959963984540054 * ELO / math.sqrt(401 * p * (1 - p))
    assert (low, high) == pytest.approx((elo - half, elo + half), abs=1e-6)
    assert fitted["random"] == (0.0, 0.0, 0.0)


def test_a_clean_sweep_has_a_finite_rating_and_an_interval():
    elo, low, high = fit_ratings([Pairing("alphabeta", "random", 50, 50.0, 0, 0)])["alphabeta"]
    assert math.isfinite(elo) and elo > 400
    assert low < elo < high


def test_entrants_the_games_do_not_connect_are_refused():
    with pytest.raises(ValueError, match="no games connect"):
        fit_ratings([Pairing("a", "random", 4, 2, 0, 0), Pairing("b", "c", 4, 2, 0, 0)])


scores = st.lists(st.integers(min_value=0, max_value=20), min_size=6, max_size=6)


@settings(max_examples=60, deadline=None)
@given(scores)
def test_the_fit_expects_each_entrant_to_score_what_it_scored(points):
    # Four entrants, every pair 20 games: at the maximum of the likelihood each entrant's
    # expected points equal its points (with the virtual draws), whatever the results.
    names = ["random", "greedy", "mcts", "plan"]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    pairings = [Pairing(a, b, 20, float(p), 0, 0) for (a, b), p in zip(pairs, points, strict=True)]
    fitted = fit_ratings(pairings)
    for name in names:
        expected = actual = 0.0
        for pairing in pairings:
            if name not in (pairing.first, pairing.second):
                continue
            other = pairing.second if name == pairing.first else pairing.first
            gap = (fitted[name][0] - fitted[other][0]) / ELO
            expected += (pairing.games + PRIOR_DRAWS) / (1 + math.exp(-gap))
            mine = pairing.points if name == pairing.first else pairing.games - pairing.points
            actual += mine + PRIOR_DRAWS / 2
        assert expected == pytest.approx(actual, abs=1e-6)
    # and naming the pairs the other way round changes nothing
    flipped = fit_ratings(
        [Pairing(p.second, p.first, p.games, 20 - p.points, 0, 0) for p in pairings]
    )
    for name in names:
        assert flipped[name] == pytest.approx(fitted[name], abs=1e-6)


def test_entrants_are_read_with_their_options_and_bad_ones_refused():
    assert parse_entrant("mcts(iterations=200, exploration=0.5)") == (
        "mcts",
        {"iterations": 200, "exploration": 0.5},
    )
    assert parse_entrant("greedy") == ("greedy", {})
    # true and false are booleans (a compiled agent refuses 0 and 1 for a bool option); a
    # word stays a word
    assert parse_entrant("greedy(advice=false, replies=2)") == (
        "greedy",
        {"advice": False, "replies": 2},
    )
    assert parse_entrant("team(policy=dig)") == ("team", {"policy": "dig"})
    for bad, words in (
        ("mcts(iterations)", "name=value"),
        ("mcts(iterations=3", "end with"),
        ("chess-engine", "unknown agent"),
    ):
        with pytest.raises(ValueError, match=words):
            parse_entrant(bad)
    with pytest.raises(ValueError, match="mcts has no option 'bogus'"):
        web_agent("mcts(bogus=1)", plugin_for(RVR))


def test_each_cycle_of_four_gives_each_agent_each_seat_and_deck():
    # Revolt N Reign's first sample pair: game k seats the first entrant in seat k % 2, and
    # games 2-3 play the decks mirrored; the points follow the seat that won.
    plugin = plugin_for("revolt-n-reign")
    outcomes = [play_one(plugin.slug, "greedy", "random", index, 5) for index in range(4)]
    for index, outcome in enumerate(outcomes):
        assert outcome.winning_seat in (0, 1)
        assert outcome.points == float(outcome.winning_seat == index % 2)
        assert outcome.seconds[0] and outcome.seconds[1]  # both sides decided, and were timed


@pytest.mark.parametrize("slug", ["revolt-n-reign", "rival-realms"])
def test_each_cycle_of_four_deals_the_first_entrant_each_deck_from_each_seat(slug):
    # dealt() is how play_pairing_game seats a game (and how bench/defaults.py reports the
    # default's score by deck): within a cycle one setup, every (deck, seat) pair once.
    plugin = plugin_for(slug)
    setups = ladder_module.two_seat_setups(plugin)
    for cycle in range(2 * len(setups)):
        seen = set()
        for index in range(4 * cycle, 4 * cycle + 4):
            number, setup, seat = ladder_module.dealt(plugin, index)
            assert number == cycle % len(setups) and seat == index % 2
            decks = setups[number]["decks"]
            seen.add((decks.index(setup["decks"][seat]), seat))
        assert seen == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_a_cooperative_game_is_dealt_its_setups_as_they_are():
    plugin = plugin_for("reggae-revolution")
    setups = ladder_module.two_seat_setups(plugin)
    dealt = [ladder_module.dealt(plugin, index) for index in range(8 * len(setups))]
    assert [setup for _, setup, _ in dealt] == [
        setups[(i // 4) % len(setups)] for i in range(len(dealt))
    ]


def test_a_ladder_is_reproducible_and_reports_every_pairing():
    first = play_ladder(RVR, 4, seed=3, entrants=["random", "greedy", "mcts(iterations=5)"])
    again = play_ladder(RVR, 4, seed=3, entrants=["random", "greedy", "mcts(iterations=5)"])
    assert [p.points for p in first.pairings] == [p.points for p in again.pairings]
    assert [(p.first, p.second) for p in first.pairings] == [
        ("random", "greedy"),
        ("random", "mcts(iterations=5)"),
        ("greedy", "mcts(iterations=5)"),
    ]
    for pairing in first.pairings:
        assert pairing.games == 4
        assert sum(pairing.seat_wins) + pairing.draws == 4
    by_name = {r.entrant: r for r in first.ratings}
    assert by_name["random"].elo == 0 and by_name["random"].games == 8
    assert all(r.decisions > 0 and r.cpu_p95_ms >= 0 for r in first.ratings)
    assert [r.elo for r in first.ratings] == sorted((r.elo for r in first.ratings), reverse=True)
    assert ladder_module.Ladder.from_dict(json.loads(json.dumps(first.as_dict()))) == first


def test_a_cooperative_ladder_plays_each_team_against_the_game():
    ladder = play_ladder("reggae-revolution", 3, entrants=["random", "team"])
    assert [(p.first, p.second) for p in ladder.pairings] == [
        ("random", THE_GAME),
        ("team", THE_GAME),
    ]
    assert {r.entrant for r in ladder.ratings} == {"random", "team", THE_GAME}
    assert ladder.cooperative and all(p.seat_wins == () for p in ladder.pairings)


def ladder_command(*args: str) -> str:
    out = io.StringIO()
    call_command("ladder", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_command_prints_and_publishes_the_ladder(tmp_path, monkeypatch):
    monkeypatch.setattr(ladder_module, "PUBLISHED", tmp_path / "ladders")
    docs = tmp_path / "agents.md"
    docs.write_text("# Agents\n\nIntro.\n")
    monkeypatch.setattr(ladder_module, "DOCS", docs)
    args = ("--game", RVR, "--games", "2", "--agents", "random,greedy")
    text = ladder_command(*args)
    assert "| 1 | greedy |" in text or "| 1 | random |" in text
    assert "| random vs greedy | 2 |" in text
    ladder_command(*args, "--publish")
    ladder_command(*args, "--publish")  # publishing again replaces the block
    written = docs.read_text()
    assert written.startswith("# Agents\n\nIntro.\n")
    assert written.count(f"<!-- ladder:{RVR} -->") == 1
    assert "| random vs greedy | 2 |" in written
    stored = ladder_module.published(RVR)
    assert stored is not None and {r.entrant for r in stored.ratings} == {"random", "greedy"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--game", "chess", "--games", "2"), "no game with an engine"),
        (("--game", RVR, "--games", "0"), "at least 1"),
        (("--game", RVR, "--games", "2", "--agents", "random,oracle"), "unknown agent 'oracle'"),
    ],
)
def test_the_command_explains_bad_input(args, words):
    with pytest.raises(CommandError, match=words):
        ladder_command(*args)


def test_a_ladder_with_alpha_beta_plays_only_the_variants_that_hide_nothing():
    # alpha-beta reads the whole position: Regality vs Religion's secret variants are left out
    engine = plugin_for(RVR).game()
    every = [s for s in engine.example_setups() if engine.num_players(s) == 2]
    ladder = play_ladder(RVR, 8, entrants=["random", "alphabeta(depth=1)"])
    open_ones = [s for s in every if engine.new_initial_state(0, s).is_perfect_information()]
    assert 0 < ladder.setups == len(open_ones) < len(every)
    assert play_ladder(RVR, 1, entrants=["random", "greedy"]).setups == len(every)


@pytest.mark.parametrize(
    "plugin", [p for p in plugins() if p.difficulty_levels], ids=lambda p: p.slug
)
def test_each_games_levels_are_rated_in_order_on_its_published_ladder(plugin):
    # The ladder /play/ shows (rules/ladders/<game>.json, bench/ladder.py --publish) rates
    # every level, and the levels climb with it; a co-operative game's level is the partners'
    # strength, so its easy level has the strongest partners.
    ladder = ladder_module.published(plugin.slug)
    assert ladder is not None, f"publish it: bench/ladder.py --game {plugin.slug} --publish"
    ratings = [ladder.rating_of(level.agent) for level in plugin.difficulty_levels.values()]
    assert all(ratings), "every level's agent is on the ladder"
    elos = [rating.elo for rating in ratings if rating]
    assert elos == sorted(elos, reverse=plugin.cooperative)
    assert list(plugin.difficulty_levels) == ["easy", "normal", "hard"]


def test_a_block_lands_in_its_section_and_is_replaced_in_place(tmp_path):
    # bench/defaults.py publishes each game's verdict under one heading of docs/agents.md; the
    # ladders add theirs at the end of the page.
    doc = tmp_path / "agents.md"
    doc.write_text("# Agents\n\n## Targets\n\nHow they are read.\n\n## The ladders\n\nTables.\n")
    ladder_module.write_block(doc, "defaults:toy", "toy: 60%", "Targets")
    ladder_module.write_block(doc, "ladder:toy", "ladder table")
    text = doc.read_text()
    assert text.index("toy: 60%") < text.index("## The ladders") < text.index("ladder table")
    ladder_module.write_block(doc, "defaults:toy", "toy: 65%", "Targets")
    again = doc.read_text()
    assert "toy: 60%" not in again and again.count("<!-- defaults:toy -->") == 1
    assert again.replace("toy: 65%", "toy: 60%") == text
    with pytest.raises(ValueError, match="no section 'Elsewhere'"):
        ladder_module.write_block(doc, "defaults:other", "x", "Elsewhere")


def test_each_game_records_the_seat_that_really_moved_first():
    # Rival Realms' first two sample setups name the first player (§Setup: random otherwise):
    # the ladder's record of who moved first must be that seat, whichever deck sits there.
    plugin = plugin_for("rival-realms")
    named = 0
    for index in range(8):
        _, setup, _ = ladder_module.dealt(plugin, index)
        outcome = play_one(plugin.slug, "team", "random", index, 2)
        assert outcome.first_mover in (0, 1)
        if "first_player" in setup:
            named += 1
            assert outcome.first_mover == setup["first_player"]
    assert named == 8  # both named setups come first, four games each


def test_a_ladder_reports_wins_by_seat_and_by_the_first_mover():
    ladder = play_ladder("revolt-n-reign", 8, seed=2, entrants=["random", "greedy"])
    (pairing,) = ladder.pairings
    outcomes = [play_one("revolt-n-reign", "random", "greedy", index, 2) for index in range(8)]
    won_games = [o for o in outcomes if o.winning_seat is not None]
    assert pairing.first_mover_games == len(won_games) == sum(pairing.seat_wins)
    assert pairing.first_mover_wins == sum(o.winning_seat == o.first_mover for o in won_games)
    assert list(pairing.seat_wins) == [
        sum(o.winning_seat == seat for o in outcomes) for seat in (0, 1)
    ]
    won, games = ladder.first_mover() or (None, None)
    assert (won, games) == (pairing.first_mover_wins, len(won_games))
    table = ladder.table()
    assert "| Wins by seat (0 / 1) | Won by the first mover |" in table
    assert (
        f"| {pairing.seat_wins[0]} / {pairing.seat_wins[1]} | {won} of 8 |"
        in table.splitlines()[-3]
    )
    drawn = 8 - sum(pairing.seat_wins)
    assert ladder.seat_summary() in table
    assert (
        f"seat 0 won {pairing.seat_wins[0]}, seat 1 won {pairing.seat_wins[1]}, {drawn} drawn; "
        f"whoever moved first won {won} of the {games} won games ({won / games:.1%}, 95% interval"
        in ladder.seat_summary()
    )
    assert ladder_module.Ladder.from_dict(json.loads(json.dumps(ladder.as_dict()))) == ladder


def test_a_ladder_stored_before_the_first_mover_was_counted_still_reads():
    ladder = play_ladder("revolt-n-reign", 4, seed=2, entrants=["random", "greedy"])
    data = ladder.as_dict()
    for pairing in data["pairings"]:
        del pairing["first_mover_games"], pairing["first_mover_wins"]
    old = ladder_module.Ladder.from_dict(data)
    assert old.first_mover() is None and old.seat_summary() == ""
    assert old.table().splitlines()[-1].endswith(" | n/a |")  # the seats are still shown


def test_a_cooperative_ladder_has_no_seats_to_report():
    ladder = play_ladder("reggae-revolution", 2, entrants=["team"])
    assert ladder.first_mover() is None and ladder.seat_summary() == ""
    assert "Wins by seat" not in ladder.table()


def test_a_measure_reports_the_first_entrants_score_by_seat_and_by_moving_first():
    # bench/defaults.py reports the default's score from each seat and moving first or second:
    # each game counts once from the seat dealt() gave the first entrant, and once by whether
    # that seat is the one the engine says moved first.
    plugin = plugin_for("revolt-n-reign")
    outcomes = [play_one(plugin.slug, "greedy", "random", index, 3) for index in range(8)]
    for index, outcome in enumerate(outcomes):
        assert outcome.seat == ladder_module.dealt(plugin, index)[2]
    scores = ladder_module.SeatScores.of(outcomes)
    for seat in (0, 1):
        mine = [o.points for o in outcomes if o.seat == seat]
        assert scores.seats[seat] == (sum(mine), len(mine)) and len(mine) == 4
    first = [o.points for o in outcomes if o.first_mover == o.seat]
    second = [o.points for o in outcomes if o.first_mover != o.seat]
    assert scores.moving == ((sum(first), len(first)), (sum(second), len(second)))
    low, high = ladder_module.wilson_interval(*scores.seats[0])
    sentence = scores.sentence("the default")
    assert sentence.startswith(
        f"the default scored {scores.seats[0][0]:g}/4 "
        f"({scores.seats[0][0] / 4:.1%}, 95% interval {low:.1%} to {high:.1%}) from seat 0 and "
    )
    assert f"{sum(first):g}/{len(first)} (" in sentence and sentence.endswith("moving second.")
    # a co-operative game's outcomes have no seat to report
    team = ladder_module.play_one("reggae-revolution", "team", THE_GAME, 0, 3)
    assert team.seat is None and ladder_module.SeatScores.of([team]).sentence("the team") == ""
