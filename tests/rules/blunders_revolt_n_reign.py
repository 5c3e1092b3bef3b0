"""Revolt N Reign blunder positions: one decision wins or saves the game, every web agent finds it.

Each position is hand-built on a real table (``table()`` of ``test_revolt_n_reign``) and named
after the situation; the agents play it at the budget the web gives them
(``rules.services.agent_spec``), with fixed seeds, so a test fails only when an agent's choice
changes, never by the luck of a random stream. Win rates over many games are measured in
``bench/`` instead (``bench/revolt_n_reign.py --strength``, ``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engines.core import Action
from rules.engines.revolt_n_reign import RevoltState
from rules.engines.revolt_n_reign.state import (
    ATTACK_VICTORY,
    LP_VICTORY,
    PETITION_VICTORY,
    START_LP,
)
from tests.rules import blunders
from tests.rules.test_revolt_n_reign import END, FILLER, hand, play, table

SLUG = "revolt-n-reign"
#: every agent the web offers for this game but random (its default, ``plan``, first)
AGENTS = ("plan", "mcts", "greedy")


#: the seat under test plays its turn to the end; the other seat takes the first legal option
#: (pass, end, the first choice)
decide_for = blunders.turn_decider(
    SLUG, lambda now: END if now.phase in ("play", "respond") else now.legal_actions()[0]
)


def uas_left(state: RevoltState, player: int, *dps: int) -> list[int]:
    """Leave ``player`` one UA for each of ``dps``, at those Defense points (the others exiled);
    return them."""
    for cid in state.uas[player][len(dps) :]:
        state.uas[player].remove(cid)
        state.exile[player].append(cid)
        del state.dp[cid]
    for cid, dp in zip(state.uas[player], dps, strict=True):
        state.dp[cid] = dp
    return list(state.uas[player])


def last_ua(state: RevoltState, player: int, dp: int) -> int:
    """Leave ``player`` one UA, at ``dp`` Defense points (the others exiled); return it."""
    return uas_left(state, player, dp)[0]


def attack_victory_on_offer() -> RevoltState:
    state = table(p0=("Minuteman Volley",))
    last_ua(state, 1, 10)
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    return state


def petition_victory_on_offer() -> RevoltState:
    petitions = ("Petition for Redress", "Petition of the Townships", "Grievance Roll")
    state = table(p0=(*petitions, "Sailors' Petition"))
    for name in petitions:
        play(state, 0, name)
    for _ in range(3):
        play(state, 0, FILLER)  # a Scroll Pillar
    hand(state, 0, "Sailors' Petition")
    state.ip[0] = 2
    return state


def lp_victory_on_offer() -> RevoltState:
    # the drain takes 3; Freedom of the Frontier's "Pay X IP: 2X LP" with X = 1 takes the rest
    state = table(p0=("Freedom of the Frontier",))
    play(state, 0, "Freedom of the Frontier")
    state.lp[1] = 5
    state.ip[0] = 1
    return state


def free_pillar_on_offer() -> RevoltState:
    state = table(p0=("Village Green",))
    hand(state, 0, "Village Green")
    return state


def prevent_a_lethal_drain() -> RevoltState:
    # Seat 1 is at 3 LP and seat 0's three UAs drain 3 on seat 0's turn; Frontier Stockade's
    # "Pay 2 IP: prevent up to 2 LP loss" is a response ("2. WHO MAY INTERACT"). Not using it
    # loses the game by LP Victory at seat 0's End Phase.
    state = table(p1=("Frontier Stockade",))
    play(state, 1, "Frontier Stockade")
    state.ip[1] = 2
    state.lp[1] = 3
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def lock_the_attack_on_the_last_ua() -> RevoltState:
    # Seat 0 declares Liberty Tree Rally (10) at seat 1's last UA, at 10 DP; Lighthouse Keep's
    # "Pay 3 IP: lock an opponent's Attack card" stops it ("Lock — Effect Scope").
    state = table(p0=("Liberty Tree Rally",), p1=("Lighthouse Keep",))
    play(state, 1, "Lighthouse Keep")
    state.ip[1] = 3
    target = last_ua(state, 1, 10)
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", target)))
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def attack_victory_needs_the_right_targets() -> RevoltState:
    # Seat 1 is down to two UAs, at 20 and 5 DP, with no Defense ("Targeting Clarification": an
    # Attack card's own damage then goes to a UA). Storm the Customs House deals 20 to one UA and
    # 5 bypassing Defense to one UA; "Damage Rules" neither split the damage nor carry the excess,
    # so only 20 on the 20 and 5 on the 5 destroys both, an Attack Victory ("VICTORY CONDITIONS
    # (4 TOTAL)").
    state = table(p0=("Storm the Customs House",))
    uas_left(state, 1, 20, 5)
    hand(state, 0, "Storm the Customs House")
    state.ip[0] = 4
    return state


def lp_victory_or_a_tempting_attack() -> RevoltState:
    # Seat 1 is at 8 LP: the drain takes 3 ("STEP 3 — UNCONSTITUTIONAL ACT LP DRAIN") and Land
    # Ordinance Bill's 5 the rest ("BILLS"), counted in the End Phase. The same 4 IP pay for
    # Buffalo Charge, which destroys a UA outright but gives the rival another turn.
    state = table(p0=("Land Ordinance Bill", "Buffalo Charge"))
    hand(state, 0, "Land Ordinance Bill", "Buffalo Charge")
    state.lp[1] = 8
    state.ip[0] = 4
    return state


def free_right_in_hand() -> RevoltState:
    # Right to Work costs 0 IP and only gains 2 LP ("RIGHTS CARDS": a one-time effect); keeping
    # it buys nothing.
    state = table(p0=("Right to Work",))
    hand(state, 0, "Right to Work")
    return state


def lethal_attack_and_a_harmless_drain() -> RevoltState:
    # Seat 0 declares Liberty Tree Rally (10) at seat 1's last UA, at 10 DP, and drains 3 of
    # seat 1's 5 LP. Seat 1's 3 IP pay for one response ("2. WHO MAY INTERACT"): Lighthouse
    # Keep's lock stops the Attack Victory ("Lock — Effect Scope"); Frontier Stockade's
    # prevention (2 IP) spares LP the drain was not going to finish and leaves too little for
    # the lock.
    state = table(p0=("Liberty Tree Rally",), p1=("Lighthouse Keep", "Frontier Stockade"))
    play(state, 1, "Lighthouse Keep")
    play(state, 1, "Frontier Stockade")
    state.ip[1] = 3
    state.lp[1] = 5
    target = last_ua(state, 1, 10)
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", target)))
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def lethal_loss_needs_enough_prevention() -> RevoltState:
    # Seat 1 is at 3 LP and loses 5 on seat 0's turn: the drain's 3 and Shays' Muster's 2.
    # Freedom of Contract's prevention, a response, costs the X it prevents ("FREEDOM CARDS");
    # with X at 1 or 2 seat 1 ends the turn at 0 LP or less and loses by LP Victory ("VICTORY
    # CONDITIONS (4 TOTAL)"); 3 or more saves the game.
    state = table(p0=("Shays' Muster",), p1=("Freedom of Contract",))
    play(state, 1, "Freedom of Contract")
    state.ip[1] = 4
    state.lp[1] = 3
    hand(state, 0, "Shays' Muster")
    state.ip[0] = 3
    state.apply(Action("play", ("shays-muster", state.uas[1][0])))
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def rampart_guards_against_the_last_ua() -> RevoltState:
    # Seat 0 is down to one UA, at 10 DP. Seat 1's only Defense, Old Brick Rampart, is at 15 DP,
    # so Minuteman Volley (15) must go to it ("Defense Rules") and destroys it; its When
    # destroyed deals 10 to seat 0's last UA ("STEP 5 — STATE CLEANUP & EFFECTS", 5C), an
    # Attack Victory for seat 1. Ending the turn loses nothing.
    state = table(p0=("Minuteman Volley",), p1=("Old Brick Rampart",))
    rampart = play(state, 1, "Old Brick Rampart")
    state.dp[rampart] = 15
    last_ua(state, 0, 10)
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    return state


def won(reason: str) -> Callable[[RevoltState], bool]:
    return lambda state: state.winner() == 0 and state.end_reason() == reason


def survived(state: RevoltState) -> bool:
    return not state.is_terminal() and state.active == 1 and bool(state.uas[1])


def laid_the_pillar(state: RevoltState) -> bool:
    return [state.spec(c).name for c in state.pillars[0]] == ["Village Green"]


def played_the_right(state: RevoltState) -> bool:
    return state.lp[0] == START_LP + 2


def kept_the_last_ua(state: RevoltState) -> bool:
    return not state.is_terminal() and bool(state.uas[0])


#: situation -> (the position, the seat to decide, what choosing right leads to)
POSITIONS: dict[str, tuple[Callable[[], RevoltState], int, Callable[[RevoltState], bool]]] = {
    "take_the_attack_victory_on_offer": (attack_victory_on_offer, 0, won(ATTACK_VICTORY)),
    "take_the_petition_victory_on_offer": (petition_victory_on_offer, 0, won(PETITION_VICTORY)),
    "take_the_lp_victory_on_offer": (lp_victory_on_offer, 0, won(LP_VICTORY)),
    "never_pass_with_a_free_pillar_in_hand": (free_pillar_on_offer, 0, laid_the_pillar),
    "respond_by_preventing_a_lethal_drain": (prevent_a_lethal_drain, 1, survived),
    "respond_by_locking_the_attack_on_the_last_ua": (lock_the_attack_on_the_last_ua, 1, survived),
    "take_the_attack_victory_with_the_right_targets": (
        attack_victory_needs_the_right_targets,
        0,
        won(ATTACK_VICTORY),
    ),
    "take_the_lp_victory_over_a_tempting_attack": (
        lp_victory_or_a_tempting_attack,
        0,
        won(LP_VICTORY),
    ),
    "never_pass_with_a_free_right_in_hand": (free_right_in_hand, 0, played_the_right),
    "respond_to_the_lethal_attack_not_the_harmless_drain": (
        lethal_attack_and_a_harmless_drain,
        1,
        survived,
    ),
    "respond_with_enough_prevention_for_a_lethal_loss": (
        lethal_loss_needs_enough_prevention,
        1,
        survived,
    ),
    "never_break_a_rampart_that_fires_at_the_last_ua": (
        rampart_guards_against_the_last_ua,
        0,
        kept_the_last_ua,
    ),
}
