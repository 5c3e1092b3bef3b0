"""A game's obligations, executable: ``check_game(plugin)`` runs the pure part of the contract.

After PettingZoo's ``api_test``: one function a game's author runs on their own plugin, and the
one the parametrized suite runs on every registered game (``tests/rules/test_game_contract.py``).
It plays the game and raises ``ContractError`` naming the first obligation broken (its check id,
as ``docs/engines.md`` *How to add a game* lists it) and what was seen.

It lives beside ``GamePlugin`` (``rules/engines/core/``) because it needs nothing but the engine
API: pure Python, no Django, so it runs wherever an engine runs (workers, benchmarks, a game's
own tests) and is compiled with the engines. The Django half of the contract (card data loaded,
sample decks, formats, the rulings page) is ``rules.contract.check_game_wiring``.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.engines.core.api import CHANCE, TERMINAL, Action, Game, State
from rules.engines.core.hands import HandsModel
from rules.engines.core.narration import Narrator
from rules.engines.core.plugin import GamePlugin
from rules.engines.core.rng import Rng

#: a slug is lower-case words joined by hyphens (the module name swaps them for underscores)
SLUG_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: the most actions a random playout may take before the game counts as endless
MAX_ACTIONS = 20_000
#: seeds of the playouts ``check_game`` plays per example setup
SEEDS = (0, 1)

#: check id -> the obligation it enforces (docs/engines.md lists the same ids)
CHECKS: dict[str, str] = {
    "slug": "the game has a slug (lower-case words and hyphens) and a name",
    "players": "min_players <= max_players, both at least 1",
    "engine": "the engine starts from its built-in card records, with at least one example setup",
    "playout": "seeded random playouts of every example setup end, keeping every invariant",
    "observation": "every observation is plain data (JSON)",
    "clone": "a clone is independent of its original",
    "replay": "the same seed and actions replay the same game; the global random changes nothing",
    "end-reasons": "every end reason a game ends with is said in words (PageWords.end_reasons)",
    "narrator": "the declared narrator says every event of a played game",
    "hands": "the declared test-hands model imports as a HandsModel subclass",
    "agents": "the game offers at least one matchup agent, and budgets only for offered agents",
    "table": "the declared table view draws a played position",
    "weights": "the declared evaluation weights load",
    "policy": "the declared team policy imports",
    "tools": "every declared tool imports",
}


class ContractError(Exception):
    """A game breaks an obligation of the contract; the message names the check and the game."""

    def __init__(self, slug: str, check: str, detail: str, obligation: str = "") -> None:
        self.slug = slug
        self.check = check
        said = obligation or CHECKS[check]
        super().__init__(f"{slug or '<no slug>'}: [{check}] {said}: {detail}")


def _import_named(path: str) -> Any:
    """The object ``package.module:name`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _snapshot(state: State, players: int) -> str:
    return json.dumps(
        [state.observation(p) for p in range(players)] + [[str(a) for _, a in state.history]],
        sort_keys=True,
        default=str,
    )


def _playout(
    game: Game, setup: Mapping[str, Any], seed: int, check: Callable[[State], None] | None
) -> State:
    """A seeded game of uniformly random legal actions; ``check(state)`` before each action."""
    state = game.new_initial_state(seed, setup)
    rng = Rng(seed + 7)
    for _ in range(MAX_ACTIONS):
        if check is not None:
            check(state)
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            state.apply(state.sample_chance())
        else:
            state.apply(rng.choice(state.legal_actions()))
    raise ContractError(game.slug, "playout", f"no end within {MAX_ACTIONS} actions")


class _Checker:
    """One run of the contract over one plugin: each method is one check id."""

    def __init__(self, plugin: GamePlugin) -> None:
        self.plugin = plugin
        self.slug = str(getattr(plugin.game, "slug", "") or "")
        self.finals: list[State] = []

    def fail(self, check: str, detail: str) -> ContractError:
        return ContractError(self.slug, check, detail)

    def run(self) -> None:
        self.check_slug()
        self.check_players()
        game = self.check_engine()
        setups = game.example_setups()
        for setup in setups:
            self.check_playout(game, setup)
            self.check_clone(game, setup)
            self.check_replay(game, setup)
        self.check_end_reasons()
        self.check_narrator()
        self.check_hands()
        self.check_agents()
        self.check_table(game, setups[0])
        self.check_weights()
        self.check_policy()
        self.check_tools()

    def check_slug(self) -> None:
        game = self.plugin.game
        if not isinstance(game, type) or not issubclass(game, Game):
            raise self.fail("slug", f"the plugin's game is {game!r}, not a Game subclass")
        if not SLUG_PATTERN.fullmatch(self.slug):
            raise self.fail("slug", f"{self.slug!r} is not lower-case words joined by hyphens")
        if not game.name:
            raise self.fail("slug", f"{game.__name__} has no name")

    def check_players(self) -> None:
        game = self.plugin.game
        if not 1 <= game.min_players <= game.max_players:
            raise self.fail("players", f"min {game.min_players}, max {game.max_players}")

    def check_engine(self) -> Game:
        try:
            game = self.plugin.game()
        except Exception as exc:
            raise self.fail("engine", f"Game() raised {exc!r}") from exc
        if not game.records:
            raise self.fail("engine", "builtin_records() is empty")
        if not game.example_setups():
            raise self.fail("engine", "example_setups() is empty")
        return game

    def check_playout(self, game: Game, setup: Mapping[str, Any]) -> None:
        players = game.num_players(setup)
        if not game.min_players <= players <= game.max_players:
            raise self.fail("players", f"setup {setup!r} seats {players} players")
        for seed in SEEDS:
            start = game.new_initial_state(seed, setup)
            total = sum(start.zone_counts().values())

            def check(state: State, total: int = total) -> None:
                actions = state.legal_actions()
                terminal = state.current_player() == TERMINAL
                if not state.is_terminal() == (not actions) == terminal:
                    raise self.fail("playout", "is_terminal() differs from 'no legal action'")
                if sum(state.zone_counts().values()) != total:
                    raise self.fail("playout", f"zone_counts() no longer sum to {total}")
                if len(set(actions)) != len(actions):
                    raise self.fail("playout", f"repeated legal actions: {actions}")
                for action in actions[:20]:
                    if Action.parse(str(action)) != action:
                        raise self.fail("playout", f"{action!s} does not read back")
                for player in range(players):
                    try:
                        json.dumps(state.observation(player))
                    except (TypeError, ValueError) as exc:
                        raise self.fail("observation", f"seat {player}: {exc}") from exc

            final = _playout(game, setup, seed, check)
            returns = final.returns()
            if len(returns) != players:
                raise self.fail("playout", f"returns() has {len(returns)} values for {players}")
            winner = final.winner()
            if winner is not None and returns[winner] != max(returns):
                raise self.fail("playout", f"the winner {winner} has not the best return")
            if not final.end_reason():
                raise self.fail("playout", "a finished game has no end_reason()")
            self.finals.append(final)

    def check_clone(self, game: Game, setup: Mapping[str, Any]) -> None:
        players = game.num_players(setup)
        state = game.new_initial_state(1, setup)
        rng = Rng(1)
        for _ in range(12):
            if state.is_terminal():
                return
            before = _snapshot(state, players)
            copy = state.clone()
            if _snapshot(copy, players) != before:
                raise self.fail("clone", "a clone's observations differ from its original's")
            copy.apply(rng.choice(copy.legal_actions()))
            if _snapshot(state, players) != before:
                raise self.fail("clone", "acting on a clone changed its original")
            state.apply(rng.choice(state.legal_actions()))

    def check_replay(self, game: Game, setup: Mapping[str, Any]) -> None:
        players = game.num_players(setup)
        random.seed(1)
        played = _playout(game, setup, 42, None)
        random.seed(999)
        for _ in range(100):
            random.random()
        again = _playout(game, setup, 42, None)
        if _snapshot(again, players) != _snapshot(played, players):
            raise self.fail("replay", "the global random module changed a seeded game")
        replayed = game.replay(42, setup, [action for _, action in played.history])
        if _snapshot(replayed, players) != _snapshot(played, players):
            raise self.fail("replay", "Game.replay() did not reproduce the observations")
        if [e.as_dict() for e in replayed.event_log()] != [e.as_dict() for e in played.event_log()]:
            raise self.fail("replay", "Game.replay() did not reproduce the event log")

    def check_end_reasons(self) -> None:
        said = self.plugin.words.end_reasons
        for final in self.finals:
            reason = final.end_reason()
            if reason not in said:
                raise self.fail("end-reasons", f"{reason!r} has no words")

    def check_narrator(self) -> None:
        if self.plugin.narrator is None:
            return
        try:
            narrator_class = _import_named(self.plugin.narrator)
        except (ImportError, AttributeError) as exc:
            raise self.fail("narrator", f"{self.plugin.narrator} does not import: {exc}") from exc
        if not isinstance(narrator_class, type) or not issubclass(narrator_class, Narrator):
            raise self.fail("narrator", f"{self.plugin.narrator} is not a Narrator subclass")
        for final in self.finals[:2]:
            events = [event.as_dict() for event in final.event_log()]
            seats = [f"Seat {n + 1}" for n in range(len(final.returns()))]
            groups = self.plugin.narrate(events, seats)
            if events and not any(group.lines for group in groups):
                raise self.fail("narrator", "a played game was said in no line")

    def check_hands(self) -> None:
        path = self.plugin.hands_model
        if path is None:
            return
        try:
            model_class = _import_named(path)
        except (ImportError, AttributeError) as exc:
            raise self.fail("hands", f"{path} does not import: {exc}") from exc
        if not isinstance(model_class, type) or not issubclass(model_class, HandsModel):
            raise self.fail("hands", f"{path} is not a HandsModel subclass")
        default = model_class.default_policy
        if default not in model_class.mulligan_policies:
            raise self.fail("hands", f"default_policy {default!r} is not a policy")

    def check_agents(self) -> None:
        offered = self.plugin.matchup_agents
        if not offered:
            raise self.fail("agents", "matchup_agents is empty")
        extra = sorted(set(self.plugin.agent_budgets) - set(offered))
        if extra:
            raise self.fail("agents", f"budgets for agents not offered: {', '.join(extra)}")

    def check_table(self, game: Game, setup: Mapping[str, Any]) -> None:
        if self.plugin.table_builder is None:
            return
        state = game.new_initial_state(0, setup)
        try:
            for viewer in (None, 0):
                table = self.plugin.table(state, viewer)
                if not isinstance(table, dict):
                    raise self.fail("table", f"the table is {type(table).__name__}, not a dict")
        except (ImportError, AttributeError) as exc:
            raise self.fail("table", f"{self.plugin.table_builder}: {exc}") from exc

    def check_weights(self) -> None:
        if self.plugin.evaluation_weights is None:
            return
        try:
            loaded = self.plugin.weights()
        except (ImportError, AttributeError, OSError) as exc:
            raise self.fail("weights", f"{self.plugin.evaluation_weights}: {exc}") from exc
        if loaded is None or not loaded[1].is_file():
            raise self.fail("weights", "no weights.json beside the weights' module")

    def check_policy(self) -> None:
        if self.plugin.team_policy is None:
            return
        try:
            policy = self.plugin.policy()
        except (ImportError, AttributeError) as exc:
            raise self.fail("policy", f"{self.plugin.team_policy}: {exc}") from exc
        if not callable(policy):
            raise self.fail("policy", f"{self.plugin.team_policy} is not callable")

    def check_tools(self) -> None:
        for name in self.plugin.tools:
            try:
                tool = self.plugin.tool(name)
            except (ImportError, AttributeError) as exc:
                raise self.fail("tools", f"{name}: {exc}") from exc
            if not callable(tool):
                raise self.fail("tools", f"{name} is not callable")


def check_game(plugin: GamePlugin) -> None:
    """Play ``plugin``'s game and check every pure obligation; ``ContractError`` names the
    first one broken. Returns None when the game keeps them all."""
    _Checker(plugin).run()


def pure_checks() -> Sequence[str]:
    """The check ids ``check_game`` runs, in order."""
    return list(CHECKS)
