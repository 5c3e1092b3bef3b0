"""The errors deck reads and writes raise, shared by ``decks.selectors`` and ``decks.services``
(and re-exported by the latter), so web pages and the API map them to the same answers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class DeckError(ValueError):
    """A deck change that cannot be made; ``problems`` says why, one line each, and ``field_of``
    which input a problem is about (``name``, ``zone``, ``quantity``, ...) where it is one
    field's, so a form or an API answer says it beside that field."""

    def __init__(self, problems: list[str], field_of: Mapping[str, str] | None = None):
        self.problems = problems
        self.field_of = dict(field_of or {})
        super().__init__("; ".join(problems))

    @classmethod
    def about(cls, field: str, problem: str) -> DeckError:
        """One problem with one field."""
        return cls([problem], {problem: field})


class DeckPermissionError(PermissionError):
    """Someone other than the owner tried to change a deck."""


class DeckVersionConflict(DeckError):
    """The deck changed since the version the writer read, so a write that would overwrite those
    changes was refused and nothing was written. ``current`` is the deck's version now."""

    def __init__(self, *, deck_id: int, expected: Iterable[int], current: int) -> None:
        self.deck_id = deck_id
        self.expected = sorted(set(expected))
        self.current = current
        opened = " or ".join(f"version {number}" for number in self.expected) or "no version"
        super().__init__(
            [
                f"this deck changed since you opened it: you opened {opened}, "
                f"it is now at version {current}"
            ]
        )


class DeckBusyError(RuntimeError):
    """The database stayed locked by other writers past its timeout (SQLite serialises every
    writer); nothing was written and trying again shortly will work."""

    def __init__(self) -> None:
        super().__init__(
            "The database is busy saving other changes; nothing was changed. Try again in a moment."
        )
