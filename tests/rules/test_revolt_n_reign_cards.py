"""Revolt N Reign card data as the engine sees it: rendered rules text, the card check, decklists.

Every fixture card's ``rules_text`` must equal the text rendered from its effects, and every
fixture card must pass the engine's card check, so text, data and behaviour cannot drift apart.
"""

from __future__ import annotations

import copy

import pytest

from cards.checks import card_check_errors
from rules.engines.revolt_n_reign import (
    CardDataError,
    RevoltNReignGame,
    card_problems,
    card_spec,
    fixture_records,
    read_decklist,
    rules_text,
    sample_decks,
)
from rules.engines.revolt_n_reign.cards import fixture_rules_texts

RECORDS = fixture_records()
BY_NAME = {record["name"]: record for record in RECORDS}
TEXTS = fixture_rules_texts()


def test_fixture_has_178_cards() -> None:
    assert len(RECORDS) == 178


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_rules_text_is_rendered_from_effects(name: str) -> None:
    assert rules_text(BY_NAME[name]) == TEXTS[name]


def test_every_fixture_card_is_executable() -> None:
    assert {r["name"]: card_problems(r) for r in RECORDS if card_problems(r)} == {}


def test_every_used_op_trigger_and_counter_is_covered() -> None:
    used = {
        (effect["trigger"], action["op"])
        for record in RECORDS
        for effect in record["effects"]
        for action in effect["actions"]
    }
    specs = [card_spec(record) for record in RECORDS]
    parsed = {(e.trigger, a.op) for spec in specs for e in spec.effects for a in e.acts}
    assert parsed == used


def _with_effect(name: str, effect: dict) -> dict:
    record = copy.deepcopy(BY_NAME[name])
    record["effects"] = [effect]
    return record


@pytest.mark.parametrize(
    ("name", "effect", "message"),
    [
        (
            "Shays' Muster",
            {
                "trigger": "on_play",
                "actions": [{"op": "lose_lp_", "target": "opponent", "amount": 2}],
            },
            "cannot execute 'lose_lp_'",
        ),
        (
            "Right to Work",
            {"trigger": "each_turn", "actions": [{"op": "gain_lp", "amount": 2}]},
            "cannot use trigger 'each_turn'",
        ),
        (
            "Right to Work",
            {"trigger": "on_play", "actions": [{"op": "lose_lp", "target": "you", "amount": 2}]},
            "cannot target 'you'",
        ),
        (
            "Log Palisade",
            {
                "trigger": "activated",
                "cost": {"discard_self": True},
                "actions": [{"op": "draw", "amount": 1}],
            },
            "Forced Resolution",
        ),
        (
            "Freedom of Worship",
            {
                "trigger": "activated",
                "cost": {"ip": "X"},
                "actions": [{"op": "gain_lp", "amount": 2}],
            },
            "Pay X IP cost need each other",
        ),
        (
            "Right to Vote",
            {"trigger": "on_play", "actions": [{"op": "block", "target": "opponent_mill"}]},
            "needs a duration",
        ),
        (
            "Right to Vote",
            {
                "trigger": "on_play",
                "duration": "permanent",
                "actions": [{"op": "modify_ua_drain", "whose": "yours", "delta": -1}],
            },
            "no self harm",
        ),
    ],
)
def test_card_check_refuses_what_the_engine_cannot_execute(
    name: str, effect: dict, message: str
) -> None:
    record = _with_effect(name, effect)
    problems = card_problems(record)
    assert any(message in p for p in problems), problems
    with pytest.raises(CardDataError, match=name.replace("'", ".")):
        card_spec(record)


def test_card_check_is_registered_for_fixture_loading() -> None:
    # rules.apps registers the engine's check; the loader runs it on every card record.
    good = BY_NAME["Shays' Muster"]
    assert card_check_errors("revolt-n-reign", good) == []
    bad = _with_effect("Shays' Muster", {"trigger": "on_play", "actions": [{"op": "teleport"}]})
    errors = card_check_errors("revolt-n-reign", bad)
    assert errors and "Revolt N Reign engine cannot play this card" in errors[0]
    assert "'teleport'" in errors[0]


def test_sample_decks_read_to_sixty_cards() -> None:
    game = RevoltNReignGame()
    decks = sample_decks()
    assert sorted(decks) == [
        "legal-bison-pressure",
        "legal-eagle-control",
        "legal-scroll-petitions",
    ]
    for name in decks:
        cards = game.sample_deck(name)
        assert len(cards) == 60
        assert sum(1 for c in cards if c["type"] == "unconstitutional-act") == 3


def test_read_decklist_skips_comments_and_sections() -> None:
    text = "# name: x\n\n[Pillar]\n7 Printing Press\n1x Stamp Act\n"
    assert read_decklist(text) == [(7, "Printing Press"), (1, "Stamp Act")]
    with pytest.raises(CardDataError):
        read_decklist("Printing Press")


@pytest.mark.django_db
def test_fixture_loading_fails_on_a_card_the_engine_cannot_play(tmp_path) -> None:
    # The schema cannot see that a non-petition Rights card must resolve once (Ruling 7); the
    # engine's card check can, so loading stops with the card and the reason named.
    import shutil

    from cards.gamedata import GameDataError
    from cards.services import game_data_load
    from rules.engines.revolt_n_reign.cards import FIXTURE_DIR

    folder = tmp_path / "revolt-n-reign"
    shutil.copytree(FIXTURE_DIR, folder)
    rights = folder / "cards" / "05-rights.yaml"
    text = rights.read_text(encoding="utf-8")
    start = text.index("- name: Right to Work")
    end = text.index("trigger: on_play", start)
    rights.write_text(text[:end] + "trigger: each_turn" + text[end + 16 :], encoding="utf-8")
    with pytest.raises(GameDataError) as info:
        game_data_load(slug="revolt-n-reign", fixtures_dir=tmp_path)
    message = str(info.value)
    assert "Right to Work" in message
    assert "cannot use trigger 'each_turn'" in message


@pytest.mark.django_db
def test_engine_plays_with_the_database_records() -> None:
    from rules.adapters import engine_for
    from rules.engines.core import Rng

    game = engine_for("revolt-n-reign")
    assert len(game.records) == 178
    state = game.new_initial_state(3, game.example_setups()[2])
    rng = Rng(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.end_reason() and sum(state.zone_counts().values()) == 120
