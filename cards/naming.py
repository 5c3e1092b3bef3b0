"""Name normalisation shared by decklists, search and the loader.

A card name is matched ignoring case, accents, punctuation and runs of white space, so
``"Stamp Act"``, ``"stamp-act"`` and ``"STAMP  ACT!"`` all name the same card.
"""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def name_key(name: str) -> str:
    """Return the matching key of a card name: lower case ASCII words joined by single spaces."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub(" ", folded.lower()).strip()


def slugify_name(name: str) -> str:
    """Return the URL slug of a card name (its matching key with hyphens)."""
    return name_key(name).replace(" ", "-")
