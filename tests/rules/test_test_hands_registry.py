"""``rules.test_hands``: one entry point to every game's test-hands model, found by game slug."""

from __future__ import annotations

import json

import pytest

from rules import test_hands
from rules.engines.core import SetupError, plugin_for, registered_games
from rules.engines.core.hands import HandWalk
from rules.engines.regality_vs_religion.tiles import builtin_records
from rules.engines.reggae_revolution import fixture_records
from rules.engines.reign_absolute.hands import sample_deck as reign_deck
from rules.engines.revolt_n_reign import RevoltNReignGame
from rules.engines.revolt_n_reign.hands import HandReport
from rules.engines.rival_realms.hands import sample_deck as realms_deck
from tests.rules.hands_helpers import deck_records

RNR_DECK = [{**r, "zone": ""} for r in RevoltNReignGame().sample_deck("legal-scroll-petitions")]
DECKS = {
    "revolt-n-reign": RNR_DECK,
    "rival-realms": realms_deck("legal-arcane-court"),
    "reign-absolute": reign_deck("legal-elves-grove"),
    "reggae-revolution": deck_records(
        "reggae-revolution",
        "legal-starting-deck.txt",
        {r["name"]: r for r in fixture_records()},
    ),
    "regality-vs-religion": deck_records(
        "regality-vs-religion",
        "legal-regality-standard.txt",
        {r["name"]: r for r in builtin_records()},
    ),
}


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry's import cache, emptied for this test and restored after it."""
    monkeypatch.setattr(test_hands, "_loaded", {})


def test_every_game_with_a_model_here_is_listed() -> None:
    listed = test_hands.games()
    assert set(DECKS) <= set(listed)
    assert set(listed) <= set(registered_games())
    assert not test_hands.available("no-such-game")


def test_a_game_whose_module_does_not_import_is_not_listed(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    plugin = type(plugin_for("rival-realms"))
    monkeypatch.setattr(plugin, "hands_model", "rules.engines.rival_realms.no_hands_here:Hands")
    assert not test_hands.available("rival-realms")
    assert "rival-realms" not in test_hands.games()
    with pytest.raises(KeyError, match="no test-hands model for 'rival-realms'"):
        test_hands.sample(DECKS["rival-realms"], n=1, game="rival-realms")


def test_a_game_whose_model_is_not_a_hands_model_is_not_listed(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    plugin = type(plugin_for("rival-realms"))
    monkeypatch.setattr(plugin, "hands_model", "rules.engines.rival_realms.hands:Goldfish")
    assert not test_hands.available("rival-realms")


def test_a_game_without_a_plugin_or_without_a_model_is_not_listed(
    monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> None:
    assert not test_hands.available("unplugged")
    monkeypatch.setattr(type(plugin_for("reign-absolute")), "hands_model", None)
    assert not test_hands.available("reign-absolute")
    assert "reign-absolute" not in test_hands.games()


def test_policies_put_the_default_first_and_games_without_mulligans_offer_never() -> None:
    assert test_hands.policies("revolt-n-reign")[0] == "no-pillar"
    assert set(test_hands.policies("revolt-n-reign")) == {
        "no-pillar",
        "never",
        "two-to-five-pillars",
    }
    assert test_hands.policies("rival-realms") == ["never"]
    assert test_hands.policies("reign-absolute") == ["never"]
    assert test_hands.default_policy("reign-absolute") == "never"


def test_the_game_is_named_and_the_rest_may_be_positional() -> None:
    report = test_hands.sample(RNR_DECK, 3, 5, "never", game="revolt-n-reign")
    assert isinstance(report, HandReport)
    assert report.games == 3 and report.mulligan_rate == 0.0
    assert report == test_hands.sample(
        RNR_DECK, n=3, seed=5, mulligan_policy="never", game="revolt-n-reign"
    )


def test_an_unknown_policy_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown mulligan policy 'no-pillar'"):
        test_hands.sample(
            DECKS["rival-realms"], n=1, mulligan_policy="no-pillar", game="rival-realms"
        )


@pytest.mark.parametrize("game", sorted(DECKS))
def test_every_model_answers_the_protocol(game: str) -> None:
    deck = DECKS[game]
    report = test_hands.sample(deck, n=2, seed=9, game=game)
    assert report.games == 2 and sum(report.wins.values()) == 2
    assert report.figures and all(
        isinstance(label, str) and isinstance(value, str) for label, value in report.figures
    )
    assert set(report.win_turn) <= set(report.wins)
    json.dumps(report.as_dict())
    opening = test_hands.walk(game, deck, seed=9)
    assert isinstance(opening, HandWalk) and not opening.kept and not opening.error
    played = test_hands.walk(game, deck, seed=9, kept=True, turns=2)
    assert played.turns == 2 and played.log and played.counters
    assert played == test_hands.walk(game, deck, seed=9, kept=True, turns=2)


@pytest.mark.parametrize("game", sorted(DECKS))
def test_every_model_refuses_a_deck_missing_a_card(game: str) -> None:
    short = DECKS[game][1:]
    with pytest.raises(SetupError):
        test_hands.sample(short, n=1, game=game)
    assert test_hands.walk(game, short, seed=1).error
