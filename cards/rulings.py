"""Card rulings read from the project's own rulings documents, ``docs/rules/<game>.md``.

Each game's choices where its rulebook is ambiguous are written once, in the ``## Rulings``
section of its document, as numbered items: ``12. **Title.** text``. The card loader attaches
each ruling to the cards it concerns, so card pages show them:

- a card named in the ruling (its exact name, as a whole word or phrase, not as part of a
  longer card name);
- every card of a card type or subtype the ruling's title names ("Petitions count toward the
  Rights cap" concerns every Rights card and every Petition).

What a card page shows is the ruling's decision, not the developer's notes: the sentences from
"Pinned by" on (the tests that pin it) are left out, and Markdown emphasis is removed. A ruling
is dated by the last date it mentions (a "Changed 2026-11-26" note), else by the release of the
card's set; its source names the document and the ruling's number.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_SECTION = re.compile(r"^## Rulings\s*$")
_NEXT_SECTION = re.compile(r"^## ")
_ITEM = re.compile(r"^(\d+)\.\s+\*\*(.+?)\*\*\s*(.*)$")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_PINNED = re.compile(r"\s*(?:The engine pins it|Pinned by|\*Pinned by\*|All in `tests/).*$", re.S)


@dataclass(frozen=True)
class DocRuling:
    """One numbered ruling of a game's rulings document."""

    number: int
    title: str
    text: str
    """The ruling as shown to players: title and decision, without the tests that pin it."""
    body: str
    """Everything the item says (title and text, Markdown removed), to find the cards it names."""
    date: dt.date | None


def _plain(markdown: str) -> str:
    """Markdown emphasis and code marks removed, whitespace collapsed."""
    text = re.sub(r"`([^`]*)`", r"\1", markdown)
    text = re.sub(r"\*\*([^*]*)\*\*", r"\1", text)
    text = re.sub(r"\*([^*]*)\*", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def _items(lines: list[str]) -> list[tuple[int, str, list[str]]]:
    """(number, title, lines of text) for every numbered item of the Rulings section."""
    items: list[tuple[int, str, list[str]]] = []
    inside = False
    for line in lines:
        if _SECTION.match(line):
            inside = True
            continue
        if inside and _NEXT_SECTION.match(line):
            break
        if not inside:
            continue
        match = _ITEM.match(line)
        if match:
            items.append((int(match.group(1)), match.group(2), [match.group(3)]))
        elif items and line.startswith((" ", "\t")) and line.strip():
            items[-1][2].append(line.strip())
        elif items and not line.strip():
            items[-1][2].append("")
    return items


def rulings_read(path: Path) -> list[DocRuling]:
    """The numbered rulings of the document at ``path`` (empty when it has no Rulings section)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rulings = []
    for number, title, body_lines in _items(lines):
        # An item ends at its first blank line: what follows belongs to the section, not to it.
        body_text = "\n".join(body_lines).split("\n\n")[0]
        title_plain = _plain(title).rstrip(".")
        decision = _plain(_PINNED.sub("", body_text))
        dates = sorted(dt.date.fromisoformat(day) for day in _DATE.findall(body_text))
        rulings.append(
            DocRuling(
                number=number,
                title=title_plain,
                text=f"{title_plain}. {decision}".strip() if decision else f"{title_plain}.",
                body=f"{title_plain}. {_plain(body_text)}",
                date=dates[-1] if dates else None,
            )
        )
    return rulings


def _mentions(name: str, text: str, *, plural: bool = False, ignore_case: bool = False) -> bool:
    suffix = "(?:s|es)?" if plural else ""
    flags = re.IGNORECASE if ignore_case else 0
    return re.search(rf"(?<![\w-]){re.escape(name)}{suffix}(?![\w-])", text, flags) is not None


def rulings_for_card(
    rulings: list[DocRuling],
    *,
    name: str,
    type_name: str,
    subtype_names: list[str],
    card_names: Sequence[str] = (),
) -> list[DocRuling]:
    """The rulings that concern one card: it is named in them, or its type or subtype is named
    in their title (an empty ``type_name`` matches no title).

    ``card_names`` are the names of the game's other cards: a mention of a longer one that
    contains this card's name ("Gate Keeper" for a card "Keeper") is not a mention of this card.
    """
    kinds = [kind for kind in (type_name, *subtype_names) if kind]
    longer = sorted(
        (other for other in card_names if other != name and _mentions(name, other)),
        key=len,
        reverse=True,
    )
    found = []
    for ruling in rulings:
        body = ruling.body
        for other in longer:
            body = body.replace(other, " ")
        if _mentions(name, body) or any(
            _mentions(kind, ruling.title, plural=True, ignore_case=True) for kind in kinds
        ):
            found.append(ruling)
    return found
