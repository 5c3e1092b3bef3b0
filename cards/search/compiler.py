"""Compile a parsed card query into a Django ``Q`` over ``Card``.

Vocabulary values (types, branches, rarities, subtypes, sets, games) are looked up once per query
kind and turned into id lists, so the card query itself needs no joins; an unknown field or a value
no game knows raises ``QueryError`` pointing at it. Name fragments go through the search index (see
``cards.search.index``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model, Q

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Subtype
from cards.naming import close_matches, name_key, slugify_name
from cards.schema import PRINTED_NUMBERS
from cards.search.index import name_contains_q, rules_text_contains_q
from cards.search.parser import (
    And,
    Comparison,
    ExactName,
    MatchAll,
    Node,
    Not,
    Or,
    QueryError,
    Text,
    parse_query,
)
from cards.vocabulary import game_matches, vocabularies

EQUALITY = {":", "="}
ORDERING = {"<", "<=", ">", ">="}
#: a number a query compares with: ASCII digits, a minus sign at most
WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


@dataclass(frozen=True)
class Vocabulary:
    """A kind of per-game vocabulary a query can name: card types, branches, rarities ..."""

    label: str
    model: type[Model]
    ordered: bool = False


VOCABULARIES: dict[str, Vocabulary] = {
    "type": Vocabulary("card type", CardType),
    "branch": Vocabulary("branch", Branch),
    "rarity": Vocabulary("rarity", Rarity, ordered=True),
    "subtype": Vocabulary("subtype", Subtype),
    "set": Vocabulary("set", CardSet),
    "game": Vocabulary("game", Game),
}

# Field names every game understands; per-game number names are added from Game.number_labels.
VOCABULARY_FIELDS = {
    "t": "type",
    "type": "type",
    "b": "branch",
    "branch": "branch",
    "r": "rarity",
    "rarity": "rarity",
    "st": "subtype",
    "subtype": "subtype",
    "s": "set",
    "set": "set",
    "e": "set",
    "edition": "set",
    "g": "game",
    "game": "game",
}
TEXT_FIELDS = {
    "o": "rules_text",
    "oracle": "rules_text",
    "text": "rules_text",
    "rules": "rules_text",
    "ft": "flavor_text",
    "flavor": "flavor_text",
    "n": "name",
    "name": "name",
}
NUMBER_FIELDS = {column: column for column in PRINTED_NUMBERS} | {"copies": "copies_in_set"}


def number_aliases(game: Game) -> dict[str, str]:
    """Every name a query may use for one game's printed numbers, mapped to the Card column.

    From each ``number_labels`` entry: the column (``cost``), the game's name (``ip_cost``), the
    initials of a multi-word name (``ad`` for ``attack_damage``), the prefix of an ``X_cost`` name
    (``ip``) and any ``aliases`` the entry lists. An alias two columns would claim is dropped.
    """
    claims: dict[str, set[str]] = {}
    for column, meta in (game.number_labels or {}).items():
        if column not in NUMBER_FIELDS:
            continue
        meta = meta if isinstance(meta, dict) else {}
        names = {column}
        own = str(meta.get("name") or column).lower()
        names.add(own)
        parts = [part for part in own.split("_") if part]
        if len(parts) > 1:
            names.add("".join(part[0] for part in parts))
        if len(parts) > 1 and parts[-1] == "cost":
            names.add("_".join(parts[:-1]))
        names.update(str(alias).lower() for alias in meta.get("aliases", []) or [])
        for name in names:
            claims.setdefault(name, set()).add(column)
    return {name: next(iter(columns)) for name, columns in claims.items() if len(columns) == 1}


def branch_aliases(game: Game) -> set[str]:
    """What a game calls its branch axis, usable as a field name (``colour``, ``faction``)."""
    label = slugify_name(game.branch_label or "").replace("-", "_")
    return {label} if label and label not in NUMBER_FIELDS else set()


class SearchContext:
    """What compiling one query needs: the query, its game, and the vocabularies (from memory,
    ``cards.vocabulary``)."""

    def __init__(self, query: str, game: Game | None = None) -> None:
        self.query = query
        self.game = game

    @property
    def games(self) -> list[Game]:
        return vocabularies().entries("game", self.game)

    def entries(self, kind: str) -> list[Any]:
        return vocabularies().entries(kind, self.game)

    def error(self, message: str, position: int, length: int = 1, **kwargs: Any) -> QueryError:
        return QueryError(message, query=self.query, position=position, length=length, **kwargs)


def _matches(kind: str, entry: Any, value: str) -> bool:
    wanted_key = name_key(value)
    if kind == "set":
        return entry.code.lower() == value.lower() or name_key(entry.name) == wanted_key
    if kind == "game":
        return game_matches(entry, value)
    return (
        entry.slug == value.lower()
        or entry.slug == slugify_name(value)
        or name_key(entry.name) == wanted_key
    )


def _entry_label(kind: str, entry: Any) -> str:
    if kind == "set":
        return entry.code
    return entry.slug


def _suggest(value: str, choices: Iterable[str]) -> str:
    options = sorted(set(choices))
    if not options:
        return ""
    found = close_matches(value.lower(), options, limit=1, cutoff=60, partial=False)
    hint = f" Did you mean {options[found[0]]!r}?" if found else ""
    listed = ", ".join(options[:12]) + (" ..." if len(options) > 12 else "")
    return f"{hint} Known values: {listed}."


class _Compiler:
    def __init__(self, context: SearchContext) -> None:
        self.ctx = context

    def compile(self, node: Node) -> Q:
        if isinstance(node, MatchAll):
            return Q()
        if isinstance(node, And):
            result = Q()
            for item in node.items:
                result &= self.compile(item)
            return result
        if isinstance(node, Or):
            result = self.compile(node.items[0])
            for item in node.items[1:]:
                result |= self.compile(item)
            return result
        if isinstance(node, Not):
            return ~self.compile(node.item)
        if isinstance(node, Text):
            return self._free_text(node)
        if isinstance(node, ExactName):
            return self._exact_name(node)
        if isinstance(node, Comparison):
            return self._comparison(node)
        raise TypeError(f"unknown query node {node!r}")  # pragma: no cover - grammar is closed

    def _free_text(self, node: Text) -> Q:
        if not node.text.strip():
            return Q()
        return name_contains_q(node.text) | rules_text_contains_q(node.text)

    def _exact_name(self, node: ExactName) -> Q:
        key = name_key(node.name)
        if not key:
            raise self.ctx.error(
                "An exact name needs at least one letter or digit.",
                node.position,
                len(node.name) + 1,
            )
        return Q(name_key=key)

    def _comparison(self, node: Comparison) -> Q:
        field = node.field
        if field in VOCABULARY_FIELDS:
            return self._vocabulary(node, VOCABULARY_FIELDS[field])
        if field in TEXT_FIELDS:
            return self._text(node, TEXT_FIELDS[field])
        per_game = self._number_columns(field)
        if per_game:
            return self._number(node, per_game)
        if self._is_branch_alias(field):
            return self._vocabulary(node, "branch")
        known = sorted(set(VOCABULARY_FIELDS) | set(TEXT_FIELDS) | self._known_numbers())
        found = close_matches(field, known, limit=1, cutoff=60, partial=False)
        hint = f" Did you mean {known[found[0]]!r}?" if found else ""
        raise self.ctx.error(
            f"Unknown field {field!r}.{hint} The query help lists every game's fields.",
            node.position,
            len(field),
            expected=known,
        )

    def _known_numbers(self) -> set[str]:
        names = set(NUMBER_FIELDS)
        for game in self.ctx.games:
            names |= set(number_aliases(game)) | branch_aliases(game)
        return names

    def _is_branch_alias(self, field: str) -> bool:
        return any(field in branch_aliases(game) for game in self.ctx.games)

    def _number_columns(self, field: str) -> dict[str, list[int] | None]:
        """Column -> the ids of the games that call it ``field`` (None: every game)."""
        if field in NUMBER_FIELDS:
            return {NUMBER_FIELDS[field]: None}
        columns: dict[str, list[int] | None] = {}
        for game in self.ctx.games:
            column = number_aliases(game).get(field)
            if column is not None:
                games = columns.setdefault(column, [])
                assert games is not None
                games.append(game.pk)
        return columns

    def _parse_int(self, node: Comparison) -> int:
        try:
            if not WHOLE_NUMBER.fullmatch(node.value.strip()):
                raise ValueError(node.value)  # int() also reads "1_0" and "+5"
            value = int(node.value.strip())
        except ValueError:
            raise self.ctx.error(
                f"{node.field}{node.operator} needs a whole number, not {node.value!r}.",
                node.value_position,
                max(1, len(node.value) + (2 if node.quoted else 0)),
                expected=["a whole number"],
            ) from None
        if abs(value) > 2**31 - 1:
            raise self.ctx.error(
                f"{node.value} is out of range for {node.field}.",
                node.value_position,
                len(node.value),
            )
        return value

    def _number(self, node: Comparison, per_game: dict[str, list[int] | None]) -> Q:
        value = self._parse_int(node)
        tests = []
        for column, game_ids in per_game.items():
            if node.operator == "!=":
                test = Q(**{f"{column}__isnull": False}) & ~Q(**{column: value})
            else:
                test = Q(**{f"{column}__{_LOOKUPS[node.operator]}": value})
            if game_ids is not None:
                test &= Q(game_id__in=sorted(game_ids))
            tests.append(test)
        result = tests[0]
        for test in tests[1:]:
            result |= test
        return result

    def _text(self, node: Comparison, column: str) -> Q:
        if node.operator in ORDERING:
            raise self.ctx.error(
                f"{node.field} compares text: use {node.field}: or {node.field}!= "
                f"instead of {node.operator}.",
                node.position + len(node.field),
                len(node.operator),
                expected=[":", "=", "!="],
            )
        if column == "name":
            if node.operator == "=":
                return Q(name_key=name_key(node.value))
            test = name_contains_q(node.value)
        elif column == "rules_text":
            test = rules_text_contains_q(node.value)
        else:
            test = Q(**{f"{column}__icontains": node.value})
        return ~test if node.operator == "!=" else test

    def _vocabulary(self, node: Comparison, kind: str) -> Q:
        vocabulary = VOCABULARIES[kind]
        if node.operator in ORDERING and not vocabulary.ordered:
            raise self.ctx.error(
                f"{node.field} cannot be compared with {node.operator}; use : or !=.",
                node.position + len(node.field),
                len(node.operator),
                expected=[":", "=", "!="],
            )
        entries = self.ctx.entries(kind)
        matched = [entry for entry in entries if _matches(kind, entry, node.value)]
        if not matched:
            raise self.ctx.error(
                f"No {vocabulary.label} is called {node.value!r}."
                + _suggest(node.value, (_entry_label(kind, e) for e in entries)),
                node.value_position,
                max(1, len(node.value) + (2 if node.quoted else 0)),
            )
        if node.operator in ORDERING:
            lookup = _LOOKUPS[node.operator]
            ids = set()
            for found in matched:
                for entry in entries:
                    if entry.game_id == found.game_id and _compare(
                        entry.sort_order, lookup, found.sort_order
                    ):
                        ids.add(entry.pk)
        else:
            ids = {entry.pk for entry in matched}
        test = self._membership(kind, sorted(ids))
        return ~test if node.operator == "!=" else test

    def _membership(self, kind: str, ids: list[int]) -> Q:
        if kind == "subtype":
            through = Card.subtypes.through.objects.filter(subtype_id__in=ids)
            return Q(pk__in=through.values("card_id"))
        column = {
            "type": "card_type_id",
            "branch": "branch_id",
            "rarity": "rarity_id",
            "set": "card_set_id",
            "game": "game_id",
        }[kind]
        return Q(**{f"{column}__in": ids})


def _compare(left: int, lookup: str, right: int) -> bool:
    return {
        "lt": left < right,
        "lte": left <= right,
        "gt": left > right,
        "gte": left >= right,
    }[lookup]


def compile_query(query: str, game: Game | None = None) -> Q:
    """Parse and compile ``query`` (optionally within one game) into a Q over Card."""
    tree = parse_query(query)
    return _Compiler(SearchContext(query, game)).compile(tree)


def field_q(field: str, value: str, operator: str = ":", game: Game | None = None) -> Q:
    """One ``field op value`` test as a Q, as if written in a query (raises ``QueryError``).

    Used by form-style filters (``?type=attack``) so they accept and refuse what ``q`` does.
    """
    text = f"{field}{operator}{value}"
    node = Comparison(
        position=0,
        field=field.lower(),
        operator=operator,
        value=value,
        value_position=len(field) + len(operator),
        raw=text,
    )
    return _Compiler(SearchContext(text, game)).compile(node)
