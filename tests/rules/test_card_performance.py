"""Card performance (``rules.cardstats``): win rates when drawn, played and not seen, with
Wilson intervals and sample sizes, from hand-made games, from the engines' own sightings, and
from a job's games whatever its chunk size; what "drawn" and "played" mean in every game, and
when the drawn figures only repeat the deck's win rate."""

from __future__ import annotations

import pytest

from rules.cardstats import (
    DEFAULT_SIGHTING_WORDS,
    card_figures,
    counts_add,
    drawn_every_game,
    game_card_counts,
    sighting_words,
)
from rules.engines.core.intervals import wilson_interval
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.lab.plans import matchup_plan
from rules.lab.selectors import simulation_job_report
from tests.rules.doctor_helpers import decks


def game(deck, drew, played):
    return {"deck": deck, "drew": drew, "played": played}


def test_hand_made_games_give_17lands_figures():
    deck = ["Ace", "Bee", "Cat"]
    games = [  # (side's cards, won)
        (game(deck, ["Ace", "Bee"], ["Ace"]), True),
        (game(deck, ["Ace"], []), True),
        (game(deck, ["Bee"], ["Bee"]), False),
        (game(deck, ["Bee", "Cat"], ["Bee", "Cat"]), False),
    ]
    counts: dict[str, int] = {}
    for cards, won in games:
        counts = counts_add(counts, game_card_counts(0, cards, won))
    figures = {figure.card: figure for figure in card_figures(counts)}
    ace, bee, cat = figures["Ace"], figures["Bee"], figures["Cat"]
    assert (ace.drawn.games, ace.drawn.wins, ace.drawn.win_rate) == (2, 2, 1.0)
    assert (ace.played.games, ace.played.wins) == (1, 1)
    assert (ace.unseen.games, ace.unseen.wins, ace.unseen.win_rate) == (2, 0, 0.0)
    assert ace.improvement_when_drawn == 1.0
    assert (bee.drawn.games, bee.drawn.wins, bee.played.games, bee.unseen.games) == (3, 1, 2, 1)
    assert bee.drawn.win_rate == pytest.approx(1 / 3, abs=1e-6)
    low, high = wilson_interval(1, 3)
    assert (bee.drawn.ci_low, bee.drawn.ci_high) == (round(low, 6), round(high, 6))
    # a card never seen in the games it was in has no drawn rate, and no gap
    assert (cat.drawn.games, cat.unseen.games) == (1, 3)
    assert cat.unseen.win_rate == pytest.approx(2 / 3, abs=1e-6)
    never = card_figures(game_card_counts(1, game(["Dud"], [], []), True))[0]
    assert never.drawn.win_rate is None and never.drawn.ci_low is None
    assert never.improvement_when_drawn is None and never.unseen.games == 1


def test_a_card_counts_once_a_game_and_drawn_includes_played():
    counts = game_card_counts(2, game(["Ace", "Ace", "Bee"], ["Bee"], ["Ace"]), False)
    figures = {figure.card: figure for figure in card_figures(counts)}
    assert figures["Ace"].drawn.games == figures["Ace"].played.games == 1
    assert figures["Ace"].unseen.games == 0 and figures["Bee"].played.games == 0


def rows_of(games):
    """The figures of one deck's hand-made games, as a job's report gives them."""
    counts: dict[str, int] = {}
    for cards, won in games:
        counts = counts_add(counts, game_card_counts(0, cards, won))
    return [figure.as_dict() for figure in card_figures(counts)]


def test_a_deck_whose_every_card_is_drawn_in_every_game_has_drawn_figures_of_no_use():
    deck = ["Ace", "Bee"]
    always = rows_of([(game(deck, deck, ["Ace"]), True), (game(deck, deck, []), False)])
    assert drawn_every_game(always)
    assert {row["drawn"]["win_rate"] for row in always} == {0.5}  # the deck's own
    once_unseen = rows_of([(game(deck, deck, []), True), (game(deck, ["Ace"], []), False)])
    assert not drawn_every_game(once_unseen)
    # a card dealt in only one game, drawn there: its figures are not the deck's
    extra = rows_of(
        [(game(deck, deck, []), True), (game([*deck, "Cat"], [*deck, "Cat"], []), False)]
    )
    assert not drawn_every_game(extra)
    assert not drawn_every_game([])


def test_every_game_says_what_drawn_and_played_mean():
    from rules.engines.core import plugins

    for plugin in plugins():
        words = sighting_words(plugin.slug)
        assert words is not DEFAULT_SIGHTING_WORDS, f"{plugin.slug} has no words of its own"
        assert words.drawn and words.played
    assert "§Setup deploys every Unit" in sighting_words("reign-absolute").always_drawn
    assert sighting_words("no-such-game") is DEFAULT_SIGHTING_WORDS


@pytest.mark.parametrize("seed", [1, 2])
def test_engines_sightings_are_nested_and_name_the_decks_cards(seed):
    from pathlib import Path

    from rules.engines.core import plugin_for
    from rules.engines.core.records import read_fixture_records
    from rules.simulation import run

    for slug in ("revolt-n-reign", "rival-realms"):
        engine = plugin_for(slug).game(read_fixture_records(Path("fixtures") / slug))
        setup = engine.example_setups()[0]
        report = run(engine, setup, ["random", "random"], 1, seed, card_sightings=True)
        sides = report.game_summaries[0]["cards"]
        assert sides is not None and len(sides) == 2, slug
        for side in sides:
            assert set(side["played"]) <= set(side["drew"]) <= set(side["deck"]), slug
            assert side["played"], slug


def test_a_jobs_card_figures_do_not_depend_on_its_chunks(toy_duel, deck_owner):
    sun, moon = decks(deck_owner)
    plan = matchup_plan(decks=[sun, moon], agents=["greedy", "greedy"], games=12)
    reports = []
    for size in (1, 5, 12):
        job = simulation_job_create(
            kind="matchup", plan=plan, owner=deck_owner, seed=4, chunk_size=size, dispatch=False
        )
        job = simulation_job_play_inline(job_id=job.pk)
        reports.append(simulation_job_report(job)["cards"])
    assert reports[0] == reports[1] == reports[2]
    rows = {(row["label"], row["card"]): row for row in reports[0]}
    assert {card for label, card in rows if label == "Sun"} == {
        "Dawn One",
        "Noon Three",
        "Blaze Five",
    }
    for row in rows.values():  # every card of a deck is drawn or not seen in each of its games
        assert row["drawn"]["games"] + row["unseen"]["games"] == 12
        assert row["played"]["games"] <= row["drawn"]["games"]
