"""The games and their vocabularies (card types, branches, rarities, subtypes, sets) from memory.

A search names its game and vocabulary values (``t:attack b:eagle``) and used to read each from
the database: up to three round trips before the cards themselves. These rows change only when
game data is loaded or edited, so every process keeps all of them in one ``GenerationMemo``
(``cards.caching``): a save or delete of any of them drops it here at once and in the other
processes within ``RECHECK_SECONDS`` (``cards.signals``).

The rows handed out are shared by every request of the process: read them, never change them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model

from cards.caching import GenerationMemo
from cards.models import Branch, CardSet, CardType, Game, Rarity, Subtype
from cards.naming import name_key

GENERATION_KEY = "cards-vocabulary-generation"

# The query language's names for each kind, and their models.
MODELS: dict[str, type[Model]] = {
    "type": CardType,
    "branch": Branch,
    "rarity": Rarity,
    "subtype": Subtype,
    "set": CardSet,
}


@dataclass(frozen=True)
class Vocabularies:
    """Every game and every vocabulary row, in each model's default order, and by id."""

    games: tuple[Game, ...]
    by_slug: dict[str, Game]
    rows: dict[str, tuple[Any, ...]]
    by_id: dict[str, dict[int, Any]]

    def entries(self, kind: str, game: Game | None = None) -> list[Any]:
        """The rows of one kind (``"game"`` for the games), of one game or of all of them."""
        if kind == "game":
            return list(self.games) if game is None else [game]
        rows = self.rows[kind]
        if game is None:
            return list(rows)
        return [row for row in rows if row.game_id == game.pk]


def _build(_key: None) -> Vocabularies:
    games = tuple(Game.objects.all())
    rows = {kind: tuple(model._default_manager.all()) for kind, model in MODELS.items()}
    by_id = {kind: {row.pk: row for row in kind_rows} for kind, kind_rows in rows.items()}
    by_id["game"] = {game.pk: game for game in games}
    return Vocabularies(games, {game.slug: game for game in games}, rows, by_id)


_memo: GenerationMemo[None, Vocabularies] = GenerationMemo(GENERATION_KEY, _build)


def vocabularies() -> Vocabularies:
    """The current games and vocabularies (built from the database when stale)."""
    return _memo.get(None)


def game_by_slug(slug: str) -> Game | None:
    """The game called ``slug``, or None."""
    return vocabularies().by_slug.get(slug)


def game_matches(game: Game, value: str) -> bool:
    """Whether ``value`` names ``game``: its slug, its short name (``RNR``) or its name, in any
    case (as ``g:`` of the query language reads it). Short names are unique and never another
    game's slug (``cards.services``), so a value names one game at most."""
    wanted = value.strip().lower()
    return bool(wanted) and (
        game.slug == wanted
        or (bool(game.short_name) and game.short_name.lower() == wanted)
        or name_key(game.name) == name_key(value)
    )


def game_named(value: str) -> Game | None:
    """The game ``value`` names (``game_matches``: slug, short name or name), or None."""
    found = game_by_slug(value)
    if found is not None:
        return found
    return next((game for game in vocabularies().games if game_matches(game, value)), None)


def game_slug_named(value: str) -> str:
    """The slug of the game ``value`` names (``game_named``), or ``value`` as given where it
    names none, for a page to refuse or pass over in its own words."""
    game = game_named(value) if value else None  # no value: no vocabulary to load
    return game.slug if game is not None else value


def unknown_game_words(slug: str) -> str:
    """What to tell someone who named no game: the value and the games there are (each slug
    with its short name)."""
    known = (
        ", ".join(
            f"{game.slug} ({game.short_name})" if game.short_name else game.slug
            for game in vocabularies().games
        )
        or "none yet"
    )
    return f"There is no game {slug!r}: the games are {known}."


def game_get(slug: str) -> Game:
    """The game called ``slug``; ``Game.DoesNotExist`` if there is none."""
    game = game_by_slug(slug)
    if game is None:
        raise Game.DoesNotExist(f"No game is called {slug!r}.")
    return game


def entry(kind: str, pk: int | None) -> Any:
    """The row of ``kind`` (``"game"``, ``"type"``, ``"set"`` ...) with id ``pk`` (None for
    None). An id this process has not seen yet (added by another process less than a second
    ago) rebuilds its copy once; ``KeyError`` if the row is not in the database either."""
    if pk is None:
        return None
    found = vocabularies().by_id[kind].get(pk)
    if found is None:
        _memo.forget_local()
        found = vocabularies().by_id[kind][pk]
    return found


def row_labels(row: dict[str, Any]) -> dict[str, Any]:
    """What a card row of ids (``cards.selectors.CARD_LIST_VALUES``) shows of its game, set,
    type, branch and rarity, under the keys a joined row had (``game__slug`` ...), from memory:
    the rows need no join."""
    game = entry("game", row["game_id"])
    branch = entry("branch", row["branch_id"])
    rarity = entry("rarity", row["rarity_id"])
    return {
        "game__slug": game.slug,
        "game__number_labels": game.number_labels,
        "card_set__code": entry("set", row["card_set_id"]).code,
        "card_type__slug": entry("type", row["card_type_id"]).slug,
        "branch__slug": branch.slug if branch is not None else None,
        "rarity__slug": rarity.slug if rarity is not None else None,
    }


def attach_vocabulary(cards: Iterable[Any]) -> None:
    """Give each card (fetched without joins) its game, set, type, branch and rarity from
    memory, as ``select_related`` would have: the rows are shared, read them only."""
    known = vocabularies()
    for card in cards:
        for field, kind in _CARD_FIELDS:
            pk = getattr(card, f"{field}_id")
            row = known.by_id[kind].get(pk) if pk is not None else None
            if row is None and pk is not None:
                row = entry(kind, pk)  # added a moment ago elsewhere: rebuilds once
            setattr(card, field, row)


_CARD_FIELDS = (
    ("game", "game"),
    ("card_set", "set"),
    ("card_type", "type"),
    ("branch", "branch"),
    ("rarity", "rarity"),
)


def vocabularies_invalidate(**_kwargs: Any) -> None:
    """Forget the vocabularies here at once and in every process within a second."""
    _memo.invalidate()


def vocabularies_forget_local() -> None:
    """Drop this process's copy only (tests roll back writes that sent no signal)."""
    _memo.forget_local()
