"""What a game declares to the shared code: one ``GamePlugin`` per engine package, found by slug.

A game plugs into Deckwright as its own pieces (docs/engines.md, *How to add a game*): card data,
a validation module, a card-face style and an engine package whose ``GamePlugin`` declares
everything else the shared code needs, so no shared module names a game:

- the engine ``Game`` class, and the test-hands model (a ``HandsModel`` subclass, by path,
  imported on first use);
- how validated decks become an engine setup (any number of decks, a team from one deck), who
  moves first, and how sides swap or rotate seats for fair matchups;
- the checks ``load_game_data`` runs on every card record before writing anything;
- the words pages use (test-hands labels, mulligan policies, how games end, matchup prose),
  and the game's ``Narrator``, which says its events in words for replays and test hands;
- the agents a web matchup offers and the budgets they get in this game;
- where the Django-side pieces live when they are not at their conventional paths
  (``decks/validation/<module>.py``, ``cards/images/styles/<module>.py``, ``fixtures/<slug>/``),
  and command-line tools of the game's own (``manage.py game_tool SLUG TOOL ...``).

Pure Python like every engine module: the Django side (``rules.plugins``) reads these
declarations and wires the pieces in.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TextIO

from mypy_extensions import mypyc_attr

from rules.engines.core.api import Action, CardSightings, Game, SetupError, State
from rules.engines.core.hands import HandsModel
from rules.engines.core.narration import CardRef, Narrator, Part, TurnGroup
from rules.engines.core.picks import CONTROL, assign_picks, control, find_key, settle, table_picks
from rules.engines.core.playtest import Playtest, open_layout
from rules.engines.core.registry import discover_engines
from rules.engines.core.rng import Rng
from rules.engines.core.table import TableBuilder, card_name, public_table

#: one line of a game's command-line tool: ``tool(argv, out)`` writes to ``out``
GameTool = Callable[[Sequence[str], TextIO], None]
#: a game's own playing policy: the action for whoever is to act (the ``team`` agent plays it)
Policy = Callable[[State], Action]


class ToolError(Exception):
    """A game tool's input it cannot act on; the message is for the person at the terminal."""


@dataclass(frozen=True)
class DeckCards:
    """A deck as the shared code hands it to a plugin: one record per physical card.

    Each record is a plain card record (at least ``name``; ``branch`` and ``type`` where the game
    has them) with the ``zone`` the deck holds it in ("" where the game has no zones). ``variant``
    is the deck's variant ("" for the game's default). Web decks and decklist files both arrive
    in this shape, so every surface builds its setup with the same plugin function.
    """

    label: str
    records: tuple[Mapping[str, Any], ...]
    variant: str = ""

    def names(self, zone: str | None = None) -> list[str]:
        """The deck's card names, one per physical card, sorted (all zones, or one)."""
        return sorted(
            str(record["name"])
            for record in self.records
            if zone is None or record.get("zone", "") == zone
        )

    def branches(self, zone: str | None = None) -> Counter[str]:
        """How many cards of each branch (faction, side, colour ...) the deck holds."""
        return Counter(
            str(record["branch"])
            for record in self.records
            if record.get("branch") and (zone is None or record.get("zone", "") == zone)
        )


@dataclass(frozen=True)
class SeatPlan:
    """An engine setup and, per engine seat, the index of the deck (and its agent) sitting there.

    Deck 0 is the first deck given (deck A); a co-operative team seats the same deck many times.
    """

    setup: dict[str, Any]
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Difficulty:
    """A level /play/ offers (easy, normal, hard): the agent that plays it, written as a name or
    ``name(option=value, ...)`` over the web budget, and what the page says it is."""

    agent: str
    words: str


@dataclass(frozen=True)
class HandWords:
    """How a test-hands page names the opening and the button that starts play."""

    opening: str = "Opening hand"
    kept: str = "Kept hand"
    hand: str = "Hand"  # empty where the game has no hand
    keep: str = "Keep"
    again: str = "New hand"
    intro: str = "you go first against an idle rival (a “goldfish”)."


@dataclass(frozen=True)
class SightingWords:
    """What a game's engine counts as a card drawn and a card played (``State.card_sightings``),
    in words that finish "a card is drawn when..." and "played when..."."""

    drawn: str
    played: str
    #: why every card of a deck is drawn in every game, where the rules make it so ("" if not)
    always_drawn: str = ""


@dataclass(frozen=True)
class PageWords:
    """The words pages use for a game, so no template or view names a game."""

    hands: HandWords = field(default_factory=HandWords)
    #: mulligan policy name -> when it sends a hand back, in words ("the hand has no Pillar")
    mulligan_labels: Mapping[str, str] = field(default_factory=dict)
    #: an engine's end-reason code -> how a page says it ("the rival ran out of Life Points")
    end_reasons: Mapping[str, str] = field(default_factory=dict)
    #: one sentence for the matchup form: which decks the game takes and who moves first
    matchup_rules: str = ""
    #: one sentence for /play/: which decks can face the player's (those ``matchup_setup``
    #: accepts), the variant the game is played in, who moves first ("" to say nothing)
    play_pairing: str = ""
    #: how long a game takes with search agents, for the matchup form ("" to say nothing)
    matchup_timing: str = ""
    #: a house rule's setup key -> its name in words; reports name each one a setup turned on.
    #: A rule that takes a value may say it with ``{value}`` ("with {value} Petitions").
    house_rules: Mapping[str, str] = field(default_factory=dict)
    #: a house rule's setup key -> the rulebook's own value (the rule is off at it); a rule not
    #: listed here is off when its key is missing or false
    book_values: Mapping[str, Any] = field(default_factory=dict)
    #: worked card queries for the query help page: (query, what it finds in words); each must
    #: find cards of the game (a test runs every one the page shows)
    query_examples: tuple[tuple[str, str], ...] = ()
    #: what "drawn" and "played" mean in the card performance tables (None: the shared words)
    sightings: SightingWords | None = None

    def mulligan_label(self, policy: str) -> str:
        """A mulligan policy in words (its name with spaces when the game gives none)."""
        return self.mulligan_labels.get(policy, policy.replace("-", " "))

    def house_rules_in(self, setup: Mapping[str, Any]) -> list[str]:
        """The names of the house rules ``setup`` turns on (empty for a game by the book)."""
        named = []
        for key, words in self.house_rules.items():
            value = setup.get(key)
            if key in self.book_values:
                if value is None or value == self.book_values[key]:
                    continue
            elif not value:
                continue
            named.append(words.replace("{value}", str(value)))
        return named

    def end_reason(self, code: str) -> str:
        """An end-reason code in words (the code with spaces when the game gives none)."""
        return self.end_reasons.get(code, code.replace("-", " ").replace("_", " "))


def swap_decks(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The setup with its two decks in each other's seats (the default seat swap)."""
    swapped = dict(setup)
    if swapped.get("decks"):
        swapped["decks"] = list(reversed(list(swapped["decks"])))
    return swapped


@mypyc_attr(allow_interpreted_subclasses=True)  # a test game plugs in from outside
class GamePlugin:
    """Everything the shared code needs to know about one game. Subclass once per engine package
    and register an instance with ``register_plugin`` in the package's ``__init__``."""

    #: the engine's ``Game`` class (its ``slug`` and ``name`` are the plugin's)
    game: ClassVar[type[Game]]
    #: "package.module:Class" of the game's test-hands model (a ``HandsModel`` subclass,
    #: ``rules.engines.core.hands``), or None
    hands_model: ClassVar[str | None] = None
    #: how many decks a matchup seats (a co-operative team is one deck played by every seat)
    min_decks: ClassVar[int] = 2
    max_decks: ClassVar[int] = 2
    #: team sizes a co-operative matchup offers (empty: one seat per deck)
    team_sizes: ClassVar[tuple[int, ...]] = ()
    #: setup keys holding one entry per seat, which move round the table when seats rotate
    seat_keys: ClassVar[tuple[str, ...]] = ("decks",)
    #: the engine plays what a deck stands for (a faction, a side), so the deck must be legal
    needs_legal_decks: ClassVar[bool] = False
    #: the agents a web matchup offers (the first is the form's default), per agent the options
    #: that replace the shared budget, and what the page calls an agent in this game (its budget
    #: and time a game, where they differ from the shared label)
    matchup_agents: ClassVar[tuple[str, ...]] = ("random", "greedy", "mcts")
    agent_budgets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    agent_labels: ClassVar[Mapping[str, str]] = {}
    #: "package.module:NAME" of the dict of evaluation weights the game's evaluation reads,
    #: loaded from ``weights.json`` beside that module and tuned by ``bench/tune.py``; None
    #: when the game's evaluation has no tuned weights
    evaluation_weights: ClassVar[str | None] = None
    #: the levels /play/ offers, weakest first (its middle one is the form's default); each
    #: level's agent takes part in the game's ladder, which rates it (``rules.ladder``)
    difficulty_levels: ClassVar[Mapping[str, Difficulty]] = {}
    #: "package.module:function" of the game's own ``Policy`` (the ``team`` agent), or None
    team_policy: ClassVar[str | None] = None
    #: other policies of the game by name, as ``team(policy=NAME)`` plays them (an earlier
    #: policy kept as a baseline to measure the current one against)
    team_policies: ClassVar[Mapping[str, str]] = {}
    words: ClassVar[PageWords] = PageWords()
    #: end-reason codes that are the engine's own cut-offs (a turn limit ...), not a rulebook
    #: ending: reports count games ending so apart from victories and draws by the book
    cutoff_reasons: ClassVar[frozenset[str]] = frozenset({"turn-limit"})
    #: where the Django-side pieces live; None means the conventional place for ``module_name``
    validation_module: ClassVar[str | None] = None
    style_module: ClassVar[str | None] = None
    #: a folder holding ``<slug>/game.yaml`` (None: the project's ``fixtures/``)
    fixtures_dir: ClassVar[str | None] = None
    #: tool name -> "package.module:function" of a ``GameTool``
    tools: ClassVar[Mapping[str, str]] = {}
    #: "package.module:Class" of the game's ``Narrator`` (None: the shared one, which names each
    #: event's kind and player only)
    narrator: ClassVar[str | None] = None
    #: what a manual playtest offers (zones, the opening, turning cards, the scores kept by
    #: hand: ``rules.engines.core.playtest``); None: the game offers no manual playtest
    playtest: ClassVar[Playtest | None] = None
    #: "package.module:function" of the game's ``TableBuilder`` (``rules.engines.core.table``):
    #: an engine state and a viewing seat (None: open) turned into the table a page draws, or None
    table_builder: ClassVar[str | None] = None
    #: the zones of a seat the play page shows in its sticky bar, beside the choices (the hand)
    hand_zones: ClassVar[tuple[str, ...]] = ("hand",)
    #: the game ships sample decklists in ``fixtures/decks/<slug>/`` (``legal-*.txt`` and
    #: ``illegal-<code>.txt``): demo data, the web matchup tests and ``check_game_wiring`` use them
    sample_decks: ClassVar[bool] = True

    @property
    def slug(self) -> str:
        """The game's slug (the engine's)."""
        return self.game.slug

    @property
    def name(self) -> str:
        """The game's name (the engine's)."""
        return self.game.name

    @property
    def module_name(self) -> str:
        """The slug as a module name: ``decks/validation/<module_name>.py`` and so on."""
        return self.slug.replace("-", "_")

    @property
    def cooperative(self) -> bool:
        """All seats win or lose together (the engine says so)."""
        return self.game.cooperative

    # --- test hands ---------------------------------------------------------------------------
    def hands(self) -> HandsModel | None:
        """The game's test-hands model, imported now; None when the game has none or it does
        not import as a ``HandsModel`` subclass."""
        if self.hands_model is None:
            return None
        module, _, name = self.hands_model.partition(":")
        try:
            model_class = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return None
        if not (isinstance(model_class, type) and issubclass(model_class, HandsModel)):
            return None
        model: HandsModel = model_class(self)
        return model

    # --- card data ----------------------------------------------------------------------------
    def card_problems(self, record: Mapping[str, Any]) -> list[str]:
        """Why the engine could not play this card record (empty when it can)."""
        return []

    def compile_problems(
        self,
        compile_card: Callable[[Mapping[str, Any]], object],
        error: type[Exception],
        record: Mapping[str, Any],
    ) -> list[str]:
        """``card_problems`` of an engine that compiles each card: the compile error, if any."""
        try:
            compile_card(record)
        except error as exc:
            return [f"the {self.name} engine cannot use this card: {exc}"]
        return []

    # --- matchups -----------------------------------------------------------------------------
    def check_deck_count(self, decks: Sequence[DeckCards], players: int) -> None:
        """Refuse a number of decks (or a team size) the game does not seat."""
        if self.team_sizes and players not in self.team_sizes:
            sizes = f"{self.team_sizes[0]} to {self.team_sizes[-1]}"
            raise SetupError(f"A {self.name} team has {sizes} players.")
        if not self.min_decks <= len(decks) <= self.max_decks:
            if self.min_decks == self.max_decks:
                wanted = f"{self.min_decks} deck{'s' if self.min_decks > 1 else ''}"
            else:
                wanted = f"{self.min_decks} to {self.max_decks} decks"
            raise SetupError(f"{self.name} is played by {wanted}, not {len(decks)}.")

    def matchup_setup(
        self, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
    ) -> SeatPlan:
        """The engine setup playing ``decks`` (legal, in the given order), and who sits where.

        ``first`` is the index of the deck that moves first, or None for the rulebook's own rule
        (a random first player where the rulebook says so). ``players`` is the team size of a
        co-operative game. Raises ``SetupError`` with a message for the user. The default seats
        deck ``i`` in seat ``i`` with its card names as the engine's ``decks``.
        """
        self.check_deck_count(decks, players)
        setup: dict[str, Any] = {"decks": [deck.names() for deck in decks]}
        if first is not None:
            setup["first_player"] = first
        return SeatPlan(setup, tuple(range(len(decks))))

    def swap_seats(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The setup with the two sides in each other's seats (alternating seats, fair matchups);
        the agents swap with them."""
        return swap_decks(setup)

    def seat_sightings(
        self, engine: Game, sightings: CardSightings, seat: int, side: int
    ) -> CardSightings:
        """A seat's card sightings (``State.card_sightings``) in the names of the side sitting
        there, whose home seat (unrotated) is seat ``side``: unchanged by default, since a side
        brings its own cards to any seat."""
        return sightings

    def rotate_seats(self, setup: Mapping[str, Any], shift: int, players: int) -> dict[str, Any]:
        """The setup with the side of seat ``(s + shift) mod players`` in seat ``s`` (rotating
        seats, fair matchups of any size); the agents move with them. Two players use
        ``swap_seats``; more rotate every per-seat list named in ``seat_keys``."""
        shift %= max(players, 1)
        if shift == 0:
            return dict(setup)
        if players == 2:
            return self.swap_seats(setup)
        rotated = dict(setup)
        for key in self.seat_keys:
            value = rotated.get(key)
            if isinstance(value, list | tuple) and len(value) == players:
                rotated[key] = [*value[shift:], *value[:shift]]
        return rotated

    # --- agents -------------------------------------------------------------------------------
    def agent_options(self, agent: str, shared: Mapping[str, Any]) -> dict[str, Any]:
        """The options ``agent`` plays this game's matchups with: the shared budget, with the
        game's own budget for that agent on top."""
        return {**shared, **self.agent_budgets.get(agent, {})}

    def weights(self) -> tuple[dict[str, float], Path] | None:
        """The game's evaluation weights (the dict its evaluation reads) and their file, or
        None when it has none (``evaluation_weights``)."""
        if self.evaluation_weights is None:
            return None
        module_name, _, name = self.evaluation_weights.partition(":")
        module = importlib.import_module(module_name)
        table: dict[str, float] = getattr(module, name)
        return table, Path(str(module.__file__)).with_name("weights.json")

    def policy(self, name: str = "") -> Policy | None:
        """The game's own playing policy (``team_policy``), or its policy ``name`` of
        ``team_policies``, imported now; None when it has none."""
        where = self.team_policies.get(name) if name else self.team_policy
        if where is None:
            return None
        module, _, function = where.partition(":")
        policy: Policy = getattr(importlib.import_module(module), function)
        return policy

    # --- logs -------------------------------------------------------------------------------
    def narration(self, seats: Sequence[str], names: Mapping[str, str] | None = None) -> Narrator:
        """The game's narrator, naming the players ``seats`` and cards by ``names`` (key -> name)."""
        narrator_class: type[Narrator] = Narrator
        if self.narrator is not None:
            module, _, name = self.narrator.partition(":")
            narrator_class = getattr(importlib.import_module(module), name)
        return narrator_class(seats, names, self.words.end_reasons)

    def narrate(
        self,
        events: Sequence[Mapping[str, Any]],
        seats: Sequence[str],
        names: Mapping[str, str] | None = None,
    ) -> list[TurnGroup]:
        """A game's events (``Event.as_dict()`` records) in words, grouped by turn."""
        return self.narration(seats, names).narrate(events)

    def playtest_deal(self, deck: DeckCards, seed: int) -> dict[str, list[str]]:
        """A manual playtest's setup zones before the opening hand is drawn (zone id -> card
        names, the top of a pile first): the whole deck shuffled into the draw pile; a game
        overrides it to lay out what its setup puts elsewhere."""
        if self.playtest is None:
            return {}
        names = deck.names()
        Rng(seed).shuffle(names)
        zones: dict[str, list[str]] = {zone_id: [] for zone_id in self.playtest.zone_ids}
        if self.playtest.draw:
            zones[self.playtest.draw] = names
        return zones

    def playtest_open(self, deck: DeckCards, seed: int) -> dict[str, Any]:
        """A manual playtest's opening layout (``rules.engines.core.playtest``): the setup
        zones of ``playtest_deal`` and the opening hand drawn; ``KeyError`` without a playtest."""
        if self.playtest is None:
            raise KeyError(f"{self.name} has no manual playtest")
        return open_layout(self.playtest, self.playtest_deal(deck, seed), seed)

    def action_words(self, state: State, action: Action) -> tuple[Part, ...]:
        """A legal action of ``state`` as a button says it: its kind as a verb, card keys as
        ``CardRef`` parts (a page names and links them), other arguments as they are. A game
        overrides this where its arguments need the rulebook's words (squares, ids)."""
        parts: list[Part] = [action.kind.replace("-", " ").replace("_", " ").capitalize()]
        for arg in action.args:
            parts.append(" ")
            if isinstance(arg, str) and not re.fullmatch(r"[a-z]\d+", arg):  # "b2" is a square
                parts.append(CardRef(arg, card_name(arg)))
            else:
                parts.append(str(arg))
        return tuple(parts)

    # --- the table -------------------------------------------------------------------------
    @property
    def has_table(self) -> bool:
        """Whether the game declares a table view."""
        return self.table_builder is not None

    def table(self, state: State, viewer: int | None) -> dict[str, Any]:
        """The table of ``state`` as seat ``viewer`` sees it (None: the open view of a replay);
        ``KeyError`` when the game declares no table view."""
        if self.table_builder is None:
            raise KeyError(f"{self.name} has no table view")
        module, _, function = self.table_builder.partition(":")
        builder: TableBuilder = getattr(importlib.import_module(module), function)
        return builder(state, viewer)

    def public_table(self, state: State) -> dict[str, Any]:
        """The table of ``state`` as someone in no seat sees it (a spectator): only what every
        seat sees alike (``rules.engines.core.table.public_table``); ``KeyError`` without a
        table view."""
        first = self.table(state, 0)
        seats = [first, *(self.table(state, p) for p in range(1, len(first["seats"])))]
        return public_table(seats)

    def table_with_picks(self, state: State, viewer: int | None) -> dict[str, Any]:
        """The table of ``table``, every card the viewer sees and every cell with its ``pick``
        (``rules.engines.core.picks``)."""
        return assign_picks(self.table(state, viewer))

    def action_picks(
        self, state: State, action: Action, model: Mapping[str, Any], viewer: int
    ) -> tuple[str, ...]:
        """The picks ``viewer`` clicks to take ``action`` on the table ``model``: by default
        each argument that is a card in sight (``find_key``), the rest as one control named by
        the action. A game overrides this where its arguments are places or ids."""
        picks: list[str] = []
        for arg in action.args:
            found = find_key(model, arg, viewer) if isinstance(arg, str) else None
            if found is None:
                break
            picks.append(found)
        if len(picks) < len(action.args) or not picks:
            picks.append(control(str(action)))
        return tuple(picks)

    def control_words(self, state: State, action: Action, pick: str) -> str:
        """What a control chip says when it stands for one step of ``action`` (a plugin's own
        ``do:`` pick that is not the action's last step); by default the pick in words."""
        return pick.removeprefix(CONTROL).replace("-", " ").capitalize()

    def click_paths(
        self, state: State, viewer: int, model: Mapping[str, Any]
    ) -> list[tuple[tuple[str, ...], dict[str, str]]]:
        """Per legal action of ``state`` (in order), the unambiguous picks ``viewer`` clicks on
        the table ``model`` (from ``table_with_picks``) to take it, and the words of each control
        chip the path uses (pick -> words)."""
        actions = state.legal_actions()

        def words(index: int) -> str:
            return "".join(str(part) for part in self.action_words(state, actions[index]))

        raw = [self.action_picks(state, action, model, viewer) for action in actions]
        settled = settle(raw, table_picks(model), words)
        out = []
        for index, (path, labels) in enumerate(settled):
            labels = dict(labels)
            controls = [pick for pick in path if pick.startswith(CONTROL)]
            for pick in controls:
                if pick in labels:
                    continue
                if pick == path[-1] and len(controls) == 1:
                    labels[pick] = words(index)
                else:
                    labels[pick] = self.control_words(state, actions[index], pick)
            out.append((path, labels))
        return out

    # --- tools --------------------------------------------------------------------------------
    def tool(self, name: str) -> GameTool:
        """The game's command-line tool ``name``; ``KeyError`` when it has none by that name."""
        path = self.tools[name]
        module, _, function = path.partition(":")
        tool: GameTool = getattr(importlib.import_module(module), function)
        return tool


_PLUGINS: dict[str, GamePlugin] = {}


def register_plugin(plugin: GamePlugin) -> GamePlugin:
    """Make ``plugin`` the one of its game (an engine package calls this when imported).

    This is a game's one registration: its engine is found through it (``get_game``,
    ``registered_games``), so an engine class is never registered on its own.
    """
    slug = plugin.slug
    if not slug:
        raise ValueError(f"{plugin.game.__name__} has no slug")
    existing = _PLUGINS.get(slug)
    if existing is not None and type(existing).__qualname__ != type(plugin).__qualname__:
        raise ValueError(f"two plugins claim the slug {slug!r}")
    _PLUGINS[slug] = plugin
    return plugin


def unregister_plugin(slug: str) -> None:
    """Forget a plugin and its engine (tests that plug a game in for a while)."""
    _PLUGINS.pop(slug, None)


def registered_games() -> list[str]:
    """Return the slug of every registered game, sorted."""
    discover_engines()
    return sorted(_PLUGINS)


def get_game(slug: str, records: Sequence[Mapping[str, Any]] | None = None) -> Game:
    """Return a ``Game`` for ``slug``, playing with ``records`` (default: the built-in records)."""
    discover_engines()
    plugin = _PLUGINS.get(slug)
    if plugin is None:
        known = ", ".join(sorted(_PLUGINS)) or "none"
        raise KeyError(f"no engine for {slug!r} (known: {known})")
    return plugin.game(records)


def plugins() -> list[GamePlugin]:
    """Every registered plugin, by slug."""
    discover_engines()
    return [_PLUGINS[slug] for slug in sorted(_PLUGINS)]


def find_plugin(slug: str) -> GamePlugin | None:
    """The plugin of ``slug``, or None when no game has that slug."""
    discover_engines()
    return _PLUGINS.get(slug)


def plugin_for(slug: str) -> GamePlugin:
    """The plugin of ``slug``; ``KeyError`` naming the known games when there is none."""
    plugin = find_plugin(slug)
    if plugin is None:
        known = ", ".join(sorted(_PLUGINS)) or "none"
        raise KeyError(f"no game {slug!r} (known: {known})")
    return plugin
