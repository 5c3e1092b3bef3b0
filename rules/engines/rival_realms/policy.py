"""A fast playing policy for Rival Realms: build up, attack every turn, block what hurts.

``play_action`` picks one legal action for whichever player is to act, looking only at what that
player sees (their hand, the open fields and piles; never the rival's hand or a draw deck). It
is the plain policy (``team(policy=plain)``, the baseline, and every search's playouts);
``dig_action`` below, the game's own agent (``team``, ``RivalRealmsPlugin.team_policy``), plays
it but for the Redraw, and the default's look-ahead chooses its attackers (``attack_choices``).

Before its plan, in every window and every choice of its own, it takes a win on offer
(``winning_action``, §`Winning`): a play or ability (paid for with the supply cards in hand) or
a target that wins at once, or an attack, reinforce play or target after which its unblocked
attackers deal at least the rival's life, however the rival blocks. It never pays life it does
not have (ruling 17: the payment would lose at once), and never attacks or blocks with a unit
whose leaving the field would meet a victory condition of the rival's (a Siege Camp counting
lost cards). Search agents take the same wins without searching (``RealmsState.advice``).

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

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

from rules.engines.core import Action
from rules.engines.rival_realms.state import ALL_OUT_TURN, END, PASS, POLICY, RealmsState

#: the window actions that can win at once or declare a lethal attack (``winning_action``)
WINNING_KINDS = ("play", "use", "attack")
#: the supply cards ``dig_action`` keeps in hand while it digs (a rule of thumb, not tuned)
DIG_KEEP = 2
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


def _survives_paying(
    state: RealmsState, player: int, payments: Iterable[Mapping[str, Any]]
) -> bool:
    """Would ``player`` still be alive after paying the life among ``payments``? Ruling 17 lets
    a payment bring its payer to 0, who has then lost (§`Winning`)."""
    paid = sum(int(p["amount"]) for p in payments if p["pay"] == "lose_life")
    return paid < state.life[player]


def _action_costs(state: RealmsState, player: int, action: Action) -> tuple[Mapping[str, Any], ...]:
    """The payments a ``play`` or ``use`` action asks for besides a card's supply cost."""
    if action.kind == "play":
        return state.table[_hand_card(state, player, action.args[0])].additional_costs
    if action.kind == "use":
        card = _field_card(state, player, action)
        return state.table[card].abilities[cast(int, action.args[2])].cost
    return ()


def _survives(state: RealmsState, player: int, action: Action) -> bool:
    """Would ``player`` survive paying for ``action`` (``_survives_paying``)?"""
    return _survives_paying(state, player, _action_costs(state, player, action))


def _supply_due(state: RealmsState, player: int, action: Action) -> int:
    """The supply a ``play`` or ``use`` action costs in all."""
    due = sum(
        int(p["amount"]) for p in _action_costs(state, player, action) if p["pay"] == "supply"
    )
    if action.kind == "play":
        due += state.table[_hand_card(state, player, action.args[0])].cost
    return due


def _combat_is_lethal(state: RealmsState, player: int) -> bool:
    """Is ``player`` attacking with units whose unblocked attack is at least the rival's life
    (§`Resolve`)? Before blocks are declared ``combat_outlook`` has the defender block the
    strongest attackers, one unit each: the least damage blocks can let through (§`Defend`)."""
    if state.active != player or not state.attackers:
        return False
    return state.combat_outlook()[0] >= state.life[1 - player]


def _win_in_sight(state: RealmsState, player: int, forecast: bool) -> bool:
    """Could one action of ``player``'s win now? Only then is it worth trying them on copies:
    a victory ability on its field or in its hand (§`Winning`), damage to the rival within its
    abilities' reach of the rival's life, or, with ``forecast``, an attack of its own to
    declare or under way (§`Combat`)."""
    if forecast and state.active == player and (state.attackers or state.phase == "attack"):
        return True
    reach = 0
    for card in (*state.field[player], *state.hand[player]):
        for ability in state.table[card].abilities:
            if ability.kind == "victory":
                return True
            reach += sum(
                int(op.get("amount", 0)) for op in ability.do if op["op"] == "damage_rival"
            )
    return 0 < state.life[1 - player] <= reach


def _decides(
    state: RealmsState, player: int, action: Action, forecast: bool, choices: int = 2
) -> bool:
    """Does ``action`` win before the rival decides anything (or, with ``forecast``, leave a
    lethal combat: in the Attack step, with the attackers ``_attack`` would add)? Its own
    payments and targets that follow are tried every way, up to ``choices`` of them. The copy
    is played only until the rival would decide, and a win reads only open cards and life, so
    nothing hidden from ``player`` counts."""
    trial = state.clone().quiet()
    trial.apply_unchecked(action)
    if trial.is_terminal():
        return trial.winner() == player
    if choices and trial.tasks and trial.current_player() == player:
        return any(_decides(trial, player, a, forecast, choices - 1) for a in trial.legal_actions())
    if not forecast or trial.tasks:
        return False
    return _lethal_once_declared(trial, player)


def _lethal_once_declared(state: RealmsState, player: int) -> bool:
    """Is ``player``'s combat lethal once ``_attack`` has declared the attackers it would still
    add in the Attack step (``state`` itself is left as it is)?"""
    trial = state.clone().quiet() if state.phase == "attack" else state
    while trial.phase == "attack" and trial.current_player() == player:
        more = _attack(trial, player, trial.legal_actions())
        if more == END:
            break
        trial.apply_unchecked(more)
    return _combat_is_lethal(trial, player)


def winning_action(state: RealmsState, forecast: bool = True) -> Action | None:
    """The next step of a win on offer to the player to act, or None: a play, ability, payment
    or target that wins at once (§`Winning`), or the supply card toward a play or ability that
    the supply cards in hand pay for and that wins at once; with ``forecast``, also one after
    which its unblocked attackers deal at least the rival's life."""
    player = state.current_player()
    if player not in (0, 1) or not _win_in_sight(state, player, forecast):
        return None
    actions = state.legal_actions()
    if state.tasks:
        return next((a for a in actions if _decides(state, player, a, forecast)), None)
    if forecast and _lethal_once_declared(state, player):
        # The combat wins as it stands: every play or ability would "decide" it, and one that
        # can be paid for again and again (Mage Tower's draw) would be chosen for ever.
        return _attack(state, player, actions) if state.phase == "attack" else None
    for action in actions:
        if action.kind in WINNING_KINDS and _decides(state, player, action, forecast):
            return action
    if not any(a.kind == "supply" for a in actions):
        return None
    funded = state.clone().quiet()
    for card in [c for c in funded.hand[player] if funded.table[c].type == "supply"]:
        funded.apply_unchecked(Action("supply", (funded.table[card].key,)))
        if funded.current_player() != player or funded.tasks:
            return None  # a supply card that asks something: no plain line to follow
    for action in funded.legal_actions():
        if action.kind in ("play", "use") and _decides(funded, player, action, forecast):
            due = _supply_due(funded, player, action) - state.supply[player]
            return _pay_toward(state, actions, player, due)
    return None


def _leaving_crowns_rival(state: RealmsState, player: int, card: int, lost: bool) -> bool:
    """Would ``card`` leaving ``player``'s field (to the lost deck when ``lost``, else the
    discard pile) meet a victory condition of the rival's, such as Siege Camp's lost cards?"""
    return state.leaving_crowns(1 - player, [card], lost)


def _play_worth(state: RealmsState, card: int) -> float:
    """How much buying ``card``, a permanent other than a realm, helps: a unit its attack,
    defense and cost, anything else its cost (a realm is ``_realm_worth``'s)."""
    spec = state.table[card]
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


def _plan(state: RealmsState, player: int, reserve: int = 0) -> list[int]:
    """The permanents in hand this turn's supply should buy, in the order to play them.

    Every supply card in hand together sets the budget. Among the sets of permanents it could
    pay for (a prerequisite may be a realm bought earlier in the same set), the policy takes the
    one worth most, where each card bought also counts for the hand slot it frees: a hand only
    refills to seven (§`Redraw`), so cards left in it that can never be paid for lock it.
    ``reserve`` is supply left out of the budget (what a Redraw spent on drawing).
    """
    budget = state.supply[player] + sum(state.table[c].supply for c in state.hand[player])
    budget -= reserve
    candidates = []
    for card in state.hand[player]:
        spec = state.table[card]
        if not spec.is_permanent or spec.cost > budget:
            continue
        if not _survives_paying(state, player, spec.additional_costs):
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
                worth += _play_worth(state, card)
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
            uses = [a for a in actions if a.kind == "use" and _survives(state, player, a)]
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


def _safe_attacks(state: RealmsState, player: int, actions: list[Action]) -> Iterator[Action]:
    """The attack declarations of ``actions`` whose unit may leave the field without meeting a
    victory condition of the rival's, one at a time (the policy takes the first)."""
    rival = 1 - player
    striking = state.striking(rival)
    for action in actions:
        if action.kind != "attack":
            continue
        unit = _field_card(state, player, action)
        # every unit in a combat leaves the field (§`Unit Cards`); it is lost when the rival's
        # blockers together deal more than its defense
        lost = striking > state.defense_of(unit)
        if not _leaving_crowns_rival(state, player, unit, lost):
            yield action


def _attack(state: RealmsState, player: int, actions: list[Action]) -> Action:
    return next(_safe_attacks(state, player, actions), END)


def attack_choices(state: RealmsState) -> list[Action] | None:
    """The Attack step's choices a look-ahead may weigh (``RealmsState.lookahead_actions``):
    ending the step, or sending in one more unit whose leaving the field crowns no rival. None
    outside the Attack step, while a choice is pending, while a win is on offer (the policy takes
    it) and where there is nothing to choose: the policy decides those alone."""
    if state.phase != "attack" or state.tasks or state.turn > ALL_OUT_TURN:
        return None
    player = state.current_player()
    actions = state.legal_actions()
    if END not in actions or winning_action(state) is not None:
        return None
    choices = [*_safe_attacks(state, player, actions), END]
    return choices if len(choices) > 1 else None


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
        lost = saved > state.defense_of(blocker) - state.damage.get(blocker, 0)
        if _leaving_crowns_rival(state, player, blocker, lost):
            continue
        gain = saved - 0.5 * hit
        if best is None or gain > best[0]:
            best = (gain, action)
    return best[1] if best is not None else END


def _combat_help(state: RealmsState, player: int, actions: list[Action], phase: str) -> Action:
    plays = [a for a in actions if a.kind == "play" and _survives(state, player, a)]
    if plays:
        return plays[0]
    for action in actions:
        if action.kind == "use" and _survives(state, player, action):
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
        if action.kind == "use" and _survives(state, player, action):
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


def _digging_redraw(state: RealmsState, player: int, actions: list[Action]) -> Action:
    """Redraw for ``dig_action``: while the supply cards left in hand could buy nothing in
    hand, trade the smallest for a new card, down to ``DIG_KEEP`` of them; then as ``_redraw``."""
    supplies = [c for c in state.hand[player] if state.table[c].type == "supply"]
    if len(supplies) > DIG_KEEP and not _plan(state, player, reserve=state.supply[player]):
        smallest = min(supplies, key=lambda c: (state.table[c].supply, c))
        return Action("supply", (state.table[smallest].key,))
    return _redraw(state, player, actions)


def dig_action(state: RealmsState) -> Action:
    """The game's own policy (the ``team`` agent, the default since 2026-12-07): as
    ``play_action``, but in Redraw, when the supply cards in hand could buy nothing in hand, it
    plays all but ``DIG_KEEP`` of them so the redraw brings that many new cards, where
    ``play_action`` (``team(policy=plain)``, the baseline) trades one a turn. Decks with supply
    to spare (the built decks) reach their units and realms sooner; measured in docs/agents.md,
    *Rival Realms: a look before the attack*."""
    if state.phase == "redraw" and not state.tasks and winning_action(state) is None:
        player = state.current_player()
        actions = state.legal_actions()
        if len(actions) > 1:
            return _digging_redraw(state, player, actions)
    return play_action(state)


def play_action(state: RealmsState) -> Action:
    """Return this policy's action for the player to act (a legal action of ``state``)."""
    player = state.current_player()
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    winning = winning_action(state)
    if winning is not None:
        return winning
    if state.tasks:
        return _decide_task(state, player, actions)
    phase = state.phase
    if phase == "deploy":
        return _deploy(state, player, actions)
    if phase == "attack":
        return _attack(state, player, actions)
    if phase == "defend":
        return _defend(state, player, actions)
    if phase == "reinforce":
        return _combat_help(state, player, actions, "reinforce")
    if phase in ("resolve_attacker", "resolve_defender"):
        return _combat_help(state, player, actions, "resolve")
    if phase == "redraw":
        return _redraw(state, player, actions)
    return END if END in actions else actions[-1]


POLICY.update(play=play_action, win=winning_action, attack_choices=attack_choices)
