"""Card rulings come from the project's rulings documents (docs/rules/<game>.md) and show on
card pages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.models import Card, Game, Ruling
from cards.rulings import rulings_for_card, rulings_read
from cards.services import game_data_load

pytestmark = pytest.mark.django_db

DOC = """# A game

## Rulings

Intro text.

1. **Gate Keeper and walls.** The Gate Keeper holds the gate. Decision: it may.
   Pinned by `tests/x.py::test_gate`.
2. **Walls stand** (Setup). Any Wall stays. Changed 2026-11-26 (issue 16): it fell before.
   *Pinned by* `test_walls`.

   A paragraph after the item belongs to the section, not to ruling 2.

## Measured

3. **Not a ruling.** Gate Keeper.
"""


def test_a_rulings_document_is_read_item_by_item(tmp_path: Path) -> None:
    path = tmp_path / "game.md"
    path.write_text(DOC, encoding="utf-8")

    rulings = rulings_read(path)

    assert [r.number for r in rulings] == [1, 2]
    first, second = rulings
    assert first.title == "Gate Keeper and walls"
    assert first.text == "Gate Keeper and walls. The Gate Keeper holds the gate. Decision: it may."
    assert "tests/" not in first.text and "Pinned" not in second.text
    assert "paragraph after" not in second.text
    assert first.date is None and second.date == dt.date(2026, 11, 26)


def test_a_ruling_concerns_the_cards_it_names_and_the_types_its_title_names(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.md"
    path.write_text(DOC, encoding="utf-8")
    rulings = rulings_read(path)

    def numbers(name: str, type_name: str) -> list[int]:
        found = rulings_for_card(
            rulings,
            name=name,
            type_name=type_name,
            subtype_names=[],
            card_names=["Gate Keeper", "Keeper", "Stone"],
        )
        return [r.number for r in found]

    assert numbers("Gate Keeper", "Unit") == [1]
    assert numbers("Keeper", "Unit") == []  # part of another name is not a mention
    assert numbers("Stone", "Wall") == [1, 2]  # "walls" in both titles
    assert numbers("Stone", "") == []


def test_shipped_rulings_load_for_every_game() -> None:
    for game in Game.objects.all():
        assert Ruling.objects.filter(card__game=game).exists(), game.slug


def test_a_card_named_in_a_ruling_carries_it_with_its_source_and_date() -> None:
    card = Card.objects.get(game__slug="revolt-n-reign", name="Militia Bill")

    sources = {ruling.source: ruling for ruling in card.rulings.all()}

    named = sources["docs/rules/revolt-n-reign.md, ruling 37"]
    assert named.text.startswith("Damage printed against an opponent's Defense.")
    assert "Pinned by" not in named.text
    assert named.published_on == dt.date(2026, 11, 26)


def test_a_single_type_game_does_not_put_type_wide_rulings_on_every_tile() -> None:
    tiles = Card.objects.filter(game__slug="regality-vs-religion")
    counts = [tile.rulings.count() for tile in tiles]
    assert 0 in counts and max(counts) > 0


def test_rulings_show_on_the_card_page(client) -> None:
    card = Card.objects.get(game__slug="regality-vs-religion", name="Witch")
    ruling = card.rulings.get(source="docs/rules/regality-vs-religion.md, ruling 10")

    page = client.get(card.get_absolute_url()).content.decode()

    assert "Rulings" in page
    assert "Recalling." in page
    assert ruling.published_on.isoformat() in page


def test_a_game_without_a_rulings_document_loads_only_its_file_rulings(tmp_path: Path) -> None:
    report = game_data_load(
        slug="rival-realms", fixtures_dir=Path(django_settings.FIXTURES_DIR), rulings_dir=tmp_path
    )
    assert not Ruling.objects.filter(card__game__slug="rival-realms").exists()
    assert report.count("rulings").updated > 0  # the document's rulings went with it


_words = st.text(alphabet="abcdefghij KLMNOP", min_size=1, max_size=30).map(str.strip).filter(bool)


@given(
    items=st.lists(st.tuples(_words, _words, _words), min_size=1, max_size=6),
    pinned=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_any_list_of_rulings_reads_back_in_order_without_its_test_notes(
    tmp_path_factory: pytest.TempPathFactory, items: list[tuple[str, str, str]], pinned: bool
) -> None:
    lines = ["# Game", "", "## Rulings", ""]
    for number, (title, first, second) in enumerate(items, start=1):
        note = f" Pinned by `tests/t.py::test_{number}`." if pinned else ""
        lines += [f"{number}. **{title}.** {first}", f"   {second}.{note}", ""]
    lines += ["## Measured", "", "99. **Elsewhere.** not a ruling"]
    path = tmp_path_factory.mktemp("doc") / "game.md"
    path.write_text("\n".join(lines), encoding="utf-8")

    rulings = rulings_read(path)

    assert [r.number for r in rulings] == list(range(1, len(items) + 1))
    for ruling, (title, first, second) in zip(rulings, items, strict=True):
        assert ruling.title == " ".join(title.split())  # whitespace runs read as one space
        assert first.split()[0] in ruling.text and second.split()[-1] in ruling.text
        assert "Pinned" not in ruling.text and "tests/" not in ruling.text
        assert "Elsewhere" not in ruling.text
