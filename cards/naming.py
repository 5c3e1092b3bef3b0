"""Card-name matching shared by decklists, search, the API and the loader: keys and close matches.

A card name is matched ignoring case, accents, punctuation and runs of white space, so
``"Stamp Act"``, ``"stamp-act"`` and ``"STAMP  ACT!"`` all name the same card. A name that matches
nothing gets suggestions from ``close_matches``, the one fuzzy matcher of the site.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rapidfuzz import fuzz, process

_NON_WORD = re.compile(r"[^a-z0-9]+")


def name_key(name: str) -> str:
    """Return the matching key of a card name: lower case ASCII words joined by single spaces."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub(" ", folded.lower()).strip()


def slugify_name(name: str) -> str:
    """Return the URL slug of a card name (its matching key with hyphens)."""
    return name_key(name).replace(" ", "-")


def close_matches(
    wanted: str, choices: Sequence[str], *, limit: int, cutoff: float, partial: bool = True
) -> list[int]:
    """Return the positions in ``choices`` of the strings closest to ``wanted``, best first.

    At most ``limit`` of them, each scoring at least ``cutoff`` out of 100 (ties keep the order
    of ``choices``). ``partial`` scores by rapidfuzz's WRatio, which forgives a missing word or
    a name given in part: right for card names (pass their ``name_key``). Short identifiers
    (query fields, vocabulary slugs) pass ``partial=False`` to compare whole strings, where
    WRatio would find a one-letter alias inside any longer word.
    """
    if not wanted or not choices:
        return []
    scorer = fuzz.WRatio if partial else fuzz.ratio
    found = process.extract(wanted, choices, scorer=scorer, limit=limit, score_cutoff=cutoff)
    return [position for _choice, _score, position in found]
