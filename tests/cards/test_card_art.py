"""Generated card art: cards of one type and branch look different, the same card looks the same,
and the image's file name changes whenever anything the art is drawn from changes."""

from __future__ import annotations

import dataclasses
import random
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from PIL import Image, ImageChops

from cards.gamedata import available_games
from cards.images import face_for_card, image_digest, render_face
from cards.images.art import COMPOSITIONS, art_seed
from cards.images.face import CardFace
from cards.images.render import RenderedFace
from cards.models import Card
from cards.schema import PrintedNumber

pytestmark = pytest.mark.django_db

GAMES = available_games(Path(settings.FIXTURES_DIR))


def _art(rendered: RenderedFace) -> Image.Image:
    box = rendered.layout.boxes["art"]
    return rendered.image.crop(box.as_tuple()).convert("RGB")


def _share_of_pixels_that_differ(a: Image.Image, b: Image.Image) -> float:
    difference = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return sum(difference.histogram()[255:]) / (a.width * a.height)


def _two_cards_of_one_type_and_branch(game: str) -> tuple[Card, Card]:
    # Ordered by slugs and names, never by primary keys, so every database picks the same pair.
    def key(card: Card) -> tuple[str, str]:
        return (card.card_type.slug, card.branch.slug if card.branch else "")

    cards = sorted(Card.objects.for_game(game).with_related(), key=lambda c: (*key(c), c.name))
    for _, group in groupby(cards, key=key):
        members = list(group)
        if len(members) >= 2:
            return members[0], members[1]
    raise AssertionError(f"{game} has no two cards of one type and branch")


@pytest.mark.parametrize("game", GAMES)
def test_two_cards_of_the_same_type_and_branch_have_different_art(game: str) -> None:
    first, second = _two_cards_of_one_type_and_branch(game)

    art_a = _art(render_face(face_for_card(first)))
    art_b = _art(render_face(face_for_card(second)))

    assert art_a.size == art_b.size
    # Not a few pixels of a shifted mark: a large part of the picture differs.
    assert _share_of_pixels_that_differ(art_a, art_b) > 0.1, (first.name, second.name)


def test_the_same_card_is_drawn_identically_whatever_the_global_random_state() -> None:
    card = Card.objects.with_related().get(game__slug="revolt-n-reign", name="Stamp Act")
    random.seed(1)
    first = render_face(face_for_card(card))
    random.random()
    random.seed(99)
    second = render_face(face_for_card(card))

    assert first.digest == second.digest
    assert first.image.tobytes() == second.image.tobytes()


def test_a_game_uses_every_composition() -> None:
    # given every Revolt N Reign card
    faces = [face_for_card(c) for c in Card.objects.for_game("revolt-n-reign").with_related()]

    # when each is drawn
    drawn = set()
    for face in faces[:40]:
        points = render_face(face).layout.points
        drawn |= {name.removeprefix("art-") for name in points if name.startswith("art-")}

    # then the art is not one picture with other colours: each composition appears
    assert drawn == set(COMPOSITIONS)


def _face() -> CardFace:
    card = Card.objects.with_related().get(game__slug="revolt-n-reign", name="Stamp Act")
    return face_for_card(card)


@pytest.mark.parametrize(
    "change",
    [
        {"name": "Stamp Act II"},
        {"type_slug": "attack", "type_name": "Attack"},
        {"subtypes": ("Petition",)},
        {"branch_slug": "eagle", "branch_name": "Eagle", "branch_color": "#1f4e99"},
        {"rarity_slug": "rare", "rarity_name": "Rare", "rarity_rank": 2},
        {"numbers": (PrintedNumber("defense", "defense_points", "Defense points", 35),)},
    ],
    ids=lambda change: "+".join(change),
)
def test_a_change_to_any_field_the_art_is_drawn_from_changes_the_seed_and_the_file_name(
    change: dict[str, Any],
) -> None:
    face = _face()
    changed = dataclasses.replace(face, **change)

    assert art_seed(changed) != art_seed(face)
    assert image_digest(changed) != image_digest(face)


def test_a_changed_number_alone_redraws_the_art() -> None:
    face = _face()
    numbers = tuple(
        dataclasses.replace(n, value=n.value + 5) if n.column == "defense" else n
        for n in face.numbers
    )
    changed = dataclasses.replace(face, numbers=numbers)

    assert _share_of_pixels_that_differ(_art(render_face(face)), _art(render_face(changed))) > 0.2
