"""What one game's cards can be searched by, in the query language's own terms.

The help page lists these for every game, so they are read from the tables the compiler itself
uses (``cards.search.compiler``) and from the game's own data (its vocabulary, its printed
numbers and what it calls a branch): a field the page shows is a field a query accepts, with the
values that game's cards take.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cards.models import Card, Game
from cards.search.compiler import (
    TEXT_FIELDS,
    VOCABULARIES,
    VOCABULARY_FIELDS,
    branch_aliases,
    number_aliases,
)
from cards.vocabulary import vocabularies

FieldKind = Literal["text", "choice", "number"]

ALL_OPERATORS = (":", "=", "!=", "<", "<=", ">", ">=")
CHOICE_OPERATORS = (":", "=", "!=")

# What each text column holds, in a player's words, and the operators it takes.
TEXT_COLUMNS: dict[str, tuple[str, tuple[str, ...]]] = {
    "name": ("Name", (":", "=", "!=")),
    "rules_text": ("Rules text", (":", "!=")),
    "flavor_text": ("Flavour text", (":", "!=")),
}

# The vocabularies a game's cards are searched by (the game itself is not one of its fields).
CHOICE_KINDS = ("type", "branch", "rarity", "subtype", "set")


@dataclass(frozen=True)
class SearchField:
    """One thing a game's cards can be searched by."""

    label: str
    """What the game calls it: "Card type", "Colour", "IP cost"."""
    names: tuple[str, ...]
    """The field names a query may write, shortest first: ``("t", "type")``."""
    kind: FieldKind
    operators: tuple[str, ...]
    values: tuple[str, ...] = ()
    """For a choice, the values this game's cards take (slugs), in the game's order."""
    value_names: tuple[str, ...] = ()
    """The same values as the game prints them ("Liberty Bell")."""

    @property
    def choices(self) -> list[tuple[str, str]]:
        """(value, printed name) of each value a choice takes."""
        return list(zip(self.values, self.value_names, strict=True))

    @property
    def name(self) -> str:
        """The shortest name, the one examples use."""
        return self.names[0]


def _names_of(table: dict[str, str], target: str) -> tuple[str, ...]:
    return tuple(sorted((name for name, to in table.items() if to == target), key=len))


def _short_first(name: str) -> tuple[int, str]:
    return (len(name), name)


def _choice_field(game: Game, kind: str) -> SearchField | None:
    rows = vocabularies().entries(kind, game)
    if not rows:
        return None
    names = _names_of(VOCABULARY_FIELDS, kind)
    label = VOCABULARIES[kind].label.capitalize()
    if kind == "branch":
        own_words = sorted(branch_aliases(game) - set(names))
        names = tuple(sorted((*names, *own_words), key=len))
        label = game.branch_label or label
    operators = ALL_OPERATORS if VOCABULARIES[kind].ordered else CHOICE_OPERATORS
    key = "code" if kind == "set" else "slug"
    values = tuple(getattr(row, key) for row in rows)
    return SearchField(
        label=label,
        names=names,
        kind="choice",
        operators=operators,
        values=values,
        value_names=tuple(row.name for row in rows),
    )


def _number_fields(game: Game) -> list[SearchField]:
    aliases = number_aliases(game)
    fields = []
    for column, meta in (game.number_labels or {}).items():
        names = tuple(sorted((n for n, c in aliases.items() if c == column), key=_short_first))
        if not names:
            continue
        meta = meta if isinstance(meta, dict) else {}
        label = str(meta.get("label") or column.replace("_", " ").capitalize())
        fields.append(SearchField(label=label, names=names, kind="number", operators=ALL_OPERATORS))
    return fields


def query_fields(game: Game) -> list[SearchField]:
    """Every field ``game``'s cards can be searched by: text, then choices, then numbers.

    A choice appears only when the game has values for it (a game without rarities has no
    rarity field to offer), a number only when the game prints it.
    """
    fields = [
        SearchField(label=label, names=_names_of(TEXT_FIELDS, column), kind="text", operators=ops)
        for column, (label, ops) in TEXT_COLUMNS.items()
    ]
    for kind in CHOICE_KINDS:
        choice = _choice_field(game, kind)
        if choice is not None:
            fields.append(choice)
    fields.extend(_number_fields(game))
    if Card.objects.filter(game=game, copies_in_set__isnull=False).exists():
        fields.append(
            SearchField(
                label="Copies in the set", names=("copies",), kind="number", operators=ALL_OPERATORS
            )
        )
    return fields
