"""Reggae Revolution blunder positions: one decision wins or saves the game, every web agent finds it.

Reggae Revolution is co-operative, so each position is the team's: one agent plays the seat to
decide, as the web's ``team`` agent (the game's own policy, its default) plays every seat. Each
position is hand-built on a real table (``table()`` of ``test_reggae_revolution``: every card of
the box in its home pile, the named ones moved where the situation needs them) and named after
the situation; the agents play it at the budget the web gives them (``rules.services.agent_spec``),
with fixed seeds, so a test fails only when an agent's choice changes, never by the luck of a
random stream. Win rates over many games are measured in ``bench/`` instead
(``bench/agents.py --game reggae-revolution``, ``docs/rules/reggae-revolution.md``).

The team's one loss that a single decision can bring on at once is §Villain Phase's: a villain
entering play while the others suppress the remaining three symbols. The positions that test it
leave only such villains in the villain deck (its other cards persuaded or resolved: in the
destroyed pile), so ending the turn without a persuasion loses at the next reveal, whatever the
shuffle.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engines.reggae_revolution import ReggaeState
from rules.engines.reggae_revolution.game import DEFAULT_PLAYERS
from rules.engines.reggae_revolution.state import WIN_REASON
from tests.rules import blunders
from tests.rules.test_reggae_revolution import (
    only_respect_villains_left,
    play,
    put,
    score_all_but,
    table,
    villain,
)

SLUG = "reggae-revolution"
#: the team at the table: the web's default team size
TEAM = DEFAULT_PLAYERS
#: every agent the web offers for this game but random (its default, ``team``, first)
AGENTS = ("team", "greedy", "mcts")


#: the seat under test plays until the turn has passed on; other seats (a villain's "each other
#: player discards") take the first legal option
decide_for = blunders.turn_decider(SLUG, lambda now: now.legal_actions()[0])


# --- the win on offer (§Yay) -------------------------------------------------------------------
def last_pair_in_hand() -> ReggaeState:
    # §Yay: the team wins the moment the score area shows all sixteen pairs; red love is missing
    state = table(players=TEAM)
    score_all_but(state, ("love", "red"))
    put(state, state.hand[0], "heart-patch", "dove-badge", "linked-hands", "street-choir")
    return state


def last_pair_for_a_wild_card() -> ReggaeState:
    # §Special Cards: a scored wild card stands for the one pair the score area still misses
    state = table(players=TEAM)
    score_all_but(state, ("peace", "black"))
    put(state, state.hand[0], "prism-horn", "dove-badge", "respect-nod", "heartbeat-drum")
    return state


def last_two_pairs_and_an_extra_yay() -> ReggaeState:
    # §Yay is once a turn; Halo of Calm's boon opens a second one, so both missing pairs score
    state = table(players=TEAM)
    score_all_but(state, ("love", "red"), ("unity", "yellow"))
    put(state, state.hand[0], "heart-patch", "linked-hands", "halo-of-calm", "dove-badge")
    return state


def last_pair_in_the_discard_pile() -> ReggaeState:
    # The red love card lies in the discard pile and the last card in hand is Obsidian
    # Microphone, whose boon puts a card from the discard pile back in hand, to be scored
    state = table(players=TEAM)
    score_all_but(state, ("love", "red"))
    put(state, state.discard[0], "heart-patch")
    put(state, state.hand[0], "obsidian-microphone")
    return state


def last_pair_in_hand_when_a_villain_forces_a_discard() -> ReggaeState:
    # §Villain Phase: Colonel Blackout arrives (suppressing peace: the peace cards go) and has the
    # active player discard a card first; the red love card must stay for the Yay
    state = table(players=TEAM)
    score_all_but(state, ("love", "red"))
    put(state, state.hand[0], "heart-patch", "dove-badge", "linked-hands", "respect-nod")
    put(state, state.villain_deck, "colonel-blackout")
    state.tasks = [("start_turn", 0)]
    state._settle()
    assert state.tasks and state.tasks[0][0] == "discard" and state.current_player() == 0
    return state


# --- the loss at the next reveal (§Villain Phase, §Sway) -------------------------------------
def three_symbols_suppressed_and_a_matching_gift() -> ReggaeState:
    state = table(players=TEAM)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "the-static-jammer")  # black, love
    villain(state, "agent-nettle")  # green, unity
    only_respect_villains_left(state)
    put(state, state.hand[0], "heart-patch", "linked-hands", "sunrise-hum")
    return state


def the_gift_fits_two_villains_and_only_one_frees_a_symbol() -> ReggaeState:
    # Two villains suppress peace, one of them red; the other red villain alone suppresses unity.
    # The one red card persuades either, but only persuading Sergeant Cinder frees a symbol.
    state = table(players=TEAM)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "colonel-blackout")  # black, peace
    villain(state, "the-static-jammer")  # black, love
    villain(state, "sergeant-cinder")  # red, unity
    only_respect_villains_left(state)
    put(state, state.hand[0], "heart-patch", "linked-hands", "sunrise-hum")
    return state


def the_last_gift_a_villain_needs() -> ReggaeState:
    # §Sway: a villain needing several cards keeps the gifts given on earlier turns; Riot Captain
    # Scald has two of its three, and with it go both peace and unity
    state = table(players=TEAM)
    villain(state, "riot-captain-scald", gifts=2)  # red, peace and unity, three cards
    villain(state, "warden-thornwood")  # green, love, two cards
    only_respect_villains_left(state)
    put(state, state.hand[0], "ember-lullaby", "linked-hands", "sunrise-hum")
    return state


def three_symbols_suppressed_and_only_a_wild_card_to_give() -> ReggaeState:
    # §Special Cards: a wild card takes the colour of the villain it is given to
    state = table(players=TEAM)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "the-static-jammer")  # black, love
    villain(state, "agent-nettle")  # green, unity
    only_respect_villains_left(state)
    put(state, state.hand[0], "rainbow-riddim", "linked-hands", "sunrise-hum")
    return state


def three_symbols_suppressed_and_an_open_gift() -> ReggaeState:
    # No card in hand matches a villain's colour; Velvet Night Truce's boon lets the next gift
    # persuade a villain of any colour
    state = table(players=TEAM)
    villain(state, "commissioner-blaze")  # red, peace
    villain(state, "auditor-saffron")  # yellow, love
    villain(state, "sergeant-cinder")  # red, unity
    only_respect_villains_left(state)
    put(state, state.hand[0], "velvet-night-truce", "dove-badge", "respect-nod")
    return state


# --- free plays that only help ---------------------------------------------------------------
def missing_pair_in_hand() -> ReggaeState:
    # Vinyl Valentine (black love) is the one card in hand for a pair still missing (§Yay)
    state = table(players=TEAM)
    score_all_but(state, ("love", "black"), ("peace", "yellow"), ("unity", "red"))
    put(state, state.hand[0], "vinyl-valentine", "respect-nod", "lantern-keeper")
    return state


def missing_pair_affordable_on_offer() -> ReggaeState:
    # §Pay: Heartbeat Drum (red love, the missing pair nobody owns) costs one peace
    state = table(players=TEAM)
    score_all_but(state, ("love", "red"))
    state.lineup[0] = state.main_deck.pop(
        next(i for i, c in enumerate(state.main_deck) if state.table[c].key == "heartbeat-drum")
    )
    state._refill_lineup()
    put(state, state.hand[0], "dove-badge", "respect-nod")
    play(state, "play dove-badge")  # a peace in the pool
    return state


def won(state: ReggaeState) -> bool:
    return state.winner() == 0 and state.end_reason() == WIN_REASON


def survived(state: ReggaeState) -> bool:
    return not state.is_terminal() and state.turn == 2  # the positions are the first turn


def scored(*keys: str) -> Callable[[ReggaeState], bool]:
    return lambda state: set(keys) <= {state.table[c].key for c in state.scored}


def bought(key: str) -> Callable[[ReggaeState], bool]:
    return lambda state: key in {state.table[c].key for c in state.owner_cards(0)}


#: situation -> (the position, the seat to decide, what choosing right leads to)
POSITIONS: dict[str, tuple[Callable[[], ReggaeState], int, Callable[[ReggaeState], bool]]] = {
    "score_the_last_missing_pair": (last_pair_in_hand, 0, won),
    "score_a_wild_card_for_the_last_missing_pair": (last_pair_for_a_wild_card, 0, won),
    "take_the_extra_yay_for_the_last_two_pairs": (last_two_pairs_and_an_extra_yay, 0, won),
    "recover_the_last_missing_pair_and_score_it": (last_pair_in_the_discard_pile, 0, won),
    "keep_the_winning_card_when_a_villain_forces_a_discard": (
        last_pair_in_hand_when_a_villain_forces_a_discard,
        0,
        won,
    ),
    "persuade_a_villain_before_the_fourth_symbol_is_suppressed": (
        three_symbols_suppressed_and_a_matching_gift,
        0,
        survived,
    ),
    "persuade_the_villain_that_alone_suppresses_a_symbol": (
        the_gift_fits_two_villains_and_only_one_frees_a_symbol,
        0,
        survived,
    ),
    "give_the_last_gift_a_villain_needs": (the_last_gift_a_villain_needs, 0, survived),
    "persuade_with_a_wild_card_before_the_fourth_symbol_is_suppressed": (
        three_symbols_suppressed_and_only_a_wild_card_to_give,
        0,
        survived,
    ),
    "open_a_gift_to_persuade_a_villain_of_another_colour": (
        three_symbols_suppressed_and_an_open_gift,
        0,
        survived,
    ),
    "never_pass_with_a_missing_pair_to_score": (missing_pair_in_hand, 0, scored("vinyl-valentine")),
    "never_pass_with_a_missing_pair_affordable_on_offer": (
        missing_pair_affordable_on_offer,
        0,
        bought("heartbeat-drum"),
    ),
}
