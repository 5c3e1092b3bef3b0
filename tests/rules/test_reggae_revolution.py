"""The Reggae Revolution engine: setup, each phase, each end condition, rulings and playouts.

Hand-built positions start from ``table()``: every card of the game box in its home pile, the main
phase open. Tests then move named cards where they want them, so the box is always complete and
``zone_counts`` stays an honest check. Rulings in ``docs/rules/reggae-revolution.md`` name the tests
that pin them.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import web_agent
from rules.agents.base import Agent
from rules.engines.core import (
    TERMINAL,
    Action,
    IllegalActionError,
    Rng,
    SetupError,
    get_game,
    plugin_for,
)
from rules.engines.reggae_revolution import (
    ReggaeRevolutionGame,
    ReggaeState,
    greedy_action,
    team_value,
    winnability,
)
from rules.engines.reggae_revolution.cards import CardDataError, card_specs, fixture_records
from rules.engines.reggae_revolution.policy import colour_lacks, persuaders, plain_action
from rules.engines.reggae_revolution.state import LIMIT_REASON, LOSS_REASON, WIN_REASON
from rules.engines.reggae_revolution.table import reggae_table

GAME = ReggaeRevolutionGame()
BOX = 4 * 20 + 48 + 4 + 16 + 6 + 16  # starters, main, wild, villains, schemes, oppression
STARTERS = {
    "peace": "dove-badge",
    "love": "heart-patch",
    "unity": "linked-hands",
    "respect": "respect-nod",
}
END = Action("end")


# --- building positions --------------------------------------------------------------------
def table(players: int = 1, seed: int = 0) -> ReggaeState:
    """Every card in its home pile, nobody holding anything, the main phase of seat 0 open."""
    state = ReggaeState(GAME, seed, GAME.table, players)
    for card, spec in enumerate(GAME.table):
        if spec.type == "starter":
            assert spec.symbol is not None
            state.starter_piles[spec.symbol].append(card)
        elif spec.type in ("main", "wild"):
            state.main_deck.append(card)
        elif spec.type in ("villain", "scheme"):
            state.villain_deck.append(card)
        else:
            state.oppression.append(card)
    state.phase = "main"
    state.turn_limit = 200
    return state


def pull(state: ReggaeState, key: str) -> int:
    """Take one copy of a card out of its home pile."""
    for pile in (
        state.main_deck,
        state.villain_deck,
        state.oppression,
        *state.starter_piles.values(),
    ):
        for index, card in enumerate(pile):
            if state.table[card].key == key:
                return pile.pop(index)
    raise AssertionError(f"no {key} left in the home piles")


def put(state: ReggaeState, zone: list, *keys: str) -> list[int]:
    cards = [pull(state, key) for key in keys]
    zone.extend(cards)
    return cards


def villain(state: ReggaeState, key: str, gifts: int = 0) -> int:
    (card,) = put(state, state.villains, key)
    state.gifts[card] = [pull(state, "dove-badge") for _ in range(gifts)]
    return card


#: the villains that suppress respect: the only cards left in the villain deck of a position
#: where peace, love and unity are suppressed already (§Object: all four suppressed loses)
RESPECT_VILLAINS = ("chief-glare", "director-gilt", "the-ember-censor", "the-hedge-magistrate")


def only_respect_villains_left(state: ReggaeState) -> None:
    """Leave in the villain deck only the villains that suppress respect; the rest of it (the
    other villains and the schemes) goes to the destroyed pile, as if persuaded or resolved."""
    deadly = [c for c in state.villain_deck if state.table[c].key in RESPECT_VILLAINS]
    state.destroyed.extend(c for c in state.villain_deck if c not in deadly)
    state.villain_deck = deadly


def keys(state: ReggaeState, cards: list) -> list[str]:
    return sorted(state.table[c].key for c in cards if c is not None)


def box_total(state: ReggaeState) -> int:
    return sum(state.zone_counts().values())


def play(state: ReggaeState, text: str) -> None:
    state.apply(Action.parse(text))


def next_turn(state: ReggaeState, reveal: str = "curfew-sirens") -> None:
    """End the turn (Obtain) with ``reveal`` on top of the villain deck for the next one."""
    put(state, state.villain_deck, reveal)
    play(state, "end")


# --- setup --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_deals_decks_hands_lineup_piles_and_villain_deck(players: int) -> None:
    """Ruling "Setup: starter piles"."""
    state = GAME.new_initial_state(seed=7, setup={"players": players})
    assert state.phase == "setup" and state.current_player() == 0
    for player in range(players):
        deck = state.hand[player] + state.draw[player]
        assert len(state.hand[player]) == 6 and len(deck) == 12
        symbols = sorted(str(state.table[c].symbol) for c in deck)
        assert symbols == sorted(["peace", "love", "unity", "respect"] * 3)
    assert {s: len(p) for s, p in state.starter_piles.items()} == dict.fromkeys(
        STARTERS, 20 - 3 * players
    )
    assert all(card is not None for card in state.lineup) and len(state.lineup) == 6
    assert len(state.main_deck) == 52 - 6
    assert len(state.villain_deck) == 16 + 6 and len(state.oppression) == 16
    assert box_total(state) == BOX


def test_each_player_may_redraw_once_then_the_first_villain_phase_runs() -> None:
    """Ruling "Setup: one re-draw"."""
    state = GAME.new_initial_state(seed=11, setup={"players": 2})
    assert state.legal_actions() == [Action("keep"), Action("redraw")]
    play(state, "redraw")
    assert len(state.hand[0]) == 6 and len(state.draw[0]) == 6
    assert state.current_player() == 1
    play(state, "keep")
    assert state.phase in ("main", "villain", "over")
    assert not any(task[0] == "mulligan" for task in state.tasks)
    assert any(event.kind == "reveal" for event in state.event_log())


def test_setup_twelve_card_decks_six_card_hands_and_one_redraw_each() -> None:
    """§Setup, worked through: each player's twelve starters (three of each), shuffled, six in
    hand and six face down; the other starters in four piles; six face-up lineup cards from the
    shuffled main deck; the oppression pile; an empty destroyed pile and score area; a face-down
    villain deck; then, from the first player round the table, each may once trade the six in
    hand for six fresh ones from the shuffled twelve, before the first player's turn."""
    state = GAME.new_initial_state(seed=3, setup={"players": 3, "first_player": 1})
    starting = {}
    for player in range(3):
        starting[player] = sorted(state.hand[player] + state.draw[player])
        assert len(state.hand[player]) == 6 and len(state.draw[player]) == 6
        assert keys(state, starting[player]) == sorted([*STARTERS.values()] * 3)
        assert state.discard[player] == []
    assert {s: len(pile) for s, pile in state.starter_piles.items()} == dict.fromkeys(STARTERS, 11)
    view = state.observation(0)
    assert len(view["lineup"]) == 6 and None not in view["lineup"]  # face up
    assert view["main_deck"] == 52 - 6 and view["villain_deck"] == 22  # face down: counts only
    assert view["oppression_pile"] == 16 and view["destroyed"] == [] and view["scored"] == []
    assert {state.table[c].type for c in state.villain_deck} == {"villain", "scheme"}
    assert state.villains == [] and state.phase == "setup"

    assert state.current_player() == 1  # the first player decides first
    hand = list(state.hand[1])
    play(state, "keep")
    assert state.hand[1] == hand
    assert state.current_player() == 2
    play(state, "redraw")
    assert len(state.hand[2]) == 6 and sorted(state.hand[2] + state.draw[2]) == starting[2]
    assert state.current_player() == 0
    assert state.legal_actions() == [Action("keep"), Action("redraw")]
    play(state, "redraw")  # each player's one redraw; nobody is asked again
    assert not [task for task in state.tasks if task[0] == "mulligan"]
    assert state.active == 1 and state.turn == 1  # the first player's turn
    assert [e.player for e in state.event_log() if e.kind == "reveal"] == [1]
    assert box_total(state) == BOX


def test_setup_refuses_bad_tables() -> None:
    with pytest.raises(SetupError):
        GAME.new_initial_state(setup={"players": 5})
    with pytest.raises(SetupError):
        GAME.new_initial_state(setup={"players": 2, "first_player": 2})
    with pytest.raises(SetupError):
        GAME.new_initial_state(setup={"colour": "blue"})


def test_records_the_engine_cannot_play_are_refused() -> None:
    records = fixture_records()
    broken = [r for r in records if r["name"] != "Dove Badge"]
    with pytest.raises(CardDataError, match="one starter card per symbol"):
        card_specs(broken)
    bad_effect = [
        dict(r, effects=[{"op": "explode"}]) if r["type"] == "villain" else r for r in records
    ]
    with pytest.raises(ValueError, match="cannot use op 'explode'"):
        ReggaeRevolutionGame(bad_effect)


def test_registered_by_slug_and_co_operative() -> None:
    game = get_game("reggae-revolution")
    assert isinstance(game, ReggaeRevolutionGame)
    assert game.metadata()["cooperative"] is True
    assert (game.min_players, game.max_players) == (1, 4)


# --- villain phase ------------------------------------------------------------------------
def test_villain_arrives_resolves_its_effect_then_forces_matching_discards() -> None:
    """Ruling "Villain Phase: which cards the suppression discards"."""
    state = table(players=1)
    put(state, state.hand[0], "dove-badge", "dove-badge", "heart-patch", "rainbow-riddim")
    put(state, state.draw[0], "linked-hands")
    put(state, state.villain_deck, "commissioner-blaze")  # red, suppresses peace, destroys lineup 1
    state._refill_lineup()
    first = state.lineup[0]
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert keys(state, state.villains) == ["commissioner-blaze"]
    assert first in state.destroyed  # arrival effect: the first lineup card is destroyed
    # both peace cards are discarded; the wild card picks another symbol and stays
    assert keys(state, state.hand[0]) == ["heart-patch", "rainbow-riddim"]
    assert keys(state, state.discard[0]) == ["dove-badge", "dove-badge"]
    assert state.phase == "main" and state.current_player() == 0
    assert box_total(state) == BOX


def test_villain_phase_a_villain_joins_the_line_then_the_active_hand_loses_its_symbols() -> None:
    """§Villain Phase, worked through for a villain: revealed from the top of the villain deck,
    it goes into play face up in front of those already there; the active player carries out
    its effect, then discards every card in hand showing a symbol it suppresses (either of its
    two here); other players' hands are untouched."""
    state = table(players=2)
    waiting = villain(state, "inspector-bramble")  # already in play
    put(state, state.hand[0], "dove-badge", "heart-patch", "heart-patch", "linked-hands")
    put(state, state.hand[0], "respect-nod", "rainbow-riddim")
    put(state, state.hand[1], "dove-badge", "heart-patch")
    (marshal,) = put(state, state.villain_deck, "the-brass-marshal")  # peace, love; discard 1
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.villains == [marshal, waiting]  # the newcomer first, the other slid along
    assert state.observation(1)["villains"][0]["card"] == "the-brass-marshal"
    assert state.current_player() == 0 and state.tasks[0][0] == "discard"  # its effect first
    assert keys(state, state.hand[0]) == sorted(
        [
            "dove-badge",
            "heart-patch",
            "heart-patch",
            "linked-hands",
            "respect-nod",
            "rainbow-riddim",
        ]
    )
    play(state, "discard respect-nod")
    assert keys(state, state.hand[0]) == ["linked-hands", "rainbow-riddim"]
    assert keys(state, state.discard[0]) == sorted(
        ["respect-nod", "dove-badge", "heart-patch", "heart-patch"]
    )
    assert keys(state, state.hand[1]) == ["dove-badge", "heart-patch"]  # not the active player
    assert state.phase == "main" and state.suppressed_symbols() == {"peace", "love"}
    assert box_total(state) == BOX


def test_only_the_new_villain_forces_a_discard() -> None:
    """Ruling "Villain Phase: which cards the suppression discards"."""
    state = table(players=1)
    villain(state, "warden-thornwood")  # suppresses love, already in play
    put(state, state.hand[0], "heart-patch", "linked-hands")
    put(state, state.villain_deck, "agent-nettle")  # suppresses unity; its arrival: discard 1
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.legal_actions() == [
        Action("discard", ("heart-patch",)),
        Action("discard", ("linked-hands",)),
    ]
    play(state, "discard heart-patch")
    assert keys(state, state.discard[0]) == ["heart-patch", "linked-hands"]
    assert state.hand[0] == []


def test_a_scheme_resolves_once_and_goes_to_the_destroyed_pile() -> None:
    state = table(players=2)
    put(state, state.villain_deck, "curfew-sirens")  # each player gains an oppression card
    state.tasks = [("start_turn", 0)]
    state._settle()
    (scheme,) = [c for c in state.destroyed if state.table[c].key == "curfew-sirens"]
    assert state.villains == []
    assert [keys(state, state.discard[p]) for p in (0, 1)] == [["oppression-order"]] * 2
    assert len(state.oppression) == 14 and scheme in state.destroyed


def test_other_players_choose_their_own_discards() -> None:
    state = table(players=3)
    for player in range(3):
        put(state, state.hand[player], "dove-badge", "heart-patch")
    put(state, state.villain_deck, "sergeant-cinder")  # each other player discards a card
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.current_player() == 1
    play(state, "discard dove-badge")
    assert state.current_player() == 2
    play(state, "discard heart-patch")
    assert state.current_player() == 0 and state.phase == "main"
    assert keys(state, state.hand[0]) == ["dove-badge", "heart-patch"]


def test_villain_deck_is_rebuilt_from_destroyed_villains_and_schemes_only() -> None:
    """Ruling "Villain Phase: rebuilding the villain deck"."""
    state = table(players=1)
    returning = len(state.villain_deck)
    state.destroyed.extend(state.villain_deck)
    state.villain_deck = []
    put(state, state.destroyed, "street-choir")  # a destroyed main deck card stays destroyed
    state.tasks = [("reveal", 0)]
    state._settle()
    assert any(e.kind == "villain-deck-rebuilt" for e in state.event_log())
    revealed = (
        state.villains
        + state.revealing
        + [c for c in state.destroyed if state.table[c].type in ("villain", "scheme")]
    )
    assert len(state.villain_deck) + len(revealed) == returning
    assert {state.table[c].type for c in state.villain_deck} <= {"villain", "scheme", "oppression"}
    assert "street-choir" in keys(state, state.destroyed)
    assert box_total(state) == BOX


def test_villain_phase_the_villain_deck_is_rebuilt_in_the_phase_it_runs_out() -> None:
    """§Villain Phase: when the villain deck runs out, the destroyed villains and schemes become
    the new deck then, not at the next reveal, so a villain persuaded in the Main Phase that
    follows stays destroyed until the deck runs out again."""
    state = table(players=1)
    waiting = villain(state, "agent-nettle")
    last = pull(state, "warden-thornwood")
    state.destroyed.extend(state.villain_deck)
    state.villain_deck = [last]
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.phase == "main" and last in state.villains
    assert any(e.kind == "villain-deck-rebuilt" for e in state.event_log())
    assert not [c for c in state.destroyed if state.table[c].type in ("villain", "scheme")]
    state.villains.remove(waiting)  # persuaded now: it waits in the destroyed pile
    state.destroyed.append(waiting)
    assert waiting not in state.villain_deck and len(state.villain_deck) > 0
    assert box_total(state) == BOX


def test_an_empty_villain_deck_with_nothing_to_rebuild_reveals_nothing() -> None:
    """Ruling "Villain Phase: rebuilding the villain deck"."""
    records = [
        r
        for r in fixture_records()
        if r["type"] not in ("villain", "scheme") or r["name"] == "Agent Nettle"
    ]
    state = ReggaeRevolutionGame(records).new_initial_state(
        seed=1, setup={"players": 1, "redraws": False}
    )
    assert keys(state, state.villains) == ["agent-nettle"] and state.villain_deck == []
    while state.tasks:  # its arrival: discard a card
        state.apply(state.legal_actions()[0])
    play(state, "end")
    assert state.event_log()[-1].kind == "villain-deck-empty"
    assert state.phase == "main" and keys(state, state.villains) == ["agent-nettle"]


def test_oppression_revealed_from_the_villain_deck_goes_back_to_its_pile() -> None:
    """Ruling "Special Cards: oppression"."""
    state = table(players=1)
    put(state, state.villain_deck, "paper-trail-purge")  # seeds two oppression cards, each discards
    state.villain_deck = [state.villain_deck[-1]]
    state.tasks = [("reveal", 0)]
    state._settle()
    assert len(state.villain_deck) == 2 and len(state.oppression) == 14
    state.tasks = [("reveal", 0)]
    state._settle()
    assert len(state.oppression) == 15 and state.villains == []


# --- the loss -----------------------------------------------------------------------------
def test_the_team_loses_when_villains_suppress_all_four_symbols() -> None:
    """Ruling "Villain Phase: when the loss is checked"."""
    state = table(players=2)
    villain(state, "riot-captain-scald")  # peace, unity
    villain(state, "warden-thornwood")  # love
    put(state, state.villain_deck, "director-gilt")  # respect; its arrival never resolves
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [-1.0, -1.0] and state.winner() is None
    assert state.end_reason() == LOSS_REASON
    assert state.legal_actions() == []
    assert not any(
        c for p in range(2) for c in state.hand[p] if state.table[c].type == "oppression"
    )
    with pytest.raises(IllegalActionError):
        state.apply(END)


def test_the_turn_limit_ends_an_endless_game_as_a_loss() -> None:
    """Ruling "Deckwright: turn limit"."""
    state = GAME.new_initial_state(seed=2, setup={"players": 1, "turn_limit": 1, "redraws": False})
    while not state.is_terminal():
        state.apply(END if END in state.legal_actions() else state.legal_actions()[0])
    assert state.end_reason() in (LIMIT_REASON, LOSS_REASON)
    assert state.turn == 1


# --- main phase: play ---------------------------------------------------------------------
def test_playing_adds_the_cards_one_symbol_and_the_effect_is_optional() -> None:
    """Ruling "Play: which symbols a card adds"."""
    state = table(players=1)
    put(state, state.hand[0], "cease-fire-chorus", "street-choir", "heart-patch")
    put(state, state.draw[0], "linked-hands")
    actions = state.legal_actions()
    assert Action("play", ("cease-fire-chorus",)) in actions
    assert Action("play", ("cease-fire-chorus", "effect")) in actions
    assert Action("play", ("heart-patch", "effect")) not in actions  # a starter has no effect
    play(state, "play cease-fire-chorus")  # peace, effect declined
    assert state.pool == [1, 0, 0, 0, 0] and len(state.hand[0]) == 2
    play(state, "play street-choir effect")  # unity, then draw a card
    assert state.pool == [1, 0, 1, 0, 0]
    assert keys(state, state.hand[0]) == ["heart-patch", "linked-hands"]
    assert keys(state, state.discard[0]) == ["cease-fire-chorus", "street-choir"]


def test_a_wild_card_adds_a_symbol_of_choice_and_an_oppression_card_adds_nothing() -> None:
    """Ruling "Special Cards: wild cards"."""
    state = table(players=1)
    put(state, state.hand[0], "rainbow-riddim", "oppression-order")
    play(state, "play rainbow-riddim")
    play(state, "play oppression-order")
    assert state.pool == [0, 0, 0, 0, 1]
    assert keys(state, state.discard[0]) == ["oppression-order", "rainbow-riddim"]


def test_suppressed_symbols_may_still_be_played_and_spent() -> None:
    """Ruling "Villain Phase: what suppression does"."""
    state = table(players=1)
    villain(state, "commissioner-blaze")  # suppresses peace
    put(state, state.hand[0], "dove-badge")
    play(state, "play dove-badge")
    assert state.pool[0] == 1


def test_draw_effects_never_reshuffle_in_the_main_phase() -> None:
    """Ruling "Obtain: when the discard pile is reshuffled"."""
    state = table(players=1)
    put(state, state.hand[0], "red-dove-sermon")  # draw 2
    put(state, state.discard[0], "heart-patch", "dove-badge")
    play(state, "play red-dove-sermon effect")
    assert state.hand[0] == [] and len(state.discard[0]) == 3


def test_recover_cannot_take_back_a_card_played_this_turn() -> None:
    """Ruling "Effects: recover"."""
    state = table(players=1)
    put(state, state.hand[0], "heart-patch", "obsidian-microphone")
    put(state, state.discard[0], "dove-badge")
    play(state, "play heart-patch")
    play(state, "play obsidian-microphone effect")
    assert state.legal_actions() == [Action("recover", ("dove-badge",)), Action("stop")]
    play(state, "recover dove-badge")
    assert keys(state, state.hand[0]) == ["dove-badge"]
    assert box_total(state) == BOX


def test_destroying_a_starter_or_oppression_card_returns_it_to_its_pile() -> None:
    """Ruling "Sway: destroyed starters and oppression"."""
    state = table(players=1)
    put(state, state.hand[0], "moss-covered-monument", "heart-patch", "oppression-order")
    piles = len(state.starter_piles["love"]), len(state.oppression)
    play(state, "play moss-covered-monument effect")  # destroy up to 2 from hand
    play(state, "destroy heart-patch")
    play(state, "destroy oppression-order")
    assert (len(state.starter_piles["love"]), len(state.oppression)) == (piles[0] + 1, piles[1] + 1)
    assert state.destroyed == [] and state.tasks == []


def test_effects_on_others_reach_the_single_player() -> None:
    """Ruling "Single Player Rules"."""
    state = table(players=1)
    put(state, state.hand[0], "basement-sound-system")  # each other player draws a card
    put(state, state.draw[0], "dove-badge")
    play(state, "play basement-sound-system effect")
    assert keys(state, state.hand[0]) == ["dove-badge"]
    assert state.targets("others") == [0] and state.targets("next") == [0]


def test_single_player_rules_effects_on_other_players_reach_the_single_player() -> None:
    """§Single Player Rules: alone at the table, the player takes every effect aimed at other
    players (a villain's blow as well as a card's boon), and an effect on each player once."""
    state = table(players=1)
    put(state, state.hand[0], "dove-badge", "heart-patch")
    put(state, state.villain_deck, "sergeant-cinder")  # each other player discards a card
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.current_player() == 0 and state.tasks[0][0] == "discard"
    play(state, "discard dove-badge")
    assert keys(state, state.discard[0]) == ["dove-badge"]
    pile = len(state.oppression)
    put(state, state.villain_deck, "curfew-sirens")  # each player gains an oppression card
    state.tasks = [("reveal", 0)]
    state._settle()
    assert len(state.oppression) == pile - 1
    assert keys(state, state.discard[0]) == ["dove-badge", "oppression-order"]
    put(state, state.hand[0], "basement-sound-system")  # each other player draws a card
    put(state, state.draw[0], "linked-hands")
    play(state, "play basement-sound-system effect")
    assert keys(state, state.hand[0]) == ["heart-patch", "linked-hands"]
    assert box_total(state) == BOX


def test_effects_on_others_skip_the_active_player_with_company() -> None:
    state = table(players=3)
    put(state, state.hand[0], "basement-sound-system")
    for player in range(3):
        put(state, state.draw[player], "dove-badge")
    play(state, "play basement-sound-system effect")
    assert [len(state.hand[p]) for p in range(3)] == [0, 1, 1]


# --- main phase: pay ----------------------------------------------------------------------
def test_paying_buys_from_the_lineup_and_refills_the_same_slot() -> None:
    state = table(players=1)
    state.lineup = [
        pull(state, "street-choir"),
        *[pull(state, k) for k in ("dub-poet", "brass-section")],
        None,
        None,
        None,
    ]
    next_card = state.main_deck[-1]
    put(state, state.hand[0], "dove-badge", "heart-patch")
    assert Action("buy", ("street-choir",)) not in state.legal_actions()
    play(state, "play dove-badge")
    play(state, "play heart-patch")
    play(state, "buy street-choir")
    assert state.lineup[0] == next_card and None not in state.lineup
    assert keys(state, state.discard[0]) == ["dove-badge", "heart-patch", "street-choir"]
    assert state.pool == [0, 0, 0, 0, 0]


def test_named_symbols_pay_first_and_chosen_symbols_cover_the_rest() -> None:
    state = table(players=1)
    state.pool = [1, 0, 0, 0, 2]
    assert state.can_afford(["peace", "love", "love"])
    assert not state.can_afford(["peace", "peace", "love", "love"])
    state._pay(["peace", "love"])
    assert state.pool == [0, 0, 0, 0, 1]


def test_starter_piles_sell_starters_for_one_symbol() -> None:
    state = table(players=1)
    state.pool = [0, 0, 1, 0, 0]
    play(state, "buy heart-patch")
    assert (
        keys(state, state.discard[0]) == ["heart-patch"] and len(state.starter_piles["love"]) == 19
    )


def test_an_empty_main_deck_leaves_lineup_slots_empty() -> None:
    state = table(players=1)
    state.lineup = [pull(state, "dub-poet"), None, None, None, None, None]
    state.destroyed.extend(state.main_deck)
    state.main_deck = []
    state.pool = [0, 0, 1, 0, 0]
    play(state, "buy dub-poet")
    assert state.lineup == [None] * 6


def test_gain_free_takes_a_card_up_to_its_cost() -> None:
    state = table(players=1)
    state.lineup = [
        pull(state, "street-choir"),
        pull(state, "red-dove-sermon"),
        None,
        None,
        None,
        None,
    ]
    put(state, state.hand[0], "community-orchard")  # gain a card costing up to 1
    play(state, "play community-orchard effect")
    gains = state.legal_actions()
    assert (
        Action("gain", ("street-choir",)) not in gains and Action("gain", ("dove-badge",)) in gains
    )
    play(state, "gain dove-badge")
    assert keys(state, state.discard[0]) == ["community-orchard", "dove-badge"]


# --- main phase: sway ---------------------------------------------------------------------
def test_a_villain_is_persuaded_by_cards_of_its_colour() -> None:
    state = table(players=1)
    blaze = villain(state, "commissioner-blaze")  # red, one card
    put(state, state.hand[0], "dove-badge", "heart-patch")
    gifts = [a for a in state.legal_actions() if a.kind == "give"]
    assert gifts == [Action("give", ("heart-patch", "commissioner-blaze"))]
    play(state, "give heart-patch commissioner-blaze")
    assert state.villains == [] and blaze in state.destroyed
    assert len(state.starter_piles["love"]) == 20  # the given starter went home


def test_multi_card_persuasion_keeps_gifts_on_the_villain_across_turns() -> None:
    """§Sway: a villain that needs several cards keeps those given to it, turn after turn, until
    the last one persuades it; then it and every card on it are destroyed (the starters going
    back to their pile, the main card to the destroyed pile)."""
    state = table(players=1)
    scald = villain(state, "riot-captain-scald")  # red, three cards
    put(state, state.hand[0], "heart-patch", "heart-patch")
    put(state, state.draw[0], *["linked-hands"] * 5, "ember-lullaby")
    play(state, "give heart-patch riot-captain-scald")
    play(state, "give heart-patch riot-captain-scald")
    assert state.villains == [scald] and len(state.gifts[scald]) == 2
    assert len(state.starter_piles["love"]) == 18
    next_turn(state)
    assert state.turn == 2 and state.phase == "main"
    assert state.villains == [scald] and keys(state, state.gifts[scald]) == ["heart-patch"] * 2
    play(state, "give ember-lullaby riot-captain-scald")
    assert state.villains == [] and scald not in state.gifts
    assert keys(state, state.destroyed) == ["curfew-sirens", "ember-lullaby", "riot-captain-scald"]
    assert len(state.starter_piles["love"]) == 20
    assert box_total(state) == BOX


def test_wild_cards_are_gifts_of_any_colour_and_oppression_never_is() -> None:
    """Ruling "Sway: wild and oppression gifts"."""
    state = table(players=1)
    villain(state, "minister-nightshade")  # black
    put(state, state.hand[0], "prism-horn", "oppression-order")
    gifts = [a for a in state.legal_actions() if a.kind == "give"]
    assert gifts == [Action("give", ("prism-horn", "minister-nightshade"))]


def test_open_gift_lets_the_next_gift_ignore_colour() -> None:
    state = table(players=1)
    villain(state, "agent-nettle")  # green
    put(state, state.hand[0], "velvet-night-truce", "heart-patch")
    assert not [a for a in state.legal_actions() if a.kind == "give"]
    play(state, "play velvet-night-truce effect")
    play(state, "give heart-patch agent-nettle")
    assert state.villains == [] and state.open_gifts == 0


def test_strip_gifts_destroys_the_cards_on_villains() -> None:
    state = table(players=1)
    scald = villain(state, "riot-captain-scald", gifts=2)
    state._blow({"op": "strip_gifts"})
    assert state.gifts[scald] == [] and len(state.starter_piles["peace"]) == 20


# --- main phase: yay and the win ----------------------------------------------------------
def score_all_but(state: ReggaeState, *missing: tuple[str, str]) -> None:
    for card in list(state.main_deck):
        spec = state.table[card]
        pair = (spec.symbol, spec.colour)
        if spec.type == "main" and pair not in missing and pair not in state.scored_pairs():
            state.main_deck.remove(card)
            state.scored.append(card)


def test_yay_once_per_turn_and_the_sixteenth_pair_wins() -> None:
    state = table(players=2)
    score_all_but(state, ("love", "red"))
    put(state, state.hand[0], "heart-patch", "heart-patch")
    play(state, "yay heart-patch")
    assert state.is_terminal() and state.end_reason() == WIN_REASON
    assert state.returns() == [1.0, 1.0] and state.winner() == 0
    assert team_value(state) == 1.0


def test_yay_is_once_per_turn_unless_an_effect_adds_one() -> None:
    """Ruling "Yay: what may be scored"."""
    state = table(players=1)
    put(state, state.hand[0], "oppression-order", "dove-badge", "halo-of-calm")
    play(state, "yay oppression-order")  # burying an oppression card is a legal yay
    assert not [a for a in state.legal_actions() if a.kind == "yay"]
    play(state, "play halo-of-calm effect")
    play(state, "yay dove-badge")
    assert keys(state, state.scored) == ["dove-badge", "oppression-order"]
    assert state.covered_pair_count() == 1


def test_yay_once_a_turn_a_pair_scored_twice_and_the_last_pair_wins() -> None:
    """§Yay, worked through: one card a turn from hand to the score area, again next turn; a
    card whose symbol and colour are already scored may still go there (it adds no pair); the
    team wins the moment all sixteen pairs are scored."""
    state = table(players=1)
    score_all_but(state, ("love", "red"))
    put(state, state.hand[0], "dove-badge", "respect-nod")
    put(state, state.draw[0], *["linked-hands"] * 5, "heart-patch")
    assert state.covered_pair_count() == 15
    play(state, "yay dove-badge")  # peace-green is scored already: still a legal Yay
    assert not state.is_terminal() and state.covered_pair_count() == 15
    assert not [a for a in state.legal_actions() if a.kind == "yay"]  # once a turn
    next_turn(state)
    assert [a for a in state.legal_actions() if a.kind == "yay"]  # a new turn, a new Yay
    play(state, "yay heart-patch")
    assert state.is_terminal() and state.end_reason() == WIN_REASON
    assert state.returns() == [1.0]


def test_a_scored_wild_card_fills_any_one_missing_pair() -> None:
    """Ruling "Special Cards: wild cards"."""
    state = table(players=1)
    score_all_but(state, ("love", "red"), ("peace", "black"))
    state.scored.append(pull(state, "dub-plate-special"))
    assert state.covered_pair_count() == 15  # one wild fills one of the two missing pairs
    put(state, state.hand[0], "prism-horn")
    play(state, "yay prism-horn")
    assert state.covered_pair_count() == 16 and state.end_reason() == WIN_REASON


def test_special_cards_oppression_has_no_effect_from_a_hand_or_from_the_villain_deck() -> None:
    """§Special Cards: an oppression card does nothing. Played from a hand it goes to that
    player's discard pile; revealed from the villain deck it goes back to the oppression pile,
    and nothing else happens in that Villain Phase."""
    state = table(players=1)
    put(state, state.hand[0], "oppression-order", "dove-badge")
    pile = len(state.oppression)
    play(state, "play oppression-order")
    assert state.pool == [0] * 5 and state.tasks == []
    assert keys(state, state.discard[0]) == ["oppression-order"]
    assert len(state.oppression) == pile
    state._refill_lineup()
    lineup = list(state.lineup)
    (card,) = put(state, state.villain_deck, "oppression-order")
    state.tasks = [("reveal", 0), ("main", 0)]
    state._settle()
    assert state.oppression[-1] == card and len(state.oppression) == pile
    assert state.villains == [] and state.lineup == lineup and state.tasks == []
    assert keys(state, state.hand[0]) == ["dove-badge"]
    assert box_total(state) == BOX


def test_special_cards_a_wild_card_is_one_symbol_and_one_colour_at_a_time() -> None:
    """§Special Cards: a wild card stands for any one symbol in any one colour and may change
    at any time, but is never two at once: played, it pays for one symbol of any kind; given,
    it persuades a villain of any colour; scored, it fills one missing pair, whichever is still
    missing when the win is checked."""
    state = table(players=1)
    put(state, state.hand[0], "rainbow-riddim")
    play(state, "play rainbow-riddim")
    assert state.can_afford(["respect"]) and state.can_afford(["love"])
    assert not state.can_afford(["respect", "love"])  # one symbol, not two
    villain(state, "commissioner-blaze")  # red
    villain(state, "minister-nightshade")  # black
    put(state, state.hand[0], "prism-horn")
    gifts = [a for a in state.legal_actions() if a.kind == "give"]
    assert gifts == [
        Action("give", ("prism-horn", "commissioner-blaze")),
        Action("give", ("prism-horn", "minister-nightshade")),
    ]
    score_all_but(state, ("love", "red"), ("peace", "black"))
    put(state, state.scored, "dub-plate-special")
    assert state.covered_pair_count() == 15  # the wild fills one of the two gaps, not both
    put(state, state.hand[0], "heart-patch")
    play(state, "yay heart-patch")  # love-red scored: the wild now stands for peace-black
    assert state.end_reason() == WIN_REASON


def test_unscore_destroys_the_most_recent_scored_card() -> None:
    state = table(players=1)
    put(state, state.scored, "street-choir", "heart-patch")
    state._blow({"op": "unscore", "amount": 1})
    assert keys(state, state.scored) == ["street-choir"] and len(state.starter_piles["love"]) == 20


# --- obtain -------------------------------------------------------------------------------
def test_obtain_discards_the_hand_empties_the_pool_and_draws_six_with_a_reshuffle() -> None:
    state = table(players=2)
    put(state, state.hand[0], "dove-badge")
    put(state, state.draw[0], "heart-patch", "heart-patch")
    put(state, state.discard[0], *["linked-hands"] * 5)
    state.pool = [2, 0, 0, 0, 1]
    put(state, state.villain_deck, "curfew-sirens")
    state.tasks = []
    play(state, "end")
    assert len(state.hand[0]) == 6 and state.pool == [0] * 5
    assert state.active == 1 and state.turn == 2
    # the draw pile's two cards came first, then the discard pile (the old hand in it) was
    # shuffled to make the draw pile again, and the drawing went on
    assert keys(state, state.hand[0]).count("heart-patch") == 2
    assert keys(state, state.hand[0] + state.draw[0]) == sorted(
        ["dove-badge", "heart-patch", "heart-patch", *["linked-hands"] * 5]
    )
    assert len(state.draw[0]) == 2
    assert keys(state, state.discard[0]) == ["oppression-order"]  # the next turn's scheme
    assert box_total(state) == BOX


# --- observation, evaluation, determinism ---------------------------------------------------
def test_observation_hides_face_down_piles_and_shows_open_hands() -> None:
    """Ruling "Co-operative play: open hands"."""
    state = GAME.new_initial_state(seed=5, setup={"players": 2})
    view = state.observation(1)
    json.dumps(view)
    assert view["players"][0]["hand"] == keys(state, state.hand[0]) or sorted(
        view["players"][0]["hand"]
    ) == keys(state, state.hand[0])
    assert view["players"][0]["draw_pile"] == len(state.draw[0])
    assert view["main_deck"] == len(state.main_deck) and isinstance(view["villain_deck"], int)


def test_determinise_keeps_what_the_player_sees() -> None:
    state = GAME.new_initial_state(seed=5, setup={"players": 2})
    other = state.determinise(0, Rng(99))
    assert other.observation(0) == state.observation(0)
    assert sorted(other.main_deck) == sorted(state.main_deck)


def test_same_seed_same_game_whatever_the_global_random_module_does() -> None:
    def run(noise: bool) -> tuple:
        state = GAME.new_initial_state(seed=21, setup={"players": 3})
        while not state.is_terminal():
            if noise:
                random.random()
            state.apply(greedy_action(state))
        return state.key(), [str(a) for _, a in state.history]

    assert run(False) == run(True)


def test_replay_rebuilds_the_game_from_seed_and_actions() -> None:
    state = GAME.new_initial_state(seed=4, setup={"players": 2})
    while not state.is_terminal():
        state.apply(greedy_action(state))
    again = GAME.replay(4, {"players": 2}, [a for _, a in state.history])
    assert again.key() == state.key() and again.end_reason() == state.end_reason()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), agent_seed=st.integers(0, 2**16))
def test_random_playouts_keep_every_card_and_end_properly(
    seed: int, players: int, agent_seed: int
) -> None:
    state = GAME.new_initial_state(seed=seed, setup={"players": players, "turn_limit": 60})
    agent = Rng(agent_seed)
    lost = False  # once no card can win the deal, none ever will (destroyed cards stay so)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, "a live game always offers a decision"
        assert actions == sorted(set(actions), key=actions.index)  # no duplicates
        state.apply(agent.choice(actions))
        assert box_total(state) == BOX
        assert not (lost and state.can_still_win())
        lost = not state.can_still_win()
        if len(state.history) % 25 == 0 and not state.is_terminal():
            seat = state.current_player()
            json.dumps(state.observation(seat))
            assert state.determinise(seat, Rng(seed)).observation(seat) == state.observation(seat)
        assert min(state.pool) >= 0 and state.yays_left >= 0 and len(state.lineup) == 6
        assert -1.0 <= team_value(state) <= 1.0
    assert state.legal_actions() == []
    assert state.end_reason() in (WIN_REASON, LOSS_REASON, LIMIT_REASON)
    assert not (lost and state.end_reason() == WIN_REASON)
    assert state.returns() in ([1.0] * players, [-1.0] * players)
    setup = {"players": players, "turn_limit": 60}
    assert GAME.replay(seed, setup, [a for _, a in state.history]).key() == state.key()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4))
def test_greedy_playouts_finish_with_a_result(seed: int, players: int) -> None:
    state = GAME.new_initial_state(seed=seed, setup={"players": players})
    while not state.is_terminal():
        state.apply(greedy_action(state))
    assert state.end_reason() in (WIN_REASON, LOSS_REASON, LIMIT_REASON)
    assert box_total(state) == BOX


def test_clone_is_independent() -> None:
    state = GAME.new_initial_state(seed=8, setup={"players": 2})
    before = state.key()
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply(greedy_action(copy))
    assert state.key() == before


# --- a deal no card can win any more ---------------------------------------------------------
BLACK_LOVE = ("vinyl-valentine", "night-bloom-ballad", "shadow-dance-duet")
WILDS = ("any-which-way-anthem", "dub-plate-special", "prism-horn", "rainbow-riddim")


def test_a_pair_whose_cards_are_all_destroyed_is_out_of_reach_and_only_wild_cards_cover_it() -> (
    None
):
    state = table(players=2)
    assert state.out_of_reach() == set() and state.can_still_win()
    put(state, state.destroyed, *BLACK_LOVE)
    assert state.out_of_reach() == {("love", "black")}
    assert state.can_still_win()  # four wild cards are left to score for it (§Special Cards)
    put(state, state.destroyed, *WILDS[1:])
    assert state.can_still_win()
    last_wild = put(state, state.hand[1], WILDS[0])
    assert state.can_still_win()
    state.hand[1].remove(last_wild[0])
    state.destroyed.extend(last_wild)
    view = state.observation(0)
    assert not state.can_still_win() and view["can_still_win"] is False
    assert view["out_of_reach"] == [["love", "black"]]
    # a wild card already scored covers the pair too
    state.destroyed.remove(last_wild[0])
    state.scored.extend(last_wild)
    assert state.can_still_win() and state.out_of_reach() == {("love", "black")}


def test_a_main_card_given_to_a_villain_is_gone_but_a_given_starter_comes_back() -> None:
    state = table(players=1)
    jammer = villain(state, "the-static-jammer", gifts=1)  # a dove badge: a starter
    put(state, state.gifts[jammer], "vinyl-valentine")
    left, wilds = state.cards_left()
    # the starter goes back to its pile when the villain is persuaded (§Sway); the main card
    # is destroyed with it
    dove = state.table[state.gifts[jammer][0]]
    assert (dove.type, dove.symbol, dove.colour) == ("starter", "peace", "green")
    assert left[("peace", "green")] == 23  # the 20 starters and 3 main cards
    assert left[("love", "black")] == 2 and wilds == 4
    put(state, state.scored, "night-bloom-ballad")
    assert state.cards_left()[0][("love", "black")] == 1
    assert ("love", "black") not in state.missing_pairs()


def test_the_table_says_when_a_deal_can_no_longer_be_won() -> None:
    state = table(players=2)
    put(state, state.destroyed, *BLACK_LOVE, *WILDS)
    words = {c["label"]: c["value"] for c in reggae_table(state, 0)["counters"]}
    assert words["Only a wild card can score"] == "love+black"
    assert words["This deal"] == "can no longer be won"
    winnable = {c["label"] for c in reggae_table(table(players=2), 0)["counters"]}
    assert "This deal" not in winnable and "Only a wild card can score" not in winnable


def a_lost_deal_with_three_symbols_suppressed() -> ReggaeState:
    """Peace, love and unity suppressed, a red card in hand for Commissioner Blaze, only
    villains suppressing respect left to reveal, and no card left for black love."""
    state = table(players=2)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "the-static-jammer")  # black, love
    villain(state, "agent-nettle")  # green, unity
    only_respect_villains_left(state)
    put(state, state.destroyed, *BLACK_LOVE, *WILDS)
    put(state, state.hand[0], "heart-patch", "linked-hands", "sunrise-hum")
    return state


def test_in_a_lost_deal_the_team_persuades_nobody_and_the_villains_end_it_by_the_book() -> None:
    state = a_lost_deal_with_three_symbols_suppressed()
    assert not state.can_still_win()
    assert Action.parse("give heart-patch commissioner-blaze") in state.legal_actions()
    # the policy of 2026-12-01 still plays for time: it persuades Commissioner Blaze
    assert plain_action(state) == Action.parse("give heart-patch commissioner-blaze")
    while state.turn == 1:
        assert greedy_action(state).kind != "give"
        state.apply(greedy_action(state))
    # §Object: the next villain suppresses the fourth symbol; the deal ends as the book says
    assert state.end_reason() == LOSS_REASON and state.turn == 2


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_lost_deal_ends_by_the_book_before_the_turn_limit(seed: int) -> None:
    state = GAME.new_initial_state(seed=seed, setup={"players": 2})
    doomed = {c for c, spec in enumerate(state.table) if spec.key in (*BLACK_LOVE, *WILDS)}
    state.main_deck = [c for c in state.main_deck if c not in doomed]
    for piles in (state.draw, state.hand, state.discard):
        piles[:] = [[c for c in pile if c not in doomed] for pile in piles]
    state.lineup = [None if c in doomed else c for c in state.lineup]
    state.destroyed.extend(sorted(doomed))
    state._refill_lineup()
    assert box_total(state) == BOX and not state.can_still_win()
    while not state.is_terminal():
        state.apply(greedy_action(state))
    assert state.end_reason() == LOSS_REASON and state.turn < state.turn_limit


def test_with_two_symbols_suppressed_the_team_gives_the_card_that_lifts_one_before_drawing() -> (
    None
):
    """Crimson Serenade's pair (red love) is scored and it draws a card, so step 1 of the policy
    plays it first; it is also the hand's one red card, the only gift that persuades Commissioner
    Blaze, who alone suppresses peace (§Sway). With two symbols suppressed the team keeps it for
    Blaze: one villain more suppressing respect and love would otherwise end the deal."""
    state = table(players=2)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "agent-nettle")  # green, unity
    put(state, state.scored, "heart-patch")  # red love
    put(state, state.hand[0], "crimson-serenade", "linked-hands")
    hand = state.hand[0]
    assert persuaders(state, hand) == {hand[0]}
    # the policy of 2026-12-01 plays it for the card it draws, and Blaze stays
    assert plain_action(state) == Action.parse("play crimson-serenade effect")
    assert greedy_action(state) == Action.parse("give crimson-serenade commissioner-blaze")
    state.apply(greedy_action(state))
    assert state.suppressed_symbols() == {"unity"}


def test_the_team_keeps_the_last_card_of_a_missing_pair_from_a_villain() -> None:
    state = table(players=2)
    villain(state, "the-static-jammer")  # black, love: one gift persuades it
    put(state, state.destroyed, "night-bloom-ballad", "shadow-dance-duet")
    put(state, state.hand[0], "vinyl-valentine")  # the last card for black love
    state.yays_left = 0  # scored already this turn
    give = Action.parse("give vinyl-valentine the-static-jammer")
    assert give in state.legal_actions() and plain_action(state) == give
    # persuaded, the villain would take the card to the destroyed pile for good (§Sway)
    assert greedy_action(state) != give
    state.apply(greedy_action(state))
    assert state.cards_left()[0][("love", "black")] == 1


def test_colour_lacks_are_zero_for_a_starting_deck_and_grow_for_a_colour_the_deck_lacks() -> None:
    state = GAME.new_initial_state(3, {"players": 2})
    # a starting deck holds three of each starter, one colour each (ruling 1)
    assert colour_lacks(state, 0) == {"red": 0.0, "green": 0.0, "yellow": 0.0, "black": 0.0}
    state = table(players=1)
    put(state, state.discard[0], *["dove-badge"] * 9, "heart-patch", "linked-hands", "respect-nod")
    lacks = colour_lacks(state, 0)
    assert lacks["green"] == pytest.approx(1 - 4 * 9 / 12)
    assert lacks["black"] == lacks["red"] == lacks["yellow"] == pytest.approx(1 - 4 / 12)
    assert set(colour_lacks(table(players=1), 0).values()) == {1.0}  # nothing owned: all lack


def test_the_team_buys_the_colour_its_cards_lack_so_a_hand_can_persuade_any_villain() -> None:
    """Two starters, alike but for their colours, each persuading a villain in play (§Sway):
    the team buys the one whose colour its deck holds one card of, not the one it holds nine of.
    The policy before (``plain_action``) took the first pile's."""
    state = table(players=1)
    put(state, state.discard[0], *["dove-badge"] * 9, "heart-patch", "linked-hands", "respect-nod")
    villain(state, "agent-nettle")  # green
    villain(state, "colonel-blackout")  # black
    state.lineup = [None] * 6  # only the starter piles are on offer
    state.pool = [0, 0, 0, 0, 1]  # one symbol of any kind: any starter
    assert plain_action(state) == Action.parse("buy dove-badge")
    assert greedy_action(state) == Action.parse("buy respect-nod")


def test_the_policy_before_the_guard_is_played_by_name_as_the_baseline() -> None:
    """``team(policy=plain)`` (the baseline of ``bench/defaults.py``) plays the old policy."""
    plugin = plugin_for(GAME.slug)
    agent = web_agent("team(policy=plain)", plugin)(0)
    state = a_lost_deal_with_three_symbols_suppressed()
    assert agent.act(state) == plain_action(state) != greedy_action(state)
    assert web_agent("team", plugin)(0).act(state) == greedy_action(state)


# --- how winnable is a setup ----------------------------------------------------------------
def test_winnability_reports_a_reproducible_win_rate() -> None:
    report = winnability(GAME, {"players": 2}, games=20, seed=100)
    again = winnability(GAME, {"players": 2}, games=20, seed=100)
    assert report.as_dict() == again.as_dict()
    assert 0 < report.wins < 20  # the shipped cards make a game the greedy team can win or lose
    low, high = report.interval
    assert low <= report.win_rate <= high
    assert sum(report.end_reasons.values()) == 20


def test_team_value_prefers_scored_pairs_and_fears_suppression() -> None:
    calm = table(players=1)
    scored = table(players=1)
    put(scored, scored.scored, "street-choir")
    threatened = table(players=1)
    villain(threatened, "riot-captain-scald")
    villain(threatened, "warden-thornwood")
    assert team_value(scored) > team_value(calm) > team_value(threatened)


def test_oppression_lands_where_the_blow_says_and_stops_when_the_pile_is_empty() -> None:
    """Ruling "Special Cards: oppression"."""
    state = table(players=2)
    state._blow({"op": "oppress", "amount": 1, "who": "self", "to": "hand"})
    state._blow({"op": "oppress", "amount": 1, "who": "others", "to": "deck"})
    assert keys(state, state.hand[0]) == ["oppression-order"]
    assert keys(state, state.draw[1][-1:]) == ["oppression-order"]  # on top of the draw pile
    state.draw[0].extend(state.oppression[:-1])  # the rest are already in a draw pile
    del state.oppression[:-1]
    state._blow({"op": "oppress", "amount": 2, "who": "each", "to": "discard"})
    assert keys(state, state.discard[0]) == ["oppression-order"] and state.discard[1] == []


def test_destroy_lineup_takes_the_leftmost_cards_and_refills() -> None:
    state = table(players=1)
    state._refill_lineup()
    first_two = state.lineup[:2]
    rest = state.lineup[2:]
    state._blow({"op": "destroy_lineup", "amount": 2})
    assert set(first_two) <= set(state.destroyed)
    assert state.lineup[2:] == rest and None not in state.lineup


def test_the_shared_greedy_and_search_agents_can_play_it() -> None:
    from rules.agents import GreedyAgent, MCTSAgent

    state = GAME.new_initial_state(seed=6, setup={"players": 2})
    agents: list[Agent] = [GreedyAgent(seed=1, max_nodes=150), MCTSAgent(seed=2, iterations=10)]
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(agents[state.current_player()].act(state))
    assert box_total(state) == BOX


def test_docs_name_engine_tests_that_exist() -> None:
    """Every test ``docs/rules/reggae-revolution.md`` cites by this file's path exists here."""
    doc = (
        Path(__file__).resolve().parents[2] / "docs" / "rules" / "reggae-revolution.md"
    ).read_text()
    named = set(re.findall(r"tests/rules/test_reggae_revolution\.py::(test_\w+)", doc))
    assert named, "the doc cites no engine test by path"
    assert not {name for name in named if name not in globals()}
