"""Parse a card query string into a small syntax tree.

The grammar lives in ``grammar.lark`` (LALR, contextual lexer). Parsing never raises anything but
``QuerySyntaxError``, which carries the 0-based ``position`` of the problem in the query, its
``column`` (1-based, as an editor shows it) and the tokens that would have been accepted there.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.exceptions import VisitError

MAX_QUERY_LENGTH = 1000
MAX_NESTING = 32

# What a person should read for each terminal of the grammar, in error messages.
TOKEN_DESCRIPTIONS = {
    "FIELD_OP": "a field test such as t:attack or cost<=3",
    "WORD": "a word",
    "PHRASE": 'a "quoted phrase"',
    "EXACT": '!"Exact Name"',
    "VALUE": "a value",
    "NEG": "-",
    "_LPAR": "(",
    "_RPAR": ")",
    "_OR": "OR",
    "_AND": "AND",
    "NOT": "NOT",
    "$END": "the end of the query",
}
_OPERATOR = re.compile(r"(!=|<=|>=|:|=|<|>)$")


class QueryError(Exception):
    """A query that cannot be run: bad syntax, an unknown field or a value the field refuses."""

    code = "invalid-query"

    def __init__(
        self,
        message: str,
        *,
        query: str,
        position: int,
        length: int = 1,
        expected: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.query = query
        self.position = max(0, min(position, len(query)))
        self.length = max(0, length)
        self.expected = expected or []

    @property
    def column(self) -> int:
        """1-based column of the problem (queries are one line)."""
        return self.position + 1

    def as_dict(self) -> dict[str, object]:
        """The error as JSON-ready data: message, position, column, length, expected tokens."""
        return {
            "message": self.message,
            "query": self.query,
            "position": self.position,
            "column": self.column,
            "length": self.length,
            "expected": self.expected,
        }


class QuerySyntaxError(QueryError):
    """The query does not follow the grammar."""

    code = "query-syntax"


@dataclass(frozen=True)
class Node:
    position: int


@dataclass(frozen=True)
class And(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Or(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Not(Node):
    item: Node


@dataclass(frozen=True)
class Text(Node):
    """A free word or quoted phrase: matched against the name and the rules text."""

    text: str
    quoted: bool = False


@dataclass(frozen=True)
class ExactName(Node):
    name: str


@dataclass(frozen=True)
class Comparison(Node):
    """``field op value``, e.g. ``t:attack`` or ``ip<=3``."""

    field: str
    operator: str
    value: str
    value_position: int
    quoted: bool = False
    # dataclasses.field by its module: ``field`` above is this class's own attribute
    raw: str = dataclasses.field(default="", compare=False)


@dataclass(frozen=True)
class MatchAll(Node):
    """The empty query."""


def _unquote(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] == '"' else token


def _at(token: Token) -> int:
    """Where a token of the query starts (the lexer sets it on every token it makes)."""
    assert token.start_pos is not None
    return token.start_pos


class _ToAst(Transformer):
    def __init__(self, query: str) -> None:
        super().__init__()
        self.query = query

    def start(self, items: list[Node]) -> Node:
        return items[0] if items else MatchAll(position=0)

    def or_expr(self, items: list[Node]) -> Node:
        return Or(position=items[0].position, items=tuple(items))

    def and_expr(self, items: list[Node]) -> Node:
        return And(position=items[0].position, items=tuple(items))

    def negation(self, items: list[Token | Node]) -> Node:
        neg, item = items
        assert isinstance(neg, Token) and isinstance(
            item, Node
        )  # the grammar: "-" or NOT, then one
        return Not(position=_at(neg), item=item)

    def word(self, items: list[Token]) -> Node:
        (token,) = items
        if str(token).lower() in ("and", "or"):
            # the lexer reads AND and OR as words only where no operator fits: first, after
            # "(", after another operator or NOT; there they join nothing (a dangling operator)
            raise QuerySyntaxError(
                f"{str(token).upper()} at column {_at(token) + 1} joins two terms, and there "
                f'is none before it: put one there, or quote it ("{token}") to search the word.',
                query=self.query,
                position=_at(token),
                length=len(token),
                expected=["a search term"],
            )
        return Text(position=_at(token), text=str(token))

    def phrase(self, items: list[Token]) -> Node:
        (token,) = items
        return Text(position=_at(token), text=_unquote(str(token)), quoted=True)

    def _not_empty(self, token: Token) -> None:
        """Refuse a field's value of ``""``: it matched no card (a bare ``""`` phrase is in
        every card's text, so it narrows nothing, as an empty query)."""
        if not _unquote(str(token)).strip():
            raise QuerySyntaxError(
                f"The quotes at column {_at(token) + 1} hold no words: put some between them, "
                "or remove them.",
                query=self.query,
                position=_at(token),
                length=len(token),
                expected=["words between the quotes"],
            )

    def exact(self, items: list[Token]) -> Node:
        (token,) = items
        return ExactName(position=_at(token), name=_unquote(str(token)[1:]))

    def comparison(self, items: list[Token]) -> Node:
        field_op, value = items
        if value.type == "PHRASE":
            self._not_empty(value)
        text = str(field_op)
        match = _OPERATOR.search(text)
        assert match is not None  # the FIELD_OP terminal always ends with an operator
        return Comparison(
            position=_at(field_op),
            field=text[: match.start()].lower(),
            operator=match.group(1),
            value=_unquote(str(value)),
            value_position=_at(value),
            quoted=value.type == "PHRASE",
            raw=text + str(value),
        )


@cache
def _parser() -> Lark:
    grammar = (Path(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False)


def _describe(expected: set[str] | frozenset[str]) -> list[str]:
    return sorted({TOKEN_DESCRIPTIONS.get(name, name) for name in expected})


def _syntax_error(query: str, exc: UnexpectedInput) -> QuerySyntaxError:
    if isinstance(exc, UnexpectedCharacters):
        position = exc.pos_in_stream
        assert position is not None  # a character the lexer refused has its place
        char = query[position] if position < len(query) else ""
        expected = _describe(exc.allowed or set())
        if char == '"':
            message = f"Unterminated quoted phrase starting at column {position + 1}."
        else:
            message = f"Unexpected character {char!r} at column {position + 1}."
        return QuerySyntaxError(message, query=query, position=position, expected=expected)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        expected = _describe(exc.expected or set())
        if token.type == "$END":
            position = len(query)
            message = f"The query ended early at column {position + 1}; expected " + (
                " or ".join(expected) or "more"
            )
            return QuerySyntaxError(
                message + ".", query=query, position=position, length=0, expected=expected
            )
        position = token.start_pos or 0
        message = f"Unexpected {str(token)!r} at column {position + 1}"
        if token.type == "_RPAR":
            message += " (a closing parenthesis without an opening one)"
        elif expected:
            message += "; expected " + " or ".join(expected)
        return QuerySyntaxError(
            message + ".", query=query, position=position, length=len(token), expected=expected
        )
    position = getattr(exc, "pos_in_stream", None) or len(query)
    return QuerySyntaxError(f"Cannot parse the query: {exc}", query=query, position=position)


def parse_query(query: str) -> Node:
    """Parse ``query`` into a syntax tree; raise ``QuerySyntaxError`` with its position."""
    if len(query) > MAX_QUERY_LENGTH:
        raise QuerySyntaxError(
            f"A query may be at most {MAX_QUERY_LENGTH} characters long.",
            query=query[:MAX_QUERY_LENGTH],
            position=MAX_QUERY_LENGTH,
            length=0,
        )
    if "\x00" in query:
        position = query.index("\x00")
        raise QuerySyntaxError(
            "A query may not contain NUL characters.", query=query, position=position
        )
    depth = 0
    in_phrase = False
    for position, char in enumerate(query):
        if char == '"':
            in_phrase = not in_phrase
        elif char == "(" and not in_phrase:
            depth += 1
            if depth > MAX_NESTING:
                raise QuerySyntaxError(
                    f"Parentheses may nest at most {MAX_NESTING} deep.",
                    query=query,
                    position=position,
                )
        elif char == ")" and not in_phrase:
            depth = max(0, depth - 1)
    # Any Unicode space (a no-break space pasted from a page) separates terms as a space does;
    # one character for one, so every position said in an error is the query's own.
    spaced = "".join(" " if char.isspace() else char for char in query)
    try:
        return _ToAst(query).transform(_parser().parse(spaced))
    except UnexpectedInput as exc:
        raise _syntax_error(query, exc) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, QuerySyntaxError):
            raise exc.orig_exc from None
        raise QuerySyntaxError(
            "The query nests too deeply.", query=query, position=0, length=len(query)
        ) from None
    except RecursionError:
        raise QuerySyntaxError(
            "The query nests too deeply.", query=query, position=0, length=len(query)
        ) from None
