"""A greedy team policy for Reggae Revolution and a measure of how winnable a setup is.

``greedy_action`` plays every seat the same way, looking only at what the table shows (hands
are open in this co-operative game; face-down piles are never read). Its priorities each main
phase: score a card for a missing pair (Yay), persuade villains that threaten the loss
condition (Sway), play everything else for symbols (Play), then buy the cards that score
missing pairs or carry the strongest effects, favouring the colours the buyer's cards lack so
that a hand can persuade any villain (Pay). It never gives a villain the last card
left of a missing pair while the loss is not at hand, and in a deal no card can win any more
(``ReggaeState.can_still_win``) it persuades nobody, so the villains end the deal by the book
(§Object) rather than the turn limit. Once two symbols are suppressed it keeps the cards that
could persuade a villain that alone suppresses one (``persuaders``) for that persuasion instead
of playing them first for the cards they draw. ``plain_action`` is the policy without that
guard, the cards it keeps and the colour balance, as it was on 2026-12-01 when it plays with
that day's weights (``bench/baselines/reggae-revolution.json``). ``winnability`` runs seeded
games with it and reports the team's win rate with a Wilson 95% interval.

Its numbers (what each effect is worth, how much a purchase weighs a missing pair, a wild card,
the colours the buyer lacks, how a gift is weighed against the card given) are weights of the
game's ``weights.json``, named ``policy_...``, read from the same table as the evaluation's, so
``bench/tune.py --game reggae-revolution --agent team --only policy_`` tunes them by self-play
and ``team(weights=FILE)`` plays other ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engines.core import Action
from rules.engines.core.intervals import wilson_interval
from rules.engines.reggae_revolution.effects import BOON_OPS, COLOURS
from rules.engines.reggae_revolution.evaluation import WEIGHTS
from rules.engines.reggae_revolution.state import (
    END,
    KEEP,
    POLICY,
    REDRAW,
    STOP,
    ReggaeState,
    team_value,
)

#: the weight that says how much a card's effect is worth to the policy, by the effect's op
#: (``policy_worth_draw``, ...: every op of a boon, ``effects.BOON_OPS``)
EFFECT_WORTH = {op: f"policy_worth_{op}" for op in BOON_OPS}
DRAWING_OPS = frozenset({"draw", "recover", "gain_symbols"})
#: below this many cards the policy refills the active player's deck rather than thinning it
TARGET_DECK = 12
#: from this many suppressed symbols the policy persuades before it scores (step 2 of its turn)
URGENT_SUPPRESSED = 2
#: the most decisions ``turn_value`` lets the policy take to finish a turn (a turn is finite,
#: ruling 9 and 10; this only bounds the loop)
TURN_ACTIONS = 200


def _deck_size(state: ReggaeState) -> int:
    return len(state.owner_cards(state.active))


def _pair(state: ReggaeState, card: int) -> tuple[str | None, str | None]:
    spec = state.table[card]
    return (spec.symbol, spec.colour)


def fills_missing(state: ReggaeState, card: int, missing: set[tuple[str, str]]) -> bool:
    """Would scoring ``card`` cover one of the ``missing`` pairs (a wild card covers any)?"""
    spec = state.table[card]
    if spec.is_wild:
        return bool(missing)
    return spec.type in ("starter", "main") and (spec.symbol, spec.colour) in missing


def _effect_worth(state: ReggaeState, card: int) -> float:
    spec = state.table[card]
    return sum(WEIGHTS[EFFECT_WORTH[e["op"]]] * e.get("amount", 1) for e in spec.effects)


def card_worth(state: ReggaeState, card: int) -> float:
    """Return how much the team would miss ``card`` (higher: keep it, lower: give it away)."""
    spec = state.table[card]
    if spec.type == "oppression":
        return -5.0
    worth = _effect_worth(state, card)
    if fills_missing(state, card, state.missing_pairs()):
        worth += WEIGHTS["policy_keep_wild" if spec.is_wild else "policy_keep_missing"]
    if spec.type == "starter":
        worth -= 1.0
    return worth


def _key(state: ReggaeState, card: int) -> str:
    return state.table[card].key


def _mulligan(state: ReggaeState, player: int) -> Action:
    symbols = {state.table[c].symbol for c in state.hand[player]}
    return REDRAW if len(symbols) < 3 else KEEP


def _decision(state: ReggaeState, task: tuple[Any, ...], spread: bool) -> Action:
    kind, player = task[0], task[1]
    if kind == "mulligan":
        return _mulligan(state, player)
    if kind == "discard":
        card = min(state.hand[player], key=lambda c: (card_worth(state, c), _key(state, c)))
        return Action("discard", (_key(state, card),))
    if kind == "destroy":
        zone = state.hand[player] if task[3] == "hand" else state.discard[player]
        junk = [c for c in zone if state.table[c].type == "oppression"]
        if not junk and len(state.owner_cards(player)) > 12:
            scored = state.scored_pairs()
            junk = [
                c for c in zone if state.table[c].type == "starter" and _pair(state, c) in scored
            ]
        return Action("destroy", (_key(state, junk[0]),)) if junk else STOP
    if kind == "recover":
        options = [c for c in state.discard[player] if c not in state.played]
        best = max(options, key=lambda c: (card_worth(state, c), _key(state, c)), default=None)
        if best is None or card_worth(state, best) <= 0:
            return STOP
        return Action("recover", (_key(state, best),))
    if kind == "gain_free":
        choice = _best_buy(state, state.buyable(task[2]), spread)
        return Action("gain", (_key(state, choice),)) if choice is not None else STOP
    raise AssertionError(f"no policy for {kind}")


def colour_lacks(state: ReggaeState, player: int) -> dict[str, float]:
    """Return how much ``player``'s cards lack each colour: 1 - 4 x its share of them (1 when
    the player owns none of it, 0 at a quarter, -3 when every card is of it)."""
    colours = Counter(state.table[c].colour for c in state.owner_cards(player))
    total = sum(colours.values())
    return {c: 1.0 - 4.0 * colours[c] / total if total else 1.0 for c in COLOURS}


@dataclass(frozen=True)
class _Purchase:
    """What every card on offer is weighed against, read once a purchase: the pairs the team
    owns and the score area lacks, the colours of the villains in play, the refill bonus of the
    buyer's deck size and the colour bonus of its cards."""

    owned_pairs: set[Any]
    missing: set[tuple[str, str]]
    villain_colours: set[str | None]
    refill: float
    colour_bonus: Mapping[str, float]


def _buy_priority(state: ReggaeState, card: int, purchase: _Purchase) -> float:
    spec = state.table[card]
    missing = purchase.missing
    pair = (spec.symbol, spec.colour)
    priority = _effect_worth(state, card)
    if spec.colour is not None:
        priority += purchase.colour_bonus.get(spec.colour, 0.0)
    if spec.is_wild:
        priority += WEIGHTS["policy_buy_wild" if len(missing) > 2 else "policy_buy_wild_late"]
    elif pair in missing and pair not in purchase.owned_pairs:
        priority += WEIGHTS["policy_buy_missing"]
    elif spec.type == "starter":
        priority += 0.5 if spec.colour in purchase.villain_colours else -1.0
    return priority + purchase.refill + 0.1 * len(spec.cost)


def _best_buy(state: ReggaeState, cards: list[int], spread: bool) -> int | None:
    if not cards:
        return None
    bonus: dict[str, float] = {}
    if spread:
        weight = WEIGHTS["policy_colour_spread"]
        bonus = {c: weight * lack for c, lack in colour_lacks(state, state.active).items()}
    purchase = _Purchase(
        owned_pairs={
            _pair(state, c) for player in range(state.n) for c in state.owner_cards(player)
        },
        missing=state.missing_pairs(),
        villain_colours={state.table[v].colour for v in state.villains},
        # A deck that gifts and scores its cards away must be refilled, or hands run dry.
        refill=WEIGHTS["policy_refill"] * max(0, TARGET_DECK - _deck_size(state)),
        colour_bonus=bonus,
    )
    best, best_priority = None, 0.0
    for card in cards:
        priority = _buy_priority(state, card, purchase)
        if priority > best_priority:
            best, best_priority = card, priority
    return best


def _yay_choice(state: ReggaeState, hand: list[int]) -> int | None:
    missing = state.missing_pairs()
    plain = [c for c in hand if fills_missing(state, c, missing) and not state.table[c].is_wild]
    if plain:
        return min(plain, key=lambda c: (_effect_worth(state, c), _key(state, c)))
    wild = [c for c in hand if state.table[c].is_wild and missing]
    if wild:
        return wild[0]
    junk = [c for c in hand if state.table[c].type == "oppression"]
    return junk[0] if junk else None


def _last_of_their_pairs(
    state: ReggaeState, hand: list[int], left: Counter[tuple[str, str]]
) -> set[int]:
    """The cards of ``hand`` that are the last card left (``left``: ``cards_left``'s pairs) of
    a missing pair."""
    missing = state.missing_pairs()
    last: set[int] = set()
    for card in hand:
        pair = _pair(state, card)
        if pair in missing and left[pair] == 1:
            last.add(card)
    return last


def _sway_choice(
    state: ReggaeState, hand: list[int], urgent: bool, guard: bool
) -> tuple[int, int] | None:
    """Return (card, villain) for the most useful gift now, or None.

    A villain is worth persuading by how many symbols only it suppresses (the loss condition
    needs all four); the cheapest matching gift goes first. With ``urgent`` only gifts towards a
    villain the hand can finish this turn count. With ``guard`` a deal that can no longer be won
    (``ReggaeState.can_still_win``) persuades nobody, so the villains end it by the book instead
    of the turn limit, and the last card of a missing pair is kept unless the next villain may
    suppress the fourth symbol (a gift is destroyed with its villain, §Sway).
    """
    suppressed = Counter(s for v in state.villains for s in state.table[v].suppresses)
    danger = len(suppressed)
    last: set[int] = set()
    if guard and state.villains:
        left = state.cards_left()  # one count of the box for both checks
        if not state.can_still_win(left):
            return None
        if danger < 3:
            last = _last_of_their_pairs(state, hand, left[0])
    best: tuple[float, int, int] | None = None
    for villain in state.villains:
        spec = state.table[villain]
        unique = sum(1 for s in spec.suppresses if suppressed[s] == 1)
        need = spec.persuasion - len(state.gifts[villain])
        matching = [c for c in hand if c not in last and state.may_give(c, villain)]
        if not matching:
            continue
        completes = len(matching) >= need
        if urgent and not (completes and unique):
            continue
        card = min(matching, key=lambda c: (card_worth(state, c), _key(state, c)))
        card_spec = state.table[card]
        cost = max(card_worth(state, card), 0.0)
        if card_spec.is_wild and not (completes and danger >= 3):
            continue
        gain = unique * (1.0 + danger) + (WEIGHTS["policy_sway_completes"] if completes else 0.5)
        score = gain - 0.3 * need - WEIGHTS["policy_sway_card_cost"] * cost
        if card_spec.type == "starter":
            score += 1.0 if _deck_size(state) > TARGET_DECK else -1.0
        if score > 0 and (best is None or score > best[0]):
            best = (score, card, villain)
    return None if best is None else (best[1], best[2])


def greedy_action(state: ReggaeState) -> Action:
    """Return the greedy team policy's choice for the player to act."""
    return _team_choice(state, guard=True, spread=True)


def plain_action(state: ReggaeState) -> Action:
    """Return the policy's choice as it was when issue 28 set its targets (2026-12-01): without
    the guard of ``_sway_choice`` and the persuaders it keeps, and blind to the colours a
    purchase adds. With that day's weights (``bench/baselines/reggae-revolution.json``) it is
    the baseline ``bench/defaults.py`` measures the default by."""
    return _team_choice(state, guard=False, spread=False)


def persuaders(state: ReggaeState, hand: list[int]) -> frozenset[int]:
    """The cards of ``hand`` that could persuade a villain that alone suppresses a symbol: its
    colour's and wild cards (§Sway), the gifts that would lift a symbol off the loss condition."""
    suppressed = Counter(s for v in state.villains for s in state.table[v].suppresses)
    colours = {
        state.table[v].colour
        for v in state.villains
        if any(suppressed[s] == 1 for s in state.table[v].suppresses)
    }
    if not colours:
        return frozenset()
    return frozenset(c for c in hand if state.table[c].is_wild or state.table[c].colour in colours)


def _team_choice(state: ReggaeState, guard: bool, spread: bool) -> Action:
    if state.tasks:
        return _decision(state, state.tasks[0], spread)
    player = state.active
    hand = state.hand[player]
    scored = state.scored_pairs()
    urgent = len(state.suppressed_symbols()) >= URGENT_SUPPRESSED
    held = persuaders(state, hand) if guard and urgent else frozenset()
    # 1. Cards whose pair is already scored and whose effect brings more cards or symbols go
    #    first, so the later choices see a bigger hand; with the guard, not a card that could
    #    persuade a villain of step 2 (played, it is gone from the hand before step 2 asks).
    for card in sorted(hand, key=lambda c: _key(state, c)):
        spec = state.table[card]
        if card in held:
            continue
        if _pair(state, card) in scored and any(e["op"] in DRAWING_OPS for e in spec.effects):
            return Action("play", (spec.key, "effect"))
    # 2. When the villains already suppress two symbols or more, persuade before scoring.
    if urgent:
        gift = _sway_choice(state, hand, urgent=True, guard=guard)
        if gift is not None:
            return Action("give", (_key(state, gift[0]), _key(state, gift[1])))
    # 3. Yay: score a card for a missing pair (or bury an oppression card).
    if state.yays_left > 0:
        yay = _yay_choice(state, hand)
        if yay is not None:
            return Action("yay", (_key(state, yay),))
    # 4. Sway: persuade villains, starting with the ones that threaten the loss.
    gift = _sway_choice(state, hand, urgent=False, guard=guard)
    if gift is not None:
        card, villain = gift
        return Action("give", (_key(state, card), _key(state, villain)))
    # 5. Play everything else for symbols (effects on), best effects first.
    playable = [c for c in hand if state.table[c].type != "oppression"]
    if playable:
        card = max(playable, key=lambda c: (_effect_worth(state, c), _key(state, c)))
        spec = state.table[card]
        return Action("play", (spec.key, "effect") if spec.effects else (spec.key,))
    # 6. Pay: buy the best affordable card while there is one worth having.
    choice = _best_buy(state, state.buyable(None), spread)
    if choice is not None:
        return Action("buy", (_key(state, choice),))
    return END


def turn_value(state: ReggaeState, action: Action) -> float:
    """Return the team's value (``team_value``) after ``action`` and the rest of the turn as the
    policy plays it: the next Villain Phase included, so a turn that lets the villains suppress
    the fourth symbol scores the loss. ``state`` is not changed."""
    child = state.clone()
    turn = child.turn
    child.apply_unchecked(action)
    for _ in range(TURN_ACTIONS):
        if child.is_terminal() or child.turn != turn:
            break
        child.apply_unchecked(greedy_action(child))
    return team_value(child)


class GreedyTeamAgent:
    """An agent (``act(state)``) playing the greedy team policy for whichever seat is to act."""

    name = "greedy-team"

    def act(self, state: ReggaeState) -> Action:
        """Return the greedy team policy's action."""
        return greedy_action(state)


@dataclass
class Winnability:
    """How often the greedy team wins a setup, with how the games ended and how long they ran."""

    setup: dict[str, Any]
    games: int
    wins: int
    interval: tuple[float, float]
    end_reasons: dict[str, int] = field(default_factory=dict)
    mean_turns: float = 0.0

    @property
    def win_rate(self) -> float:
        """Return wins / games."""
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the report as JSON-ready data."""
        return {
            "setup": self.setup,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "interval": [round(x, 4) for x in self.interval],
            "end_reasons": self.end_reasons,
            "mean_turns": round(self.mean_turns, 2),
        }


def play_greedy(game: Any, seed: int, setup: Mapping[str, Any] | None = None) -> ReggaeState:
    """Play one whole game with the greedy team policy in every seat and return the end state."""
    state = game.new_initial_state(seed, setup)
    while not state.is_terminal():
        state.apply_unchecked(greedy_action(state))
    return state


def winnability(
    game: Any = None,
    setup: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
) -> Winnability:
    """Play ``games`` seeded games (seeds ``seed``, ``seed + 1`` ...) greedily; report the win rate."""
    if game is None:
        from rules.engines.reggae_revolution.game import ReggaeRevolutionGame

        game = ReggaeRevolutionGame()
    reasons: Counter[str] = Counter()
    wins = 0
    turns = 0
    for offset in range(games):
        state = play_greedy(game, seed + offset, setup)
        wins += state.result > 0
        reasons[state.end_reason()] += 1
        turns += state.turn
    return Winnability(
        setup=dict(setup or {}),
        games=games,
        wins=wins,
        interval=wilson_interval(wins, games),
        end_reasons=dict(sorted(reasons.items())),
        mean_turns=turns / games if games else 0.0,
    )


POLICY.update(play=greedy_action, turn_value=turn_value)
