"""A fast playing policy for Rival Realms: build up, attack every turn, block what hurts.

``play_action`` picks one legal action for whichever player is to act, looking only at what that
player sees (their hand, the open fields and piles; never the rival's hand or a draw deck). It
is the game's own agent (the ``team`` agent of matchups, ``RivalRealmsPlugin.team_policy``).

Its plan follows the rulebook's turn (§`Turn Sequence`):

* Deploy: buy the set of permanents in hand worth most that every supply card in hand could
  pay for together (realms the others need first, then units; each card bought also frees a
  hand slot, and a hand of cards it can never pay for locks, §`Redraw`), playing supply cards
  only to pay for something, the smallest that covers the rest of a cost.
* Attack: every unit attacks; a unit in a combat is discarded at the end of §`Resolve` anyway,
  so holding it back only wins a block later.
* Defend: block an attacker with a unit that hits for less than the attacker would deal, and
  with anything when the damage getting through would be lethal.
* Reinforce and Resolve: play reinforce cards and reinforce / resolve abilities it can pay for.
* Redraw: when nothing in hand can be paid for even with every supply card in it, play the
  smallest supply card so the redraw brings a new card (a hand of seven cards its owner can
  never pay for never changes again, §`Redraw`; ruling 21); with no supply card left in hand,
  use any ability that can still change something (a realm that discards itself for supply).
  Under the house rule ``redraw_discard`` it first discards the cards in hand that nothing in
  hand could pay for or whose prerequisites are nowhere on the field or in hand.
"""

from __future__ import annotations

from typing import cast

from rules.engines.core import Action
from rules.engines.rival_realms.state import END, PASS, RealmsState

#: what a card in hand is worth keeping, by type (units add their attack and defense)
TYPE_WORTH = {"supply": 2.0, "realm": 3.0, "unit": 1.0, "reinforce": 1.5}


def _worth(state: RealmsState, card: int) -> float:
    spec = state.table[card]
    worth = TYPE_WORTH[spec.type] + spec.supply
    if spec.type == "unit":
        worth += spec.attack + spec.defense
    player = state.owner[card]
    if spec.type != "supply" and not state._prerequisites_met(player, spec.prerequisites):
        names = {state.table[c].name for c in state.hand[player]}
        if not all(name in names for name in spec.prerequisites):
            worth -= 5.0  # nothing on the field or in hand can make it playable
    return worth


def _hand_card(state: RealmsState, player: int, key: object) -> int:
    for card in state.hand[player]:
        if state.table[card].key == key:
            return card
    raise KeyError(key)


def _field_card(state: RealmsState, player: int, action: Action) -> int:
    return state.field[player][cast(int, action.args[1])]


def _play_worth(state: RealmsState, player: int, card: int) -> float:
    """How much buying ``card`` helps: realms others in hand need, then strong units."""
    spec = state.table[card]
    if spec.type == "realm":
        needed = sum(1 for c in state.hand[player] if spec.name in state.table[c].prerequisites)
        return 10.0 + 3.0 * needed + spec.cost
    if spec.type == "unit":
        return spec.attack + spec.defense + spec.cost
    return float(spec.cost)


def _affordable_with_hand(state: RealmsState, player: int, phase_types: tuple[str, ...]) -> bool:
    """Could some card of ``phase_types`` in hand be paid for with every supply card in hand?"""
    budget = state.supply[player] + sum(state.table[c].supply for c in state.hand[player])
    for card in state.hand[player]:
        spec = state.table[card]
        if (
            spec.type in phase_types
            and spec.cost <= budget
            and state._prerequisites_met(player, spec.prerequisites)
        ):
            return True
    return False


def _best_supply(state: RealmsState, actions: list[Action], player: int) -> Action | None:
    supplies = [a for a in actions if a.kind == "supply"]
    if not supplies:
        return None
    return max(supplies, key=lambda a: state.table[_hand_card(state, player, a.args[0])].supply)


def _decide_task(state: RealmsState, player: int, actions: list[Action]) -> Action:
    kind = state.tasks[0][0]
    if kind in ("pay_hand", "rival_discard"):
        return min(actions, key=lambda a: _worth(state, _hand_card(state, player, a.args[0])))
    if kind == "pay_field":
        return min(actions, key=lambda a: _worth(state, _field_card(state, player, a)))
    if kind == "return":
        return max(actions, key=lambda a: TYPE_WORTH.get(str(a.args[0]), 0.0))
    if kind == "assign":
        blockers = state.tasks[0][3]
        points = cast(int, state.tasks[0][4])
        first = blockers[0]
        need = state.defense_of(first) + 1 - state.damage.get(first, 0)
        amount = min(points, max(0, need))
        return next(a for a in actions if a.args[2] == amount)
    if kind == "choose":
        op = state._op(state.tasks[0])
        own = op.get("target") == "own_unit"
        side = player if own else 1 - player

        def score(action: Action) -> float:
            card = state.field[side][cast(int, action.args[1])]
            spec = state.table[card]
            strength = state.attack_of(card) + state.defense_of(card) + spec.cost
            return strength + (10.0 if state.in_combat(card) else 0.0)

        return max(actions, key=score)
    return actions[0]


def _realm_worth(state: RealmsState, player: int, card: int, planned: set[str]) -> float:
    """A realm is worth its abilities and the cards in hand it lets in; a second copy of a realm
    that only serves as a prerequisite adds nothing but the hand slot it frees."""
    spec = state.table[card]
    on_field = {state.table[c].name for c in state.field[player]} | planned
    if spec.name in on_field and not spec.abilities:
        return 0.5
    needed = sum(1 for c in state.hand[player] if spec.name in state.table[c].prerequisites)
    return 2.0 + 3.0 * needed + (2.0 if spec.abilities else 0.0)


def _plan(state: RealmsState, player: int) -> list[int]:
    """The permanents in hand this turn's supply should buy, in the order to play them.

    Every supply card in hand together sets the budget. Among the sets of permanents it could
    pay for (a prerequisite may be a realm bought earlier in the same set), the policy takes the
    one worth most, where each card bought also counts for the hand slot it frees: a hand only
    refills to seven (§`Redraw`), so cards left in it that can never be paid for lock it.
    """
    budget = state.supply[player] + sum(state.table[c].supply for c in state.hand[player])
    candidates = []
    for card in state.hand[player]:
        spec = state.table[card]
        if not spec.is_permanent or spec.cost > budget:
            continue
        if not state._payable(
            player, spec.additional_costs, 0, None, spec.prerequisites, from_hand=1
        ):
            continue
        candidates.append(card)
    candidates.sort(key=lambda c: (state.table[c].type != "realm", c))
    on_field = {state.table[c].name for c in state.field[player]}
    best: tuple[float, list[int]] = (0.0, [])
    for mask in range(1, 1 << len(candidates)):
        chosen = [c for i, c in enumerate(candidates) if mask >> i & 1]
        if sum(state.table[c].cost for c in chosen) > budget:
            continue
        names = set(on_field)
        worth = 0.0
        ok = True
        for card in chosen:
            spec = state.table[card]
            if not all(n in names for n in spec.prerequisites):
                ok = False
                break
            if spec.type == "realm":
                worth += _realm_worth(state, player, card, names - on_field)
            else:
                worth += _play_worth(state, player, card)
            worth += 3.0  # the hand slot it frees
            names.add(spec.name)
        if ok and worth > best[0]:
            best = (worth, chosen)
    return best[1]


def _target(state: RealmsState, player: int) -> int | None:
    """The first permanent of this turn's plan (``_plan``), or None."""
    plan = _plan(state, player)
    return plan[0] if plan else None


def _pay_toward(state: RealmsState, actions: list[Action], player: int, due: int) -> Action | None:
    """The supply card to play toward ``due`` more supply: the smallest that covers it, else
    the largest (so little supply goes to waste at the end of the turn, §`Supply`)."""
    supplies = [a for a in actions if a.kind == "supply"]
    if not supplies:
        return None

    def gives(action: Action) -> int:
        return state.table[_hand_card(state, player, action.args[0])].supply

    covering = [a for a in supplies if gives(a) >= due]
    if covering:
        return min(covering, key=gives)
    return max(supplies, key=gives)


def _deploy(state: RealmsState, player: int, actions: list[Action]) -> Action:
    target = _target(state, player)
    if target is None:
        if not any(state.table[c].type == "supply" for c in state.hand[player]):
            # A hand with nothing to pay with: any ability that can still change something.
            uses = [a for a in actions if a.kind == "use"]
            if uses:
                return uses[0]
        return END
    key = state.table[target].key
    play = Action("play", (key,))
    if play in actions:
        return play
    due = state.table[target].cost - state.supply[player]
    supply = _pay_toward(state, actions, player, due)
    return supply if supply is not None else END


def _attack(state: RealmsState, actions: list[Action]) -> Action:
    attacks = [a for a in actions if a.kind == "attack"]
    return attacks[0] if attacks else END


def _defend(state: RealmsState, player: int, actions: list[Action]) -> Action:
    blocks = [a for a in actions if a.kind == "block"]
    if not blocks:
        return END
    incoming = sum(state.attack_of(a) for a in state.attackers if a not in state.blocked)
    lethal = incoming >= state.life[player]
    best: tuple[float, Action] | None = None
    for action in blocks:
        blocker = state.field[player][cast(int, action.args[1])]
        attacker = state.field[state.active][cast(int, action.args[3])]
        if attacker in state.blocked:
            continue
        hit, saved = state.attack_of(blocker), state.attack_of(attacker)
        if saved <= hit and not lethal:
            continue
        gain = saved - 0.5 * hit
        if best is None or gain > best[0]:
            best = (gain, action)
    return best[1] if best is not None else END


def _combat_help(state: RealmsState, player: int, actions: list[Action], phase: str) -> Action:
    plays = [a for a in actions if a.kind == "play"]
    if plays:
        return plays[0]
    for action in actions:
        if action.kind == "use":
            ability = state.table[_field_card(state, player, action)].abilities[
                cast(int, action.args[2])
            ]
            if phase in ability.phases and not any(
                p["pay"] in ("discard_self", "lose_self") for p in ability.cost
            ):
                return action
    if phase == "reinforce" and _affordable_with_hand(state, player, ("reinforce",)):
        supply = _best_supply(state, actions, player)
        if supply is not None:
            return supply
    return PASS if PASS in actions else END


def _redraw(state: RealmsState, player: int, actions: list[Action]) -> Action:
    for action in actions:
        if action.kind == "use":
            ability = state.table[_field_card(state, player, action)].abilities[
                cast(int, action.args[2])
            ]
            if "redraw" in ability.phases:
                return action
    offered = [a for a in actions if a.kind == "discard"]
    if offered:
        # The house rule ``redraw_discard`` (ruling 23) only: shed the cards nothing in hand
        # could pay for, or whose prerequisites are nowhere in sight, before drawing.
        budget = sum(state.table[c].supply for c in state.hand[player])
        names = {state.table[c].name for c in state.hand[player] + state.field[player]}
        for action in offered:
            spec = state.table[_hand_card(state, player, action.args[0])]
            if spec.type != "supply" and (
                spec.cost > budget or not all(n in names for n in spec.prerequisites)
            ):
                return action
    if state.supply[player] == 0 and _target(state, player) is None:
        # Nothing to buy next turn: trade the smallest supply card in hand for a new card.
        supplies = [a for a in actions if a.kind == "supply"]
        if supplies:
            return min(
                supplies, key=lambda a: state.table[_hand_card(state, player, a.args[0])].supply
            )
    return END


def play_action(state: RealmsState) -> Action:
    """Return this policy's action for the player to act (a legal action of ``state``)."""
    player = state.current_player()
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if state.tasks:
        return _decide_task(state, player, actions)
    phase = state.phase
    if phase == "deploy":
        return _deploy(state, player, actions)
    if phase == "attack":
        return _attack(state, actions)
    if phase == "defend":
        return _defend(state, player, actions)
    if phase == "reinforce":
        return _combat_help(state, player, actions, "reinforce")
    if phase in ("resolve_attacker", "resolve_defender"):
        return _combat_help(state, player, actions, "resolve")
    if phase == "redraw":
        return _redraw(state, player, actions)
    return END if END in actions else actions[-1]
