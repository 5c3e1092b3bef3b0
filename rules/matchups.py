"""Decks into engine setups, for every surface: decklist files (``manage.py simulate``), decks of
the database (simulation jobs) and anything else that plays decks against each other.

Every surface turns its decks into ``DeckCards`` (one plain record per physical card, with its
zone, and the deck's variant) and asks the game's ``GamePlugin.matchup_setup`` for the engine
setup and the seat of each deck, so a game's seating rules live in its engine package only.

A decklist file is read with ``decks.decklist`` (text, JSON or CSV, guessed from the name), its
names are matched to the game's cards, and ``decks.validation.validate`` (with the file's
``# variant:`` line) must find it legal before an engine plays it. Setups stay plain, JSON-ready
data that ``Game.replay`` accepts again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decks.decklist import (
    DecklistParseError,
    decklist_entries,
    decklist_read,
    decklist_settings,
    guess_kind,
)
from decks.validation import UnknownVariantError, card_index, validate
from rules.engines.core import (
    DeckCards,
    GamePlugin,
    SeatPlan,
    SetupError,
    find_plugin,
    plugin_for,
)

if TYPE_CHECKING:
    from decks.models import Deck


class DeckFileError(ValueError):
    """A decklist file that cannot be read, names unknown cards or breaks the game's rules."""


@dataclass(frozen=True)
class DeckFile:
    """A legal deck read from a file: its label, its cards (one name per physical card), its
    variant ("" for the game's default) and one record per card for the game's plugin."""

    path: str
    label: str
    cards: tuple[str, ...]
    variant: str = ""
    records: tuple[dict[str, Any], ...] = ()

    def deck_cards(self) -> DeckCards:
        """The deck as a plugin takes it."""
        return DeckCards(self.label, self.records, self.variant)


def read_deck_file(game_slug: str, path: str | Path) -> DeckFile:
    """Read and validate one decklist file; raise ``DeckFileError`` naming the file (and line)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckFileError(f"{file}: cannot read the file ({exc})") from exc
    try:
        decklist = decklist_read(text, guess_kind(file.name, text))
        own = decklist_settings(decklist, game_slug)  # another game's list is refused here
        entries = decklist_entries(game_slug, decklist)
    except DecklistParseError as exc:
        problems = "; ".join(str(problem) for problem in exc.problems)
        raise DeckFileError(f"{file}: {problems}") from exc
    variant = own.variant or ""
    try:
        report = validate(game_slug, entries, variant=variant or None)
    except UnknownVariantError as exc:
        raise DeckFileError(f"{file}: {exc}") from exc
    if not report.legal:
        lines = "; ".join(_violation_text(entries, violation) for violation in report.violations)
        raise DeckFileError(f"{file}: illegal deck: {lines}")
    index = card_index(game_slug)
    cards: list[str] = []
    records: list[dict[str, Any]] = []
    for entry in entries:
        cards.extend([entry.name] * entry.quantity)
        info = index.lookup(entry.name)
        record: dict[str, Any] = {"name": entry.name, "zone": entry.zone}
        if info is not None:
            record.update(type=info.type, branch=info.branch)
        records.extend(dict(record) for _ in range(entry.quantity))
    label = decklist.metadata.get("name") or file.stem
    return DeckFile(str(file), label, tuple(cards), variant, tuple(records))


def _violation_text(entries: Sequence[Any], violation: Any) -> str:
    """A violation's message, with the lines of the cards it names when the message lacks them."""
    message = str(violation.message)
    if "line" in message:
        return f"{violation.code}: {message}"
    named = {str(card).casefold() for card in violation.cards}
    lines = sorted({entry.line for entry in entries if entry.name.casefold() in named})
    where = f" (line {', '.join(str(line) for line in lines)})" if lines else ""
    return f"{violation.code}: {message}{where}"


def deck_records(deck: Deck) -> list[dict[str, Any]]:
    """One engine record per copy of each card in a database deck (the shape ``Card.record()``
    gives), each with the ``"zone"`` the deck holds it in ("" where the game has no zones)."""
    return _records_by_deck([deck])[deck.pk]


def _records_by_deck(decks: Sequence[Deck]) -> dict[int, list[dict[str, Any]]]:
    """``deck_records`` of several decks in one query, by deck id."""
    from decks.models import DeckCard

    rows = (
        DeckCard.objects.filter(deck__in=[deck.pk for deck in decks])
        .select_related("card__card_type", "card__branch", "card__rarity", "card__card_set")
        .prefetch_related("card__subtypes")
        .order_by("card__name", "zone")
    )
    records: dict[int, list[dict[str, Any]]] = {deck.pk: [] for deck in decks}
    for row in rows:
        record = {**row.card.record(), "zone": row.zone or ""}
        records[row.deck_id].extend(dict(record) for _ in range(row.quantity))
    return records


def deck_cards(deck: Deck) -> DeckCards:
    """A database deck as a plugin takes it."""
    return DeckCards(deck.name, tuple(deck_records(deck)), deck.variant or "")


def decks_facing(decks: Sequence[Deck]) -> dict[int, list[int]]:
    """Per deck of ``decks`` (all of one game), the ids of those it can face at a table of two,
    itself in seat 0: the pairs its game's seating rules (``GamePlugin.matchup_setup``) accept,
    which ``matchup_plan`` asks again when a game starts. What /play/ offers as the AI's deck."""
    if not decks:
        return {}
    slug = decks[0].game.slug
    if type(plugin_for(slug)).matchup_setup is GamePlugin.matchup_setup:
        # the default seating takes any two decks: no need to read them
        return {a.pk: [b.pk for b in decks] for a in decks}
    records = _records_by_deck(decks)
    cards = {
        deck.pk: DeckCards(deck.name, tuple(records[deck.pk]), deck.variant or "") for deck in decks
    }
    facing: dict[int, list[int]] = {}
    for a in decks:
        facing[a.pk] = []
        for b in decks:
            try:
                seat_plan(slug, [cards[a.pk], cards[b.pk]], players=2, first=0)
            except SetupError:
                continue
            facing[a.pk].append(b.pk)
    return facing


def agents_needing_open_play(plugin: GamePlugin) -> set[str]:
    """The agents and difficulty levels of ``plugin`` that read the whole position, and so cannot
    play a game that hides tiles or cards (``play_setup_check`` refuses them there)."""
    from rules.agents import AGENTS

    return {
        name
        for name in (*plugin.matchup_agents, *plugin.difficulty_levels)
        if getattr(AGENTS.get(base_agent(plugin, name)), "needs_perfect_information", False)
    }


def decks_hiding(decks: Sequence[Deck], facing: dict[int, list[int]]) -> set[int]:
    """The ids of ``decks`` (of one game) whose games hide tiles or cards from a player (a
    secret variant), dealt against the first deck of ``facing`` they can face; empty when no
    agent of the game needs the whole position, so nothing is dealt then."""
    if not decks or not agents_needing_open_play(plugin_for(decks[0].game.slug)):
        return set()
    from rules.adapters import engine_for

    slug = decks[0].game.slug
    by_id = {deck.pk: deck for deck in decks}
    records = _records_by_deck(decks)
    hiding = set()
    for deck in decks:
        partners = facing.get(deck.pk) or []
        if not partners:
            continue
        pair = [
            DeckCards(d.name, tuple(records[d.pk]), d.variant or "")
            for d in (deck, by_id[partners[0]])
        ]
        try:
            setup = seat_plan(slug, pair, players=2, first=0).setup
            state = engine_for(slug).new_initial_state(0, setup)
        except (SetupError, ValueError):
            continue
        if not state.is_perfect_information():
            hiding.add(deck.pk)
    return hiding


def seat_plan(
    game_slug: str, decks: Sequence[DeckCards], *, players: int = 2, first: int | None = 0
) -> SeatPlan:
    """The game's engine setup for ``decks`` and the deck in each seat (the one function every
    surface builds a matchup with). Raises ``SetupError`` with a message for the user."""
    return plugin_for(game_slug).matchup_setup(decks, players=players, first=first)


def matchup_setup(
    game_slug: str,
    paths: Sequence[str | Path],
    base: dict[str, Any] | None = None,
    *,
    players: int = 2,
    first: int | None = None,
) -> tuple[dict[str, Any], list[DeckFile], tuple[int, ...]]:
    """Read the decklist files of ``paths`` (deck A first) and return the engine setup playing
    them (``base``'s keys under the game's), the decks read and, per engine seat, the index of
    the deck sitting there. ``first`` None leaves the first player to the rulebook's own rule.

    Raises ``DeckFileError`` for a file that cannot be played (``SetupError`` messages included).
    """
    decks = [read_deck_file(game_slug, path) for path in paths]
    try:
        plan = seat_plan(
            game_slug, [deck.deck_cards() for deck in decks], players=players, first=first
        )
    except SetupError as exc:
        raise DeckFileError(str(exc)) from exc
    return {**(base or {}), **plan.setup}, decks, plan.seats


# -- checks before a job plays database decks ----------------------------------------------------
# The one place that decides whether decks may be played by agents, for every simulation job
# (matchup, gauntlet, metagame, doctor; web, API, command line); each plan adds its own counts.


class PlayRefused(ValueError):
    """Decks, agents or a setup that agents cannot play; the message says why, for the user.

    ``field`` names what the refusal is about, so a form can say it beside that field:
    ``deck_a``, ``deck_b`` (the pairing of the decks is refused beside deck B) and so on, or
    ``agent``; "" when it is about the whole form."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def deck_field(index: int) -> str:
    """The form field of the deck at ``index`` of a matchup (``deck_a`` ...), ``decks`` past D."""
    return f"deck_{'abcd'[index]}" if index < 4 else "decks"


def agent_label(name: str, game_slug: str = "") -> str:
    """What the pages call an agent: the game's own label (its budget, its time a game) where
    its plugin gives one, else the shared one."""
    from rules.services import AGENT_LABELS

    plugin = find_plugin(game_slug) if game_slug else None
    if plugin is not None and name in plugin.difficulty_levels:
        return f"{name.capitalize()}: {plugin.difficulty_levels[name].words}"
    if plugin is not None and name in plugin.agent_labels:
        return plugin.agent_labels[name]
    return AGENT_LABELS.get(name, name)


def base_agent(plugin: GamePlugin | None, name: str) -> str:
    """The agent that plays ``name``: itself, or the agent of the game's difficulty level."""
    from rules.agents import parse_entrant

    level = plugin.difficulty_levels.get(name) if plugin is not None else None
    return parse_entrant(level.agent)[0] if level is not None else name


def agent_rating(name: str, game_slug: str) -> str:
    """An agent's (or a difficulty level's) rating on the game's published ladder in words,
    e.g. "rated +312 ± 41 over random"; "" when the ladder has not rated it."""
    from rules.ladder import ANCHOR, published, signed

    plugin = find_plugin(game_slug)
    ladder = published(game_slug) if plugin is not None else None
    if ladder is None or plugin is None:
        return ""
    level = plugin.difficulty_levels.get(name)
    rating = ladder.rating_of(level.agent if level is not None else name)
    if rating is None:
        return ""
    if rating.entrant == ANCHOR:
        return "rated 0 (the ladder's anchor)"
    half = (rating.high - rating.low) / 2
    return f"rated {signed(rating.elo)} ± {half:.0f} over random"


def rated_label(name: str, game_slug: str) -> str:
    """An agent's label with its ladder rating, for the forms that offer it."""
    rating = agent_rating(name, game_slug)
    label = agent_label(name, game_slug)
    return f"{label} · {rating}" if rating else label


def agents_offered(plugin: GamePlugin) -> list[tuple[str, str]]:
    """The agents ``plugin``'s matchups offer, as (name, label) pairs with each one's ladder
    rating, its default first."""
    return [(name, rated_label(name, plugin.slug)) for name in plugin.matchup_agents]


def levels_offered(plugin: GamePlugin) -> list[tuple[str, str]]:
    """The difficulty levels /play/ offers, as (level, label) pairs with each one's rating."""
    return [(name, rated_label(name, plugin.slug)) for name in plugin.difficulty_levels]


def agents_refused(plugin: GamePlugin, name: str) -> str:
    """Why agent ``name`` cannot play ``plugin``'s game, and which agents can."""
    offered = ", ".join(label for _, label in agents_offered(plugin))
    return (
        f"{agent_label(name)} does not play {plugin.name} matchups; "
        f"{plugin.name} is played by: {offered}."
    )


def play_plugin(decks: Sequence[Deck]) -> GamePlugin:
    """The plugin of the decks' one game; ``PlayRefused`` when there are no decks, when they
    are of different games or when their game has no engine."""
    if not decks:
        raise PlayRefused("Pick at least one deck.")
    game = decks[0].game
    plugin = find_plugin(game.slug)
    if plugin is None:
        raise PlayRefused(f"Matchups and simulations are not available for {game.name}.")
    if any(deck.game_id != decks[0].game_id for deck in decks):
        raise PlayRefused("All the decks must be of the same game.")
    return plugin


def play_agents_check(plugin: GamePlugin, agents: Sequence[str]) -> None:
    """Refuse an agent the game's plugin does not offer (a difficulty level is offered)."""
    offered = (*plugin.matchup_agents, *plugin.difficulty_levels)
    refused = [name for name in agents if name not in offered]
    if refused:
        raise PlayRefused(agents_refused(plugin, refused[0]), field="agent")


def play_decks_legal(plugin: GamePlugin, decks: Sequence[Deck]) -> None:
    """Refuse a deck that breaks its game's rules, where the engine plays what the deck stands
    for (a faction, a side, a setup) rather than its list, so the list must be right."""
    if not plugin.needs_legal_decks:
        return
    from decks.selectors import deck_validate

    for deck in dict.fromkeys(decks):
        report = deck_validate(deck)
        if not report.legal:
            problems = "; ".join(str(violation.message) for violation in report.violations)
            raise PlayRefused(
                f"{deck.name} is not a legal deck: {problems}", field=deck_field(decks.index(deck))
            )


def play_setup_check(
    game_slug: str,
    setup: dict[str, Any],
    agents: Sequence[str],
    names: Sequence[str] = (),
) -> None:
    """Deal one game from ``setup`` so that decks the engine cannot play are refused before
    anything is stored, and refuse an agent that reads the whole position (alpha-beta) where
    the setup hides tiles or cards; ``agents`` are per seat, and ``names`` the decks' names per
    seat, which a refusal uses for the deck at fault instead of the engine's seat number."""
    from rules.adapters import engine_for
    from rules.agents import AGENTS

    try:
        state = engine_for(game_slug).new_initial_state(0, setup)
    except (SetupError, ValueError) as error:
        message = str(error)
        seat = getattr(error, "seat", None)
        if seat is not None and 0 <= seat < len(names):
            message = message.replace(f"deck {seat}", names[seat], 1)
        raise PlayRefused(
            f"The engine cannot play these decks: {message}", field=deck_field(1)
        ) from error
    plugin = find_plugin(game_slug)
    blind = [
        n
        for n in agents
        if getattr(AGENTS.get(base_agent(plugin, n)), "needs_perfect_information", False)
    ]
    if blind and not state.is_perfect_information():
        raise PlayRefused(
            f"{agent_label(blind[0], game_slug)} needs every tile and card in the open, and "
            "these decks play a variant that hides some: pick another agent.",
            field="agent",
        )
