"""Image links on pages: the remembered digests follow the content, the URLs are the routes'."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from cards.images import face_for_card, image_digest
from cards.images.face import CardFace, _face_digest, face_digest
from cards.images.links import card_image_links, card_image_url
from cards.models import Card

JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(-3, 3), st.text(max_size=3)
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=4,
)
BASE_FACE = CardFace(
    game_slug="revolt-n-reign",
    game_name="Revolt N Reign",
    game_short_name="RnR",
    name="Stamp Act",
    slug="stamp-act",
    type_slug="pillar",
    type_name="Pillar",
)


@hypothesis_settings(max_examples=25, deadline=None)
@given(
    faces=st.lists(
        st.builds(
            lambda rules, stats, effects, rank: replace(
                BASE_FACE,
                rules_text=rules,
                stats=stats,
                effects=effects,
                rarity_rank=rank,
            ),
            st.sampled_from(["", "Draw a card.", "Draw a card"]),
            st.dictionaries(st.sampled_from(["lp", "ip"]), JSON, max_size=2),
            st.lists(JSON, max_size=2),
            st.integers(0, 2),
        ),
        min_size=2,
        max_size=6,
    )
)
def test_a_remembered_digest_is_always_the_one_the_content_gives(faces: list[CardFace]) -> None:
    # faces alike but for small differences (1 against 1.0 against True inside the JSON, one
    # character of text) never share a remembered digest
    for face in faces:
        assert face_digest(face, "style-a") == _face_digest(face, "style-a")
        assert face_digest(face, "style-b") == _face_digest(face, "style-b")


@pytest.mark.django_db
def test_an_edited_card_or_branch_colour_links_to_a_new_image_at_once() -> None:
    # given a card whose links were shown (its digest remembered)
    card = (
        Card.objects.for_game("revolt-n-reign")
        .with_related()
        .filter(branch__isnull=False)
        .order_by("name")
        .first()
    )
    assert card is not None and card.branch is not None
    before = card_image_links(card).url
    # when its stats change, then when its branch's colour does (the card row itself unchanged)
    Card.objects.filter(pk=card.pk).update(stats={**card.stats, "note": 1})
    after_stats = card_image_links(Card.objects.with_related().get(pk=card.pk))
    branch = card.branch
    branch.color = "#123456" if branch.color != "#123456" else "#654321"
    branch.save()
    after_colour = card_image_links(Card.objects.with_related().get(pk=card.pk))
    # then each shows a new image URL, the one the content gives
    assert len({before, after_stats.url, after_colour.url}) == 3
    face = face_for_card(Card.objects.with_related().get(pk=card.pk))
    assert after_colour.url == card_image_url(face, "full", digest=_face_digest_of(face))


def _face_digest_of(face: CardFace) -> str:
    from cards.images.styles import style_for

    return _face_digest(face, style_for(face.game_slug).key)


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["revolt-n-reign", "regality-vs-religion"])
def test_links_are_the_image_routes_urls(game: str) -> None:
    card = Card.objects.for_game(game).with_related().order_by("name").first()
    assert card is not None
    face = face_for_card(card)
    links = card_image_links(card)
    assert links.url == card_image_url(face, "full")
    assert links.thumb_url == card_image_url(face, "thumb")
    assert links.icon_url == card_image_url(face, "icon")
    assert image_digest(face) in links.icon_url
