"""What a card face shows, as plain data, and the content hash that names its image files.

``CardFace`` holds every value the renderer may draw, taken from a ``Card`` and its game's
vocabulary. The image digest hashes that data together with the renderer's own source code, the
face style and Pillow's version, so any change that could alter a single pixel (a reworded rules
text, a new branch colour, a tweak to a style) yields a new digest, a new file and a new URL.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import PIL

from cards.schema import PrintedNumber

if TYPE_CHECKING:
    from cards.models import Card

DIGEST_LENGTH = 16
_DRAWING_CODE = ("art.py", "face.py", "layout.py", "paint.py", "text.py", "styles")


@dataclass(frozen=True)
class CardFace:
    """Everything drawn on one card face (plain data, no database access)."""

    game_slug: str
    game_name: str
    game_short_name: str
    name: str
    slug: str
    type_slug: str
    type_name: str
    subtypes: tuple[str, ...] = ()
    branch_slug: str | None = None
    branch_name: str | None = None
    branch_color: str | None = None
    branch_label: str = "Branch"
    rarity_slug: str | None = None
    rarity_name: str | None = None
    rarity_rank: int = 0
    set_code: str = ""
    collector_number: str = ""
    numbers: tuple[PrintedNumber, ...] = ()
    copies_in_set: int | None = None
    rules_text: str = ""
    flavor_text: str = ""
    attribution: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    effects: list[Any] = field(default_factory=list)

    def number(self, column: str) -> PrintedNumber | None:
        """The printed number stored in ``column`` (``cost``, ``attack`` ...), if the card has it."""
        for printed in self.numbers:
            if printed.column == column:
                return printed
        return None

    def as_data(self) -> dict[str, Any]:
        return asdict(self)


def face_for_card(card: Card) -> CardFace:
    """Collect what ``card`` shows; use ``Card.objects.with_related()`` to avoid extra queries."""
    game = card.game
    numbers = card.printed_numbers()
    branch = card.branch if card.branch_id else None
    rarity = card.rarity if card.rarity_id else None
    return CardFace(
        game_slug=game.slug,
        game_name=game.name,
        game_short_name=game.short_name or game.name,
        name=card.name,
        slug=card.slug,
        type_slug=card.card_type.slug,
        type_name=card.card_type.name,
        subtypes=tuple(sorted(s.name for s in card.subtypes.all())) if card.pk else (),
        branch_slug=branch.slug if branch else None,
        branch_name=branch.name if branch else None,
        branch_color=branch.color if branch else None,
        branch_label=game.branch_label,
        rarity_slug=rarity.slug if rarity else None,
        rarity_name=rarity.name if rarity else None,
        rarity_rank=rarity.sort_order if rarity else 0,
        set_code=card.card_set.code,
        collector_number=card.collector_number,
        numbers=numbers,
        copies_in_set=card.copies_in_set,
        rules_text=card.rules_text,
        flavor_text=card.flavor_text,
        attribution=card.attribution,
        stats=card.stats if isinstance(card.stats, dict) else {},
        effects=card.effects if isinstance(card.effects, list) else [],
    )


@lru_cache(maxsize=1)
def drawing_code_fingerprint() -> str:
    """Hash of the renderer's drawing code, so a change to any style re-renders its cards."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for entry in _DRAWING_CODE:
        path = root / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(file.relative_to(root).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


# face_digest's results, keyed by the face's content (see _content_key): pages link to the same
# cards again and again, and the digest's JSON and SHA-256 cost about 30 us a card. The key is
# the content itself, so an edited card (or vocabulary) is a new key: nothing to invalidate.
# The drawing code and Pillow's version are fixed for a process, so they are not in the key.
_DIGEST_MEMO: dict[tuple[Any, ...], str] = {}
DIGEST_MEMO_ENTRIES = 50_000
_FACE_FIELDS = tuple(
    item.name for item in fields(CardFace) if item.name not in ("stats", "effects")
)


def _content_key(face: CardFace, style_key: str) -> tuple[Any, ...]:
    """Equal keys mean equal digests: every field of ``face``, the JSON ones by ``repr`` (equal
    reprs of JSON values are equal values; unequal reprs of equal values only miss the memo)."""
    values = [getattr(face, name) for name in _FACE_FIELDS]
    return (style_key, *values, repr(face.stats), repr(face.effects))


def face_digest(face: CardFace, style_key: str) -> str:
    """Content hash of everything that determines the pixels of ``face`` drawn by a style."""
    key = _content_key(face, style_key)
    digest = _DIGEST_MEMO.get(key)
    if digest is None:
        digest = _face_digest(face, style_key)
        if len(_DIGEST_MEMO) >= DIGEST_MEMO_ENTRIES:
            _DIGEST_MEMO.clear()
        _DIGEST_MEMO[key] = digest
    return digest


def _face_digest(face: CardFace, style_key: str) -> str:
    payload = json.dumps(
        {
            "face": face.as_data(),
            "style": style_key,
            "code": drawing_code_fingerprint(),
            "pillow": PIL.__version__,
        },
        sort_keys=True,
        default=str,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:DIGEST_LENGTH]
