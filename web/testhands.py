"""Test hands on a deck page: a sample opening hand with mulligans, goldfish turns, N-hand figures.

The rules engines do the work (``rules.test_hands`` for the figures, the game's engine for the
walk); this module only turns a deck into engine records and replays a walk from its few
choices. A walk is stateless: ``(seed, mulligans, kept, turns)`` in the URL replays the same
game exactly, because an engine's randomness comes only from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from decks.models import Deck, DeckCard

# Games whose engine has a test-hands model (rules/test_hands.py); others say "not available yet".
TEST_HAND_GAMES = frozenset({"revolt-n-reign"})
MAX_TURNS = 40
MAX_HANDS = 500
WALK_TURN_LIMIT = 80


def test_hands_available(game_slug: str) -> bool:
    """Whether the game has a test-hands model (and its engine is installed)."""
    if game_slug not in TEST_HAND_GAMES:
        return False
    try:
        import rules.test_hands  # noqa: F401
    except ImportError:
        return False
    return True


def deck_records(deck: Deck) -> list[dict[str, Any]]:
    """One engine record per copy of each card in the deck (the shape ``Card.record()`` gives)."""
    rows = (
        DeckCard.objects.filter(deck=deck)
        .select_related("card__card_type", "card__branch", "card__rarity", "card__card_set")
        .prefetch_related("card__subtypes")
        .order_by("card__name")
    )
    records: list[dict[str, Any]] = []
    for row in rows:
        records.extend([row.card.record()] * row.quantity)
    return records


@dataclass
class GoldfishView:
    """Where a walk stands: the player's table after the choices made so far."""

    seed: int
    mulligans: int
    kept: bool
    turns: int
    phase: str
    turn: int
    hand: list[str]
    can_mulligan: bool
    lp: int
    ip: int
    rival_lp: int
    pillars: list[str]
    board: list[str]
    draw_pile: int
    finished: bool
    outcome: str = ""
    log: list[str] = field(default_factory=list)
    error: str = ""


def _names(view: list[Any]) -> list[str]:
    return [item["name"] if isinstance(item, dict) else str(item) for item in view]


def _describe(event: Any) -> str:
    from web.matchups import event_line

    line = event_line(event.as_dict())
    who = "you" if line["player"] == 0 else "rival"
    return f"{line['kind']} ({who}){': ' + line['detail'] if line['detail'] else ''}"


def goldfish_walk(
    deck: Deck, *, seed: int, mulligans: int = 0, kept: bool = False, turns: int = 0
) -> GoldfishView:
    """Deal the deck's opening hand for ``seed``, take ``mulligans``, keep when ``kept``, then
    play ``turns`` of the player's own turns with the goldfish line against an idle rival."""
    from rules.adapters import engine_for
    from rules.engines.core import Action, SetupError
    from rules.test_hands import goldfish_action

    records = deck_records(deck)
    game = engine_for(deck.game.slug)
    setup = {"decks": [records, records], "first_player": 0, "turn_limit": WALK_TURN_LIMIT}
    try:
        state = game.new_initial_state(seed, setup)
    except SetupError as error:
        return _empty_view(seed, str(error))
    taken = 0
    own_turns = 0
    last_turn = None
    log_from = 0
    while not state.is_terminal():
        player, phase = state.current_player(), state.phase
        if phase == "mulligan":
            if player != 0:
                state.apply(Action("keep"))
            elif taken < mulligans and Action("mulligan") in state.legal_actions():
                state.apply(Action("mulligan"))
                taken += 1
            elif kept:
                state.apply(Action("keep"))
            else:
                break
            continue
        if phase == "equalize":
            state.apply(Action("pass"))
            continue
        if player == 1:
            state.apply(state.legal_actions()[0] if phase == "discard" else Action("end"))
            continue
        if state.turn != last_turn:
            if own_turns == turns:
                break
            last_turn = state.turn
            own_turns += 1
            log_from = len(state.events)
        state.apply(goldfish_action(state))
    seen = state.observation(0)
    me, rival = seen["players"][0], seen["players"][1]
    finished = state.is_terminal()
    outcome = ""
    if finished:
        winner = state.winner()
        result = "won" if winner == 0 else "lost" if winner == 1 else "drew"
        outcome = f"You {result} on turn {(state.turn + 1) // 2}: {state.end_reason()}."
    return GoldfishView(
        seed=seed,
        mulligans=taken,
        kept=kept,
        turns=own_turns,
        phase=seen["phase"],
        turn=own_turns,
        hand=sorted(_names(me["hand"])),
        can_mulligan=(
            not finished
            and state.phase == "mulligan"
            and Action("mulligan") in state.legal_actions()
        ),
        lp=me["lp"],
        ip=me["ip"],
        rival_lp=rival["lp"],
        pillars=_names(me["pillars"]),
        board=_names(me["board"]),
        draw_pile=me["draw_pile"],
        finished=finished,
        outcome=outcome,
        log=[_describe(e) for e in state.events[log_from:]] if turns else [],
    )


def _empty_view(seed: int, error: str) -> GoldfishView:
    return GoldfishView(
        seed=seed,
        mulligans=0,
        kept=False,
        turns=0,
        phase="",
        turn=0,
        hand=[],
        can_mulligan=False,
        lp=0,
        ip=0,
        rival_lp=0,
        pillars=[],
        board=[],
        draw_pile=0,
        finished=True,
        error=error,
    )


def test_hands_summary(deck: Deck, *, hands: int, seed: int, policy: str) -> Any:
    """``rules.test_hands.sample`` over the deck: mulligan rate, Pillar on turn 1, IP by turn,
    wins by reason and turn. Raises ``SetupError`` for a deck the engine cannot play."""
    from rules.test_hands import sample

    return sample(deck_records(deck), n=hands, seed=seed, mulligan_policy=policy)


def mulligan_policies() -> list[str]:
    """The mulligan policies ``rules.test_hands`` knows, by name."""
    from rules.test_hands import MULLIGAN_POLICIES

    return list(MULLIGAN_POLICIES)
