"""Reign Absolute blunder positions: one decision wins or loses the game, every web agent finds it.

Each position is hand-built on a real battlefield (``battle()`` of ``test_reign_absolute``) and
named after the situation; the agents play it at the budget the web gives them
(``rules.services.agent_spec``), with fixed seeds, so a test fails only when an agent's choice
changes, never by the luck of a random stream. Agents search determinisations (face-down units
and the Reinforcement deck dealt again), so each agent plays every position from several seeds:
one lucky deal could hide a blunder such as staking the Liege on a face-down unit. Win rates
over many games are measured in ``bench/`` instead (``bench/agents.py --game reign-absolute``,
``docs/rules/reign-absolute.md``).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engines.core import Action
from rules.engines.reign_absolute import ReignState
from rules.engines.reign_absolute.state import WIN_REASON
from tests.rules import blunders
from tests.rules.test_reign_absolute import DOOM, PASS, battle, stack, under

SLUG = "reign-absolute"
#: every agent the web offers for this game but random (its default, ``greedy``, first: its best
#: moves played on through the rival's replies), and the normal level's plain one-turn greedy
AGENTS = ("greedy", "mcts", "normal")
#: the agent seeds each position is played from
SEEDS = range(5)
Square = tuple[int, int]


def other_seat_choice(state: ReignState) -> Action:
    """A decision of a seat the test does not examine: the first legal option that keeps its
    Liege (so a Doom discard never ends the game by itself)."""
    legal = state.legal_actions()
    for action in legal:
        if action.kind != "discard" or not state.spec_at(_square(action.args)).is_liege:
            return action
    return legal[0]


def decide_for(state: ReignState, seat: int, agent_name: str, seed: int) -> list[Action]:
    """Let ``agent_name`` make every decision of ``seat`` until the turn under way (with any
    extra Turn it earns) has passed to another player or the game is over; return the actions
    it took. Decisions of the other seats come from ``other_seat_choice``."""
    mover = state.active
    return blunders.decide_until(
        state,
        seat,
        agent_name,
        seed,
        slug=SLUG,
        done=lambda now: now.tasks[0][0] == "action" and now.tasks[0][1] != mover,
        other=other_seat_choice,
    )


def field(
    units: dict[Square, tuple[int, str]],
    factions: tuple[str, ...] = ("empire", "elves"),
    active: int = 0,
) -> ReignState:
    """``battle()`` with every unit not named left out, as if already fallen: a game past
    §Setup has no unit left to place, so no determinisation may hide one there."""
    state = battle(units, factions, active)
    state.faction_decks = [[] for _ in factions]
    return state


def reveal(state: ReignState, *squares: Square) -> None:
    """Show every player the units on ``squares``, as a combat or a face-up discard pile does."""
    for square in squares:
        state.known[state.board[square]] = (1 << state.n) - 1


# --- take lethal when it is there -----------------------------------------------------------
def lethal_on_the_seen_liege() -> ReignState:
    # Legionnaires 5 against the Nightlord 4, who has no Defence bonus (§Attack Action)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (0, "empire-legionnaires"),
            (0, 1): (0, "empire-engineers"),
            (2, 0): (1, "umbrous-nightlord"),
            (3, 0): (1, "umbrous-husks"),
            (2, 1): (1, "umbrous-wraiths"),
        },
        ("empire", "umbrous"),
    )
    reveal(state, (2, 0))
    return state


def lethal_for_one_attacker_of_two() -> ReignState:
    # The Oak Queen defends with 5 + 2 and survives ties: the Archers' 4 + 4 beat her, the
    # Engineers' 2 does not (§Attack Action; her card text)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (0, "empire-engineers"),
            (2, 1): (0, "empire-archers"),
            (2, 0): (1, "elves-oak-queen"),
            (3, 0): (1, "elves-rangers"),
            (2, -1): (1, "elves-wardens"),
        }
    )
    reveal(state, (2, 0))
    return state


def lethal_with_a_reinforcement() -> ReignState:
    # Two Legionnaires (5) touch the Oak Queen (5 + 2); only the one with +3 Attack under it
    # beats her, and only its owner knows it is there (§Reinforcement Phase)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (0, "empire-legionnaires"),
            (2, 1): (0, "empire-legionnaires"),
            (2, 0): (1, "elves-oak-queen"),
            (3, 0): (1, "elves-rangers"),
        }
    )
    under(state, (2, 1), "3-attack")
    reveal(state, (2, 0))
    return state


def doom_against_a_lone_liege() -> ReignState:
    # The rival discards first and has nothing but the Liege (§Doom Action, §Victory)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (1, 1): (0, "empire-archers"),
            (5, 5): (1, "elves-oak-queen"),
        }
    )
    return state


def doom_against_two_lone_lieges() -> ReignState:
    # Three armies: both rivals discard before the caller, and a Liege is all either has, so
    # both are eradicated and the caller's is the only Liege left (§Doom Action, §Victory)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (5, 5): (1, "elves-oak-queen"),
            (-5, 5): (2, "azuma-shogun"),
        },
        ("empire", "elves", "azuma"),
    )
    return state


# --- never stake a key piece on a losing fight ------------------------------------------------
def liege_beside_a_seen_stronger_unit() -> ReignState:
    # The case: the Sovereign (6) attacking the Ancient Treant (7) loses, and with her
    # the game (§Attack Action, §Victory)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (-1, 0): (0, "empire-legionnaires"),
            (0, -1): (0, "empire-engineers"),
            (1, 0): (1, "elves-ancient-treant"),
            (2, 0): (1, "elves-rangers"),
            (1, 1): (1, "elves-wardens"),
        }
    )
    reveal(state, (1, 0))
    return state


def liege_alone_beside_a_seen_stronger_unit() -> ReignState:
    # The Liege is the last unit: attacking the Treant loses her, and so does a Doom, in which
    # the caller discards last (§Doom Action)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (1, "elves-ancient-treant"),
            (2, 0): (1, "elves-rangers"),
        }
    )
    reveal(state, (1, 0))
    return state


def liege_beside_an_unseen_unit() -> ReignState:
    # The case as it came up, on turn 3 with every Elf still face down (§Key Concepts &
    # Mechanics): the unit beside the Sovereign is the Treant, but to her player it is any of
    # six. Three of them (Treant 7, Wardens 4 + 3, Oak Queen 5 + 2) beat her 6 on defence and
    # the Enchantress draws two Reinforcements, so attacking stakes the game on a guess.
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (-1, 0): (0, "empire-legionnaires"),
            (0, -1): (0, "empire-engineers"),
            (-1, -1): (0, "empire-archers"),
            (1, 0): (1, "elves-ancient-treant"),
            (2, 0): (1, "elves-rangers"),
            (1, 1): (1, "elves-wardens"),
            (2, 1): (1, "elves-pathfinders"),
            (3, 0): (1, "elves-enchantress"),
            (3, 1): (1, "elves-oak-queen"),
        }
    )
    state.turn = 3
    return state


def liege_alone_before_a_doom() -> ReignState:
    # Only the Liege is left: a Doom makes the rival discard one of several units, then the
    # caller must give up the Liege (§Doom Action)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (3, 0): (1, "elves-oak-queen"),
            (3, 1): (1, "elves-rangers"),
            (4, 0): (1, "elves-wardens"),
        }
    )
    return state


def doom_called_on_a_liege_and_a_unit() -> ReignState:
    # The rival called Doom: giving up the Liege eradicates its player (§Doom Action)
    state = field(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (1, 1): (0, "empire-archers"),
            (3, 0): (1, "elves-oak-queen"),
            (3, 1): (1, "elves-rangers"),
        },
        active=0,
    )
    state.apply(DOOM)
    assert state.tasks[0][:2] == ("doom_discard", 1)
    return state


# --- never pass up a free play that only helps ------------------------------------------------
def another_turn_then_lethal() -> ReignState:
    # Another Turn, drawn after a pass, costs nothing and may be ignored (§Reinforcement Phase);
    # resolved, it gives the Archers a Turn to beat the Oak Queen
    state = lethal_for_one_attacker_of_two()
    stack(state, "another-turn")
    state.apply(PASS)
    assert state.tasks[0][0] == "turn_card" and state.current_player() == 0
    return state


def shogun_attacked_beside_swordsmen() -> ReignState:
    # Legionnaires 5 against the Shogun 5: equal totals defeat both (§Attack Action), unless
    # her owner reveals the adjacent Swordsmen for +3 Defence (§FAQ); not revealing loses
    state = field(
        {
            (0, 0): (0, "azuma-shogun"),
            (-1, 0): (0, "azuma-swordsmen"),
            (0, -1): (0, "azuma-spearmen"),
            (1, 0): (1, "empire-legionnaires"),
            (2, 0): (1, "empire-archers"),
        },
        ("azuma", "empire"),
        active=1,
    )
    state.apply(Action("attack", (1, 0, 0, 0)))
    assert state.tasks[0][:2] == ("reveal", 0)
    return state


def won(state: ReignState) -> bool:
    return state.winner() == 0 and state.end_reason() == WIN_REASON


def liege_stands(seat: int) -> Callable[[ReignState], bool]:
    """``seat`` is still in the game once the turn is over (§Victory)."""
    return lambda state: state.alive[seat] and state.liege_square(seat) is not None


#: situation -> (the position, the seat to decide, what choosing right leads to)
POSITIONS: dict[str, tuple[Callable[[], ReignState], int, Callable[[ReignState], bool]]] = {
    "take_lethal_on_the_seen_liege": (lethal_on_the_seen_liege, 0, won),
    "take_lethal_with_the_attacker_that_beats_the_liege": (lethal_for_one_attacker_of_two, 0, won),
    "take_lethal_with_the_unit_whose_reinforcement_wins": (lethal_with_a_reinforcement, 0, won),
    "call_doom_when_the_rival_has_only_its_liege": (doom_against_a_lone_liege, 0, won),
    "call_doom_when_both_rivals_have_only_their_lieges": (doom_against_two_lone_lieges, 0, won),
    "never_attack_a_seen_stronger_unit_with_the_liege": (
        liege_beside_a_seen_stronger_unit,
        0,
        liege_stands(0),
    ),
    "never_attack_a_seen_stronger_unit_with_the_liege_left_alone": (
        liege_alone_beside_a_seen_stronger_unit,
        0,
        liege_stands(0),
    ),
    "never_attack_an_unseen_unit_with_the_liege": (liege_beside_an_unseen_unit, 0, liege_stands(0)),
    "never_call_doom_with_only_the_liege_left": (liege_alone_before_a_doom, 0, liege_stands(0)),
    "never_discard_the_liege_to_doom": (doom_called_on_a_liege_and_a_unit, 1, liege_stands(1)),
    "resolve_another_turn_to_take_lethal": (another_turn_then_lethal, 0, won),
    "reveal_the_swordsmen_to_save_the_shogun": (
        shogun_attacked_beside_swordsmen,
        0,
        liege_stands(0),
    ),
}


def _square(args: tuple[str | int, ...]) -> tuple[int, int]:
    """An action's (row, column) arguments as the square they name."""
    row, column = args
    assert isinstance(row, int) and isinstance(column, int), args
    return row, column
