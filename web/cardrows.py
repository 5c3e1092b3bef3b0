"""Catalogue HTML drawn once per generation: the card browser's rows and filters, a card page's card.

Drawing 48 rows through the template engine (a loop, three lookups and filters per cell, the
image links and page URL of each card) was a third of the card browser's time, and reading the
rows for it (the cards, their subtypes for the image digest) another third. A row shows only
catalogue data (a card's name, game, type, branch, rarity, cost, set, page and image), the same
for every visitor, so each process keeps every row it drew in a ``GenerationMemo`` on the card
detail rows' counter (``cards.selectors.DETAIL_GENERATION_KEY``): any write to a card, its
subtypes, rulings, set, type, branch, rarity or game drops them here at once and in the other
processes within a second (``cards.signals``). A page then needs only its ids from the database.
Nothing that depends on the request or the user is drawn here.

The filters that follow the game (every game's types, branches, rarities and sets when none is
chosen: a hundred options, each with its "selected" test) were most of what was left of the
template's time; they are drawn once per chosen game and choice of values, kept on the
vocabularies' counter (``cards.vocabulary``).

A card page's card (image, fields, rules and flavour text, rulings) is drawn once per card, on
the detail rows' counter as the rows; its formats (which follow the date) and public decks
(which follow the decks) are drawn at every request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe

from cards.caching import GenerationMemo
from cards.images.links import card_image_links, card_image_links_many
from cards.links import card_page_urls
from cards.models import Card, Game
from cards.selectors import DETAIL_GENERATION_KEY, card_filter_choices, card_for_page
from cards.vocabulary import GENERATION_KEY as VOCABULARY_GENERATION_KEY
from cards.vocabulary import attach_vocabulary, entry

# A row is under 1 kB of HTML: 10,000 rows are a few MB per process.
MAX_ROWS = 10_000


@dataclass(frozen=True)
class CardRow:
    """One card as the browser shows it: an image grid item and a compact list row."""

    grid: SafeString
    listed: SafeString


def _draw(ids: list[int]) -> dict[int, CardRow]:
    cards = list(Card.objects.filter(pk__in=ids).prefetch_related("subtypes"))
    attach_vocabulary(cards)
    grid = get_template("web/_card_grid_item.html")
    listed = get_template("web/_card_list_row.html")
    rows = {}
    for card, image, card_url in zip(
        cards, card_image_links_many(cards), card_page_urls(cards), strict=True
    ):
        context = {"card": card, "image": image, "card_url": card_url}
        rows[card.pk] = CardRow(
            grid=mark_safe(grid.render(context).removesuffix("\n")),
            listed=mark_safe(listed.render(context).removesuffix("\n")),
        )
    return rows


_rows: GenerationMemo[int, CardRow] = GenerationMemo(
    DETAIL_GENERATION_KEY, lambda pk: _draw([pk])[pk], max_entries=MAX_ROWS
)


def card_rows(ids: Iterable[int]) -> list[CardRow]:
    """The rows of the cards ``ids``, in that order (one query for those not drawn yet; a card
    deleted since its id was read is left out)."""
    ids = list(ids)
    found = _rows.get_many(ids, _draw)
    return [found[pk] for pk in ids if pk in found]


def kept_card_rows() -> list[CardRow]:
    """Every row this process keeps now (to inspect what is cached)."""
    return list(_rows.get_many(list(_rows.keys()), lambda _missing: {}).values())


def card_rows_html(ids: Iterable[int], *, view: str) -> SafeString:
    """The rows of ``ids`` joined, as the ``list`` view's table rows or the grid's items."""
    rows = card_rows(ids)
    parts = [row.listed for row in rows] if view == "list" else [row.grid for row in rows]
    return mark_safe("".join(parts))  # each part was escaped when drawn


# the browser's filters that follow the game, and their query parameters
FILTER_NAMES = ("type", "branch", "rarity", "set")
# (chosen game's id or None, each filter's chosen id or None, out of band): a few hundred kB
_FiltersKey = tuple[int | None, tuple[str | None, ...], bool]


def _draw_filters(key: _FiltersKey) -> SafeString:
    game_id, chosen, out_of_band = key
    game = entry("game", game_id)
    context = {
        **card_filter_choices(game),
        "form": {"data": dict(zip(FILTER_NAMES, chosen, strict=True))},
        "filters_out_of_band": out_of_band,
    }
    return mark_safe(render_to_string("web/_card_filters.html", context))


_filters: GenerationMemo[_FiltersKey, SafeString] = GenerationMemo(
    VOCABULARY_GENERATION_KEY, _draw_filters, max_entries=1000
)


def _chosen(value: Any) -> str | None:
    # only an id can match an option (``row.pk|stringformat:"s"``): anything else selects none
    return (
        value
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10
        else None
    )


def card_filters_html(
    game: Game | None, data: Mapping[str, Any], *, out_of_band: bool = False
) -> SafeString:
    """``web/_card_filters.html`` for the chosen ``game`` and the form's ``data`` (its values
    selected), as that template draws it."""
    chosen = tuple(_chosen(data.get(name)) for name in FILTER_NAMES)
    return _filters.get((game.pk if game is not None else None, chosen, out_of_band))


def _draw_card_section(key: tuple[str, str]) -> SafeString:
    card = card_for_page(game_slug=key[0], slug=key[1])
    context = {
        "card": card,
        "numbers": [(number.label, number.value) for number in card.printed_numbers()],
        "image": card_image_links(card),
    }
    return mark_safe(render_to_string("cards/_card_section.html", context))


_sections: GenerationMemo[tuple[str, str], SafeString] = GenerationMemo(
    DETAIL_GENERATION_KEY, _draw_card_section, max_entries=5000
)


def card_section_html(*, game_slug: str, slug: str) -> SafeString:
    """``cards/_card_section.html`` of a card (what its page shows of the card itself);
    Card.DoesNotExist if there is none."""
    return _sections.get((game_slug, slug))
