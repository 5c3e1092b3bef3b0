"""Test hands for Regality vs Religion: Revolution: seeded games of one side against a random rival.

The game deals no hand: every tile is open and chosen, not drawn (rulebook §`Preparations`), so
there is no mulligan and the only policy is "never". What a deck fixes is a side (zone ``side``:
the seven tiles of one alignment, plus the Citizen when that side starts) and the neutral tiles
it plays with (zone ``neutral``). Their number names the variant (§`Game system options`):

- 0: old style, no neutral tile but the Citizen;
- 2: random (or secret random, played open here): the side holds its two neutral tiles and the
  rival two drawn at random, per game, from the other fourteen;
- 3: draft as the second player, who takes three; the rival's two are drawn at random (a deck
  that holds the Citizen starts, and a starting player drafts only two: it is refused);
- 5: standard, a neutral area of five that both players place from.

A goldfish game is the side played by the greedy agent (``rules/agents/greedy.py``, one turn of
look-ahead on ``RvRState.evaluate``) against the uniform random agent holding the other side.
Agents live above the engines, so ``sample`` and ``walk`` take them as ``make_agent(name, seed)``
(``rules.test_hands`` passes ``rules.agents.make_agent``; the model says ``uses_agents``). The
side holding the Citizen places it first (§`How to play`). ``sample`` reports the win rate, the
mean ally margin at the end (§`Game end`), how each game ended, and for each tile of the deck how
often the side placed it, how often it ends the game as the side's ally and how often it was
destroyed, banished or assassinated (§`Tile effects and icons`). ``walk`` replays one such game a
turn of the side at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from rules.engines.core import Rng, SetupError, card_key
from rules.engines.core.hands import (
    AgentFactory,
    BaseHandReport,
    HandsModel,
    HandWalk,
    OutcomeTally,
    per_game,
    percent,
    percent_with_interval,
    turn_events,
)
from rules.engines.core.intervals import wilson_interval
from rules.engines.regality_vs_religion.board import CELL_NAMES
from rules.engines.regality_vs_religion.game import SIDE_NAMES, RvRGame, RvRState
from rules.engines.regality_vs_religion.plugin import RegalityVsReligionPlugin

MulliganPolicy = Callable[[Sequence[str], int], bool]

SIDE_ZONE, NEUTRAL_ZONE = "side", "neutral"
SIDE_SIZE = 7
RIVAL_NEUTRALS = 2
DRAFT_SECOND = 3  # the second player's neutral tiles after a draft (the starting player's: 2)
MAX_PLACEMENTS = 100
OPENING_HANDS_KEPT = 5
#: neutral tiles in the deck -> (variant, how the rival gets neutral tiles)
VARIANTS: dict[int, tuple[str, str]] = {
    0: ("old-style", "Old style: no neutral tile but the Citizen"),
    2: ("random", "Random: two neutral tiles each, the rival's drawn at random"),
    3: ("draft", "Draft as the second player: three neutral tiles, the rival's two at random"),
    5: ("standard", "Standard: a neutral area of five, open to both players"),
}
NOTATION_SIDES = ("reg", "rel")


@lru_cache(maxsize=1)
def _game() -> RvRGame:
    return RvRGame()


@dataclass(frozen=True)
class Goldfish:
    """How a deck is played: the side, who starts, the variant and the tiles in each area."""

    side: int
    first: int
    variant: str
    area: tuple[int, ...]  # the side's own tiles, its neutral tiles included
    neutral_area: tuple[int, ...]  # the shared neutral area (standard only)
    rival_pool: tuple[int, ...]  # neutral tiles the rival's may be drawn from
    rival_draws: int
    tracked: tuple[int, ...]  # the deck's tiles, in a stable order


def goldfish(deck: Sequence[Mapping[str, Any]]) -> Goldfish:
    """Return how ``deck`` is played; raise SetupError naming every problem the engine cannot play."""
    tables = _game().tables
    problems: list[str] = []
    side_tiles: list[int] = []
    neutral_tiles: list[int] = []
    for record in deck:
        name = str(record.get("name", "?"))
        tile = tables.by_key.get(card_key(name))
        zone = str(record.get("zone") or SIDE_ZONE)
        if tile is None:
            problems.append(f"there is no tile called {name!r}")
        elif zone == SIDE_ZONE:
            side_tiles.append(tile)
        elif zone == NEUTRAL_ZONE:
            neutral_tiles.append(tile)
        else:
            problems.append(f"{name} sits in an unknown zone {zone!r}")
    every = side_tiles + neutral_tiles
    twice = sorted({tables.specs[t].name for t in every if every.count(t) > 1})
    if twice:
        problems.append(f"the game has one of each tile (Contents): {', '.join(twice)} twice")
    citizen = tables.citizen
    sided = [t for t in side_tiles if t != citizen]
    alignments = {tables.specs[t].branch for t in sided}
    side = 0
    if alignments == {SIDE_NAMES[0]} or alignments == {SIDE_NAMES[1]}:
        side = SIDE_NAMES.index(next(iter(alignments)))
        own = (tables.regality, tables.religion)[side]
        missing = [tables.specs[t].name for t in own if t not in sided]
        if missing or len(sided) != SIDE_SIZE:
            problems.append(
                f"a side is exactly the {SIDE_SIZE} tiles of its alignment (Preparations); "
                f"this one lacks {', '.join(missing) or 'nothing'} and holds {len(sided)}"
            )
    else:
        problems.append(
            "the side must hold the seven tiles of one alignment, Regality or Religion "
            f"(Preparations); it holds {', '.join(sorted(a or '?' for a in alignments)) or 'none'}"
        )
    wrong = [t for t in neutral_tiles if t == citizen or t not in tables.neutrals]
    if wrong:
        names = ", ".join(tables.specs[t].name for t in wrong)
        problems.append(f"{names} cannot be among the neutral tiles drawn (Preparations)")
    if len(neutral_tiles) not in VARIANTS:
        problems.append(
            f"{len(neutral_tiles)} neutral tiles fit no variant: 0 (old style), 2 (random), "
            "3 (draft, second player) or 5 (standard) (Game system options)"
        )
    if len(neutral_tiles) == DRAFT_SECOND and citizen in side_tiles:
        problems.append(
            "in a draft the starting player (who holds the Citizen) ends with 2 neutral tiles "
            "and the second player with 3 (Draft): hold 3 without the Citizen"
        )
    if problems:
        raise SetupError("Regality vs Religion cannot play this deck: " + "; ".join(problems))
    variant = VARIANTS[len(neutral_tiles)][0]
    first = side if citizen in side_tiles else 1 - side
    shared = variant == "standard"
    area = tuple(sorted(side_tiles + ([] if shared else neutral_tiles)))
    pool = tuple(t for t in tables.neutrals if t != citizen and t not in neutral_tiles)
    return Goldfish(
        side=side,
        first=first,
        variant=variant,
        area=area,
        neutral_area=tuple(sorted(neutral_tiles)) if shared else (),
        rival_pool=pool,
        rival_draws=RIVAL_NEUTRALS if variant in ("random", "draft") else 0,
        tracked=tuple(side_tiles + neutral_tiles),
    )


@dataclass
class _Game:
    """One seeded goldfish game: its state, both agents and what the tally watches."""

    state: RvRState
    agents: tuple[Any, Any]
    rival_neutrals: tuple[int, ...]
    placed: set[int] = field(default_factory=set)
    removed: set[int] = field(default_factory=set)
    own_turns: int = 0


def deal(fish: Goldfish, seed: int, make_agent: AgentFactory) -> _Game:
    """Set up the game of ``seed``: areas, the rival's random neutral tiles and both agents."""
    game = _game()
    keys = game.tables.keys
    rng = Rng(seed)
    rival_neutrals = tuple(rng.sample(list(fish.rival_pool), fish.rival_draws))
    rival_area = list((game.tables.regality, game.tables.religion)[1 - fish.side])
    rival_area += rival_neutrals
    if fish.first != fish.side:
        rival_area.append(game.tables.citizen)
    areas = [list(fish.area), rival_area] if fish.side == 0 else [rival_area, list(fish.area)]
    fields = [
        "-",
        ",".join(keys[t] for t in sorted(areas[0])),
        ",".join(keys[t] for t in sorted(areas[1])),
        ",".join(keys[t] for t in fish.neutral_area) or "-",
        NOTATION_SIDES[fish.first],
    ]
    setup: dict[str, Any] = {
        "variant": fish.variant,
        "position": " | ".join(fields),
        "max_placements": MAX_PLACEMENTS,
    }
    state = game.new_initial_state(seed, setup)
    agents: list[Any] = [None, None]
    agents[fish.side] = make_agent("greedy", rng.randrange(2**31))
    agents[1 - fish.side] = make_agent("random", rng.randrange(2**31))
    return _Game(state, (agents[0], agents[1]), rival_neutrals)


def _step(play: _Game, side: int) -> None:
    state = play.state
    player = state.current_player()
    action = play.agents[player].act(state)
    if player == side and action.kind == "place":
        play.placed.add(state.tables.by_key[str(action.args[0])])
    state.apply_unchecked(action)
    play.removed.update(state.discard)


def play_rival(play: _Game, side: int) -> None:
    """Let the rival play until it is the side's turn to place (or the game is over)."""
    while not play.state.is_terminal() and play.state.current_player() != side:
        _step(play, side)


def play_own_turn(play: _Game, side: int) -> None:
    """Play the side's turn (a placement and its effect choices), then the rival's reply."""
    state = play.state
    if state.is_terminal():
        return
    while not state.is_terminal() and state.current_player() == side:
        _step(play, side)
    play.own_turns += 1
    play_rival(play, side)


def _ally_tiles(state: RvRState, player: int) -> list[int]:
    return [
        code & 31
        for code in state.cells
        if code >= 0 and not code & 0xC0 and (code >> 5) & 1 == player
    ]


def _outcome_label(state: RvRState, side: int) -> str:
    result = state.returns()[side]
    reason = RegalityVsReligionPlugin.words.end_reason(state.end_reason())
    if result > 0:
        return f"won: {reason}"
    if result < 0:
        return f"lost: {reason}"
    return f"drawn: {reason}"


@dataclass(frozen=True, kw_only=True)
class HandReport(BaseHandReport):
    """What ``sample`` found over its games (satisfies ``rules.engines.core.hands.HandSummary``)."""

    side: str
    first: bool
    variant: str
    mean_margin: float
    mean_placements: float
    tiles: dict[str, dict[str, float]]  # tile name -> placed / ally at the end / removed rates
    rival_neutrals: dict[str, int]

    def figures_in_dict(self) -> bool:
        """This game's figures go in ``as_dict`` too."""
        return True

    @property
    def won(self) -> int:
        """Return the number of games the side won."""
        return sum(count for label, count in self.wins.items() if label.startswith("won"))

    @property
    def figures(self) -> list[tuple[str, str]]:
        """Return the headline figures as (label, formatted value) rows, in display order."""
        games = self.games or 1
        rival = SIDE_NAMES[1 - SIDE_NAMES.index(self.side)].title()
        variant = next(text for name, text in VARIANTS.values() if name == self.variant)
        rows = [
            ("Games", str(self.games)),
            ("Variant", variant),
            ("You play", f"{self.side.title()}, going {'first' if self.first else 'second'}"),
            ("Rival", f"{rival}, played by the random agent"),
            (
                "Won",
                percent_with_interval(
                    per_game(self.won, self.games),
                    wilson_interval(self.won, self.games),
                ),
            ),
            ("Mean ally margin at the end", f"{self.mean_margin:+.2f}"),
            ("Mean game length", f"{self.mean_placements:.1f} placements"),
        ]
        for label, count in sorted(self.wins.items()):
            verb, how = label.split(": ")
            rows.append(
                (
                    f"{verb.title()} ({how})",
                    f"{percent(count / games)}, after {self.win_turn[label]:.1f} placements",
                )
            )
        if self.rival_neutrals:
            common = sorted(self.rival_neutrals.items(), key=lambda item: (-item[1], item[0]))
            text = ", ".join(f"{name} {percent(n / games)}" for name, n in common[:4])
            rows.append(("Rival's neutral tiles, most often drawn", text))
        for name, rates in self.tiles.items():
            rows.append(
                (
                    name,
                    f"placed {percent(rates['placed'])} · your ally at the end "
                    f"{percent(rates['ally_at_end'])} · removed {percent(rates['removed'])}",
                )
            )
        return rows


def _placeable(state: RvRState, side: int) -> list[str]:
    specs = state.tables.specs
    return sorted(specs[t].name for t in [*state.areas[side], *state.neutral])


# --- the model --------------------------------------------------------------------------------
class RegalityVsReligionHands(HandsModel):
    """Regality vs Religion's test hands: no hand is drawn, so nothing is ever sent back
    (§Preparations: the base's "never" policy); the side plays greedy against random agents."""

    uses_agents: ClassVar[bool] = True

    def deal_games(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        n: int,
        seed: int,
        policy: MulliganPolicy,
        make_agent: AgentFactory | None,
    ) -> HandReport:
        """Play ``n`` goldfish games of ``deck`` (seeds ``seed`` .. ``seed + n - 1``) and report.

        No hand is drawn, so no mulligan ``policy`` applies.
        Raises SetupError (with every problem named) when the engine cannot play the deck.
        """
        agents = self.agents(make_agent)
        fish = goldfish(deck)
        side = fish.side
        specs = _game().tables.specs
        placed: Counter[int] = Counter()
        allied: Counter[int] = Counter()
        removed: Counter[int] = Counter()
        rivals: Counter[str] = Counter()
        outcomes = OutcomeTally()
        margin = placements = 0
        openings: list[list[str]] = []
        for index in range(n):
            play = deal(fish, seed + index, agents)
            play.state.quiet()
            play_rival(play, side)
            if len(openings) < OPENING_HANDS_KEPT:
                openings.append(_placeable(play.state, side))
            while not play.state.is_terminal():
                play_own_turn(play, side)
            state = play.state
            tracked = set(fish.tracked)
            placed.update(play.placed & tracked)
            removed.update(play.removed & tracked)
            allied.update(set(_ally_tiles(state, side)) & tracked)
            rivals.update(specs[t].name for t in play.rival_neutrals)
            margin += state.final_allies[side] - state.final_allies[1 - side]
            placements += state.placements
            outcomes.add(_outcome_label(state, side), state.placements)
        return HandReport(
            games=n,
            side=SIDE_NAMES[side],
            first=fish.first == side,
            variant=fish.variant,
            mean_margin=per_game(margin, n),
            mean_placements=per_game(placements, n),
            tiles={
                specs[t].name: {
                    "placed": per_game(placed[t], n),
                    "ally_at_end": per_game(allied[t], n),
                    "removed": per_game(removed[t], n),
                }
                for t in fish.tracked
            },
            rival_neutrals=dict(rivals),
            wins=outcomes.wins,
            win_turn=outcomes.win_turn,
            opening_hands=openings,
        )

    def replay(
        self,
        deck: Sequence[Mapping[str, Any]],
        *,
        seed: int,
        mulligans: int,
        kept: bool,
        turns: int,
        make_agent: AgentFactory | None,
    ) -> HandWalk:
        """Replay the goldfish game of ``seed`` after ``turns`` turns of the side (and the replies).

        There is no hand to send back, so ``mulligans`` changes nothing; the opening (``kept`` false
        and no turn played) is the side at its first placement, with every tile it may place.
        """
        agents = self.agents(make_agent)
        fish = goldfish(deck)
        side = fish.side
        play = deal(fish, seed, agents)
        seen = 0
        play_rival(play, side)
        while play.own_turns < turns and not play.state.is_terminal():
            seen = len(play.state.events or [])
            play_own_turn(play, side)
        state = play.state
        specs = state.tables.specs
        zones: list[tuple[str, list[str]]] = [("Board", _board_rows(state, side))]
        if state.neutral:
            zones.append(("Neutral area", sorted(specs[t].name for t in state.neutral)))
        zones.append(("Rival's area", sorted(specs[t].name for t in state.areas[1 - side])))
        zones.append(("Discard pile", sorted(specs[t].name for t in state.discard)))
        allies = state.allies()
        return HandWalk(
            state=state,
            seed=seed,
            seat=side,
            kept=kept or turns > 0,
            turns=play.own_turns,
            finished=state.is_terminal(),
            outcome=_outcome(state, side),
            phase="Game over" if state.is_terminal() else f"Your turn {play.own_turns + 1}: place",
            hand=sorted(specs[t].name for t in state.areas[side]),
            zones=zones,
            counters=[
                ("Your allies", str(allies[side])),
                ("Rival's allies", str(allies[1 - side])),
                ("Placements", str(state.placements)),
                ("Empty spaces", str(sum(1 for code in state.cells if code < 0))),
            ],
            log=self.log(turn_events(state.events or [], seen), state.tables.specs, seat=side),
            events=turn_events(state.events or [], seen) if play.own_turns else [],
        )


def _outcome(state: RvRState, side: int) -> str:
    if not state.is_terminal():
        return ""
    ours, theirs = state.final_allies[side], state.final_allies[1 - side]
    reason = state.end_reason()
    result = state.returns()[side]
    how = {
        "board-full": f"the board is full, {ours} allies to {theirs}",
        "death": "Death ends the game as an ally of the loser",
        "no-tile": "a player had no tile left to place",
        "no-placement": "a player could place none of its tiles (a Tower with no ally to cover)",
        "turn-limit": f"the game reached {MAX_PLACEMENTS} placements",
    }.get(reason, reason)
    verb = "You won" if result > 0 else "You lost" if result < 0 else "Drawn"
    return f"{verb} after {state.placements} placements: {how}."


def _board_rows(state: RvRState, side: int) -> list[str]:
    """Return the board as text, one row per rank, seen from the side's seat (far rank first)."""
    specs = state.tables.specs
    ranks = (2, 1, 0) if side == 0 else (0, 1, 2)
    files = (0, 1, 2) if side == 0 else (2, 1, 0)
    rows = []
    for rank in ranks:
        cells = []
        for file in files:
            cell = rank * 3 + file
            code = state.cells[cell]
            if code < 0:
                text = "empty"
            else:
                text = specs[code & 31].name
                under = (code >> 8) - 1
                if under >= 0:
                    text += f" over {specs[under].name}"
                if code & 0xC0:
                    text += " (face down)"
                else:
                    text += " (yours)" if (code >> 5) & 1 == side else " (rival's)"
            cells.append(f"{CELL_NAMES[cell]} {text}")
        rows.append(" | ".join(cells))
    return rows
