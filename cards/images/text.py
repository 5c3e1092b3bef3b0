"""Fonts and text fitting for card faces.

Only Pillow's bundled TrueType face (``ImageFont.load_default(size=...)``) is used, so rendering
needs no font files in the repository and nothing from the network. That face covers ASCII and a
few typographic marks; ``printable`` swaps every other character for the closest one it can draw
(an em dash becomes ``-``, ``é`` becomes ``e``) instead of letting a missing-glyph box reach a card.

``fit_text`` finds the largest size, from ``max_size`` down to ``min_size`` one pixel at a time, at
which the text wraps into its box; only when even ``min_size`` does not fit are the last lines cut
and an ellipsis added. The result says which of the two happened so callers can report it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont

ELLIPSIS = "…"
LINE_SPACING = 1.18

# Characters the bundled face lacks, mapped to what it can draw.
_SUBSTITUTES = {
    "\u2014": "-",  # em dash
    "\u2013": "-",  # en dash
    "\u2012": "-",  # figure dash
    "\u2212": "-",  # minus sign
    "\u2010": "-",  # hyphen
    "\u2022": "\u00b7",  # bullet -> middle dot
    "\u00d7": "x",  # multiplication sign
    "\u2192": "->",
    "\u2190": "<-",
    "\u2605": "*",
    "\u2606": "*",
    "\u00bd": "1/2",
    "\u00bc": "1/4",
    "\u00be": "3/4",
    "\u00a0": " ",
    "\t": " ",
    "\u2264": "<=",
    "\u2265": ">=",
    "\u2018": "'",  # left single quotation mark
    "\u2032": "'",  # prime
    "\u2033": '"',  # double prime
    "\u00ab": '"',
    "\u00bb": '"',
}


@lru_cache(maxsize=128)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled TrueType face at ``size`` pixels (cached: loading it parses the font)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("Card images need Pillow with FreeType support.")
    return loaded


@lru_cache(maxsize=1)
def _missing_glyph_signature() -> tuple[tuple[int, int], bytes]:
    mask = font(24).getmask("\U000f0000")
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True when the bundled face draws ``char`` as itself rather than its missing-glyph box."""
    if char == " ":
        return True
    mask = font(24).getmask(char)
    return (mask.size, bytes(mask)) != _missing_glyph_signature()


@lru_cache(maxsize=4096)
def _printable_char(char: str) -> str:
    if has_glyph(char):
        return char
    if char in _SUBSTITUTES:
        return "".join(_printable_char(c) for c in _SUBSTITUTES[char])
    decomposed = unicodedata.normalize("NFKD", char)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c) and has_glyph(c))
    return kept or "?"


def printable(text: str) -> str:
    """``text`` with every character the bundled face cannot draw replaced by one it can."""
    return "".join(c if c == "\n" else _printable_char(c) for c in text)


@dataclass(frozen=True)
class FittedText:
    """Lines of text at the size chosen to fit a box."""

    lines: tuple[str, ...]
    size: int
    max_size: int
    line_height: int
    stroke: int = 0
    ellipsized: bool = False

    @property
    def shrunk(self) -> bool:
        """True when the text had to be set smaller than its style's preferred size."""
        return self.size < self.max_size

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        return font(self.size)

    def block_height(self) -> int:
        """Height from the first line's ascender to the last line's descender."""
        if not self.lines:
            return 0
        ascent, descent = self.font.getmetrics()
        return (len(self.lines) - 1) * self.line_height + ascent + descent + 2 * self.stroke


def _line_height(size: int, spacing: float) -> int:
    return max(1, round(size * spacing))


@lru_cache(maxsize=16384)
def _width(text: str, size: int, stroke: int) -> float:
    """Horizontal room ``text`` needs: its advance or its ink, whichever reaches further."""
    face = font(size)
    if not text:
        return 0.0
    left, _, right, _ = face.getbbox(text, anchor="la", stroke_width=stroke)
    return max(face.getlength(text) + 2 * stroke, right - min(0, left))


def largest_size_for_height(height: int, max_size: int, stroke: int = 0) -> int:
    """The largest size (at most ``max_size``) whose single line fits ``height`` pixels."""
    size = max_size
    while size > 1 and _block_height(1, size, LINE_SPACING, stroke) > height:
        size -= 1
    return size


def _break_word(word: str, size: int, width: int, stroke: int) -> list[str]:
    """Split a word longer than ``width`` into pieces that each fit (at least one char each)."""
    pieces = []
    while word and _width(word, size, stroke) > width:
        cut = 1
        while cut < len(word) and _width(word[: cut + 1], size, stroke) <= width:
            cut += 1
        pieces.append(word[:cut])
        word = word[cut:]
    if word:
        pieces.append(word)
    return pieces


def wrap(text: str, size: int, width: int, stroke: int = 0) -> list[str]:
    """Word-wrap ``text`` to ``width`` pixels at ``size``; newlines start new paragraphs."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if _width(candidate, size, stroke) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            *full, line = _break_word(word, size, width, stroke)
            lines.extend(full)
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _ellipsize(line: str, size: int, width: int, stroke: int) -> str:
    """Shorten ``line`` (by words, then characters) until it and an ellipsis fit ``width``."""
    candidate = line.rstrip()
    while candidate:
        text = f"{candidate}{ELLIPSIS}"
        if _width(text, size, stroke) <= width:
            return text
        if " " in candidate:
            candidate = candidate.rsplit(" ", 1)[0].rstrip(" ,;:.-")
        else:
            candidate = candidate[:-1]
    return ELLIPSIS


def _block_height(lines: int, size: int, spacing: float, stroke: int) -> int:
    ascent, descent = font(size).getmetrics()
    return (lines - 1) * _line_height(size, spacing) + ascent + descent + 2 * stroke


def fit_text(
    text: str,
    width: int,
    height: int,
    *,
    max_size: int,
    min_size: int,
    max_lines: int | None = None,
    spacing: float = LINE_SPACING,
    stroke: int = 0,
) -> FittedText:
    """Wrap ``text`` into a ``width`` x ``height`` box at the largest size that fits.

    Sizes go down one pixel at a time from ``max_size`` to ``min_size``; if the text still does not
    fit, it is set at ``min_size`` with as many lines as fit, the last one ending in an ellipsis.
    """
    text = printable(text).strip()
    # A size whose single line is taller than the box is no preference, only a typo of the style.
    max_size = largest_size_for_height(height, max_size, stroke)
    min_size = min(min_size, max_size)
    for size in range(max_size, min_size - 1, -1):
        lines = wrap(text, size, width, stroke) if max_lines != 1 else [" ".join(text.split())]
        fits_lines = max_lines is None or len(lines) <= max_lines
        fits_width = all(_width(line, size, stroke) <= width for line in lines)
        if (
            fits_lines
            and fits_width
            and (not lines or _block_height(len(lines), size, spacing, stroke) <= height)
        ):
            return FittedText(
                tuple(lines), size, max_size, _line_height(size, spacing), stroke, False
            )
    size = min_size
    lines = wrap(text, size, width, stroke) if max_lines != 1 else [" ".join(text.split())]
    room = 1
    while room < len(lines) and _block_height(room + 1, size, spacing, stroke) <= height:
        room += 1
    if max_lines is not None:
        room = min(room, max_lines)
    kept = lines[:room]
    cut = len(kept) < len(lines) or any(_width(line, size, stroke) > width for line in kept)
    if cut:
        kept[-1] = _ellipsize(kept[-1], size, width, stroke)
        kept = [
            line if _width(line, size, stroke) <= width else _ellipsize(line, size, width, stroke)
            for line in kept
        ]
    return FittedText(tuple(kept), size, max_size, _line_height(size, spacing), stroke, cut)
