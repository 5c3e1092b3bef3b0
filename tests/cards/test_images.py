"""Card images: every face of every game fits its boxes, sizes are fixed, files follow the data."""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from PIL import Image, ImageChops

from cards.gamedata import available_games
from cards.images import (
    RenderedFace,
    ensure_card_images,
    face_for_card,
    image_digest,
    render_face,
)
from cards.images.layout import Box, Layout
from cards.images.links import card_image_url
from cards.images.paint import Painter
from cards.images.render import VARIANTS, output_size
from cards.images.styles import registered_games, style_for
from cards.images.styles.base import CardStyle
from cards.images.styles.regality_vs_religion import CHOICE_DOT, EMPTY_CELL, GROUP_DOTS
from cards.images.text import ELLIPSIS, fit_text, printable
from cards.models import Card

pytestmark = pytest.mark.django_db

GAMES = available_games(Path(settings.FIXTURES_DIR))
CARD_SIZES = {"full": (630, 880), "thumb": (252, 352)}
TILE_SIZES = {"full": (630, 630), "thumb": (252, 252)}


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    """Each test writes its images to a fresh folder, never to the developer's media."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _card(game: str, name: str) -> Card:
    return Card.objects.with_related().get(game__slug=game, name=name)


def _sizes(game: str) -> dict[str, tuple[int, int]]:
    return TILE_SIZES if game == "regality-vs-religion" else CARD_SIZES


# -- every card of every game ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_card_renders_at_its_fixed_size_with_all_text_inside_its_box(game: str) -> None:
    cards = list(Card.objects.for_game(game).with_related())
    assert cards, f"{game} has no cards to render"
    problems = []
    for card in cards:
        rendered = render_face(face_for_card(card))
        layout = rendered.layout
        if rendered.image.size != _sizes(game)["full"]:
            problems.append(f"{card.name}: image is {rendered.image.size}")
        canvas = Box(0, 0, *rendered.image.size)
        for placed in layout.texts:
            if not canvas.contains(placed.region):
                problems.append(f"{card.name}: {placed.role} box {placed.region} is off the card")
            if placed.overflows:
                problems.append(
                    f"{card.name}: {placed.role} ink {placed.ink} leaves its box {placed.region}"
                )
            if placed.text.strip() and placed.ink is None:
                problems.append(f"{card.name}: {placed.role} drew nothing")
        assert layout.text("name").text == card.name
        if card.rules_text.strip():
            assert layout.text("rules").text == card.rules_text
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_own_face_style(game: str) -> None:
    assert game in registered_games()
    assert style_for(game).game_slug == game


def test_a_game_without_a_style_still_gets_a_complete_card_face(card_factory) -> None:
    # given a sixth game that ships no style of its own
    card = card_factory(name="Harbour Levy", rules_text="Gain 2 coins.", cost=2)

    # when its card is drawn
    rendered = render_face(face_for_card(card))

    # then the plain style draws every part of the face
    assert type(style_for(card.game.slug)) is CardStyle
    assert rendered.image.size == CARD_SIZES["full"]
    assert {"name", "cost-value", "type", "rules", "set"} <= set(rendered.layout.roles())
    assert not rendered.layout.overflowing


def test_printed_numbers_carry_the_games_own_labels() -> None:
    layout = render_face(face_for_card(_card("revolt-n-reign", "Stamp Act"))).layout
    assert layout.text("defense-label").text == "Defense points"
    assert layout.text("drain-label").text == "LP drain"
    assert layout.text("defense-value").text == "20"


# -- text fitting ------------------------------------------------------------------------------


def test_long_text_shrinks_step_by_step_before_any_ellipsis() -> None:
    text = "Deal 30 attack damage to an opponent's Defense, or to a UA if they control none."
    roomy = fit_text(text, 500, 400, max_size=26, min_size=12)
    tight = fit_text(text, 500, 48, max_size=26, min_size=12)
    assert roomy.size == 26 and not roomy.shrunk
    assert 12 <= tight.size < 26 and tight.shrunk and not tight.ellipsized
    assert " ".join(tight.lines) == text
    assert tight.block_height() <= 48
    # It is the largest size that fits: one pixel more and the text would have to be cut.
    assert fit_text(text, 500, 48, max_size=tight.size + 1, min_size=tight.size + 1).ellipsized


def test_text_that_cannot_fit_at_the_smallest_size_ends_in_an_ellipsis() -> None:
    fitted = fit_text("word " * 400, 300, 60, max_size=26, min_size=12)
    assert fitted.size == 12
    assert fitted.ellipsized
    assert fitted.lines[-1].endswith(ELLIPSIS)
    assert fitted.block_height() <= 60


def test_an_overlong_rules_text_is_cut_inside_its_box_and_reported(card_factory) -> None:
    card = card_factory(rules_text="Draw a card, then discard a card. " * 60)
    layout = render_face(face_for_card(card)).layout
    rules = layout.text("rules")
    assert [placed.role for placed in layout.ellipsized] == ["rules"]
    assert rules.fitted.lines[-1].endswith(ELLIPSIS)
    assert not rules.overflows


def test_the_recorded_ink_box_is_where_the_text_pixels_really_are() -> None:
    blank = Image.new("RGB", (420, 160), (255, 255, 255))
    image = blank.copy()
    region = Box(10, 10, 410, 150)
    placed = Painter(image, Layout(420, 160)).text(
        "probe",
        "Wyjq, Stamp Act of 1765",
        region,
        fill=(0, 0, 0),
        max_size=60,
        min_size=12,
        stroke=1,
    )
    ink = ImageChops.difference(image, blank).getbbox()
    assert ink is not None  # something was drawn
    drawn = Box(*ink)
    assert placed.ink is not None and placed.ink.contains(drawn)
    assert region.contains(drawn)
    # The record is tight, not a generous guess: within two pixels of the real ink on every side.
    assert (
        max(
            drawn.x0 - placed.ink.x0,
            drawn.y0 - placed.ink.y0,
            placed.ink.x1 - drawn.x1,
            placed.ink.y1 - drawn.y1,
        )
        <= 2
    )


def test_characters_the_bundled_font_lacks_are_replaced_not_drawn_as_boxes() -> None:
    assert printable("Café — déjà vu") == "Cafe - deja vu"
    kept = "It\u2019s \u201cquoted\u201d\u2026"  # curly quotes and the ellipsis are in the font
    assert printable(kept) == kept


# -- tiles ---------------------------------------------------------------------------------------


def _pixel(image: Image.Image, point: tuple[int, int]) -> tuple[int, int, int]:
    pixel = image.getpixel(point)
    assert isinstance(pixel, tuple)  # an RGB(A) image
    return (pixel[0], pixel[1], pixel[2])


def test_orthogonal_and_diagonal_tiles_put_their_dots_on_different_cells() -> None:
    general = render_face(face_for_card(_card("regality-vs-religion", "General")))
    wizard = render_face(face_for_card(_card("regality-vs-religion", "Wizard")))
    for direction in ("N", "E", "S", "W"):
        assert _pixel(general.image, general.layout.points[f"cell-{direction}"]) == CHOICE_DOT
        assert _pixel(wizard.image, wizard.layout.points[f"cell-{direction}"]) == EMPTY_CELL
    for direction in ("NE", "SE", "SW", "NW"):
        assert _pixel(general.image, general.layout.points[f"cell-{direction}"]) == EMPTY_CELL
        assert _pixel(wizard.image, wizard.layout.points[f"cell-{direction}"]) == CHOICE_DOT
    assert general.layout.text("legend").text == "Destroy: choose 1 of 4"
    # The cells sit where a player reads them: N straight above the tile, E to its right ...
    cx, cy = general.layout.points["cell-C"]
    offsets = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "W": (-1, 0)}
    for direction, (dx, dy) in offsets.items():
        x, y = general.layout.points[f"cell-{direction}"]
        assert ((x > cx) - (x < cx), (y > cy) - (y < cy)) == (dx, dy), direction


def test_a_tile_hitting_all_of_one_group_colours_each_group_apart() -> None:
    princess = render_face(face_for_card(_card("regality-vs-religion", "Princess")))
    orthogonal = _pixel(princess.image, princess.layout.points["cell-N"])
    diagonal = _pixel(princess.image, princess.layout.points["cell-NE"])
    assert {orthogonal, diagonal} == {GROUP_DOTS[0], GROUP_DOTS[1]}
    assert _pixel(princess.image, princess.layout.points["cell-S"]) == orthogonal
    assert _pixel(princess.image, princess.layout.points["cell-SW"]) == diagonal


def test_line_powers_draw_arrows_and_shields_sit_where_the_data_says() -> None:
    queen = render_face(face_for_card(_card("regality-vs-religion", "Queen")))
    king = render_face(face_for_card(_card("regality-vs-religion", "King")))
    castle = render_face(face_for_card(_card("regality-vs-religion", "Castle")))
    sage = render_face(face_for_card(_card("regality-vs-religion", "Sage")))
    # Both mark all eight neighbours, but the Queen's reach runs to the edge: arrows, not dots.
    assert set(queen.layout.points) >= {f"mark-{d}" for d in ("N", "NE", "E", "SE")}
    assert "pattern-lines" in queen.layout.points and "pattern-lines" not in king.layout.points
    assert (
        queen.image.crop(_cell(queen, "N")).tobytes() != king.image.crop(_cell(king, "N")).tobytes()
    )
    assert "mark-C" in castle.layout.points
    assert {k for k in sage.layout.points if k.startswith("mark-")} == {"mark-E", "mark-W"}


def _cell(rendered: RenderedFace, direction: str) -> tuple[int, int, int, int]:
    x, y = rendered.layout.points[f"cell-{direction}"]
    return (x - 40, y - 40, x + 40, y + 40)


# -- files, digests, re-rendering ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "name"), [("revolt-n-reign", "Stamp Act"), ("regality-vs-religion", "Dragon")]
)
def test_stored_files_are_pngs_of_the_fixed_sizes(game: str, name: str) -> None:
    paths, rendered = ensure_card_images(face_for_card(_card(game, name)))
    assert rendered is not None
    for variant, size in _sizes(game).items():
        with Image.open(paths[variant]) as image:
            assert image.format == "PNG"
            assert image.size == size


def test_changing_the_rules_text_gives_a_new_digest_a_new_file_and_new_pixels() -> None:
    # given the Stamp Act's images on disk
    card = _card("revolt-n-reign", "Stamp Act")
    old_digest = image_digest(face_for_card(card))
    old_paths, _ = ensure_card_images(face_for_card(card))
    with Image.open(old_paths["full"]) as stored:
        before = stored.convert("RGBA")

    # when its rules text changes
    card.rules_text = "Each of your turns, the opponent loses 2 LP."
    card.save()
    new_face = face_for_card(_card("revolt-n-reign", "Stamp Act"))
    new_paths, rendered = ensure_card_images(new_face)

    # then it is drawn again under a new name, the old files go, and only the text box changed
    assert rendered is not None
    assert image_digest(new_face) != old_digest
    assert new_paths["full"].is_file() and new_paths["full"] != old_paths["full"]
    assert not old_paths["full"].exists() and not old_paths["thumb"].exists()
    with Image.open(new_paths["full"]) as stored:
        difference = ImageChops.difference(stored.convert("RGBA"), before).convert("L")
    # Files use a per-image 256-colour palette, so shades elsewhere may move a little; text
    # appearing or vanishing changes pixels by far more.
    changed = difference.point(lambda value: 255 if value > 60 else 0).getbbox()
    assert changed is not None
    assert rendered.layout.text("rules").region.contains(Box(*changed))


def test_unchanged_cards_are_not_drawn_twice() -> None:
    face = face_for_card(_card("reign-absolute", "Empire Sovereign"))
    _, first = ensure_card_images(face)
    _, second = ensure_card_images(face)
    _, forced = ensure_card_images(face, force=True)
    assert first is not None and second is None and forced is not None


# -- the view -----------------------------------------------------------------------------------


def test_the_versioned_image_is_a_png_cached_for_a_year(client) -> None:
    face = face_for_card(_card("rival-realms", "Berserker"))
    response = client.get(card_image_url(face))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["ETag"] == f'"{image_digest(face)}-full"'
    with Image.open(io.BytesIO(b"".join(response.streaming_content))) as image:
        assert image.size == CARD_SIZES["full"]


def test_under_asgi_the_image_is_served_whole_without_a_streaming_warning(async_client) -> None:
    # `make run` serves through ASGI: a streamed file there made Django warn at every image
    face = face_for_card(_card("rival-realms", "Berserker"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning, the streaming one included, fails
        response = async_to_sync(async_client.get)(card_image_url(face))
    assert response.status_code == 200 and not response.streaming
    assert response["ETag"] == f'"{image_digest(face)}-full"'
    with Image.open(io.BytesIO(response.content)) as image:
        assert image.size == CARD_SIZES["full"]


def test_the_thumbnail_url_serves_the_small_image(client) -> None:
    face = face_for_card(_card("regality-vs-religion", "Sage"))
    response = client.get(card_image_url(face, "thumb"))
    assert response.status_code == 200
    with Image.open(io.BytesIO(b"".join(response.streaming_content))) as image:
        assert image.size == TILE_SIZES["thumb"]


def test_a_cached_image_costs_two_queries(client, django_assert_num_queries) -> None:
    url = card_image_url(face_for_card(_card("reggae-revolution", "Ember Lullaby")))
    client.get(url)
    with django_assert_num_queries(2):  # the card with its vocabulary, then its subtypes
        assert client.get(url).status_code == 200


def test_without_a_writable_cache_the_image_is_still_served(client, settings, tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the media folder should be")
    settings.MEDIA_ROOT = blocker / "media"
    response = client.get(card_image_url(face_for_card(_card("rival-realms", "Berserker"))))
    assert response.status_code == 200
    with Image.open(io.BytesIO(response.content)) as image:
        assert image.size == CARD_SIZES["full"]


def test_a_matching_etag_gets_304_without_a_body(client) -> None:
    url = card_image_url(face_for_card(_card("rival-realms", "Berserker")))
    etag = client.get(url)["ETag"]
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert "immutable" in again["Cache-Control"]
    assert again.content == b""


def test_an_outdated_digest_redirects_to_the_current_image(client) -> None:
    card = _card("rival-realms", "Berserker")
    old_url = card_image_url(face_for_card(card))
    card.rules_text = "Soldier. Attacks twice."
    card.save()
    response = client.get(old_url)
    assert response.status_code == 302
    assert response["Location"] == card_image_url(face_for_card(_card("rival-realms", "Berserker")))
    assert response["Location"] != old_url


def test_the_unversioned_url_always_shows_the_current_face_and_revalidates(client) -> None:
    response = client.get(
        reverse("card-image-latest", kwargs={"game": "rival-realms", "slug": "berserker"})
    )
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=0, must-revalidate"


@pytest.mark.parametrize(
    "url",
    [
        "/cards/rival-realms/no-such-card.png",
        "/cards/no-such-game/berserker.png",
        "/cards/revolt-n-reign/berserker.0123456789abcdef.png",
    ],
)
def test_unknown_cards_are_404(client, url: str) -> None:
    assert client.get(url).status_code == 404


def test_images_cannot_be_posted_to(client) -> None:
    url = card_image_url(face_for_card(_card("rival-realms", "Berserker")))
    assert client.post(url).status_code == 405


def test_the_card_page_shows_the_image_with_alt_text(client) -> None:
    card = _card("revolt-n-reign", "Stamp Act")
    html = client.get(card.get_absolute_url()).content.decode()
    img = re.search(r"<img [^>]*>", html)
    assert img is not None
    tag = img.group(0)
    assert f'src="{card_image_url(face_for_card(card))}"' in tag
    assert 'alt="Card face of Stamp Act (Unconstitutional Act, Revolt N Reign)"' in tag
    assert 'width="315" height="440"' in tag


# -- the command --------------------------------------------------------------------------------


def test_render_cards_draws_a_game_once_and_again_only_when_forced(media_root: Path) -> None:
    out = io.StringIO()
    call_command("render_cards", "--game", "regality-vs-religion", stdout=out)
    tiles = Card.objects.for_game("regality-vs-religion").count()
    assert f"regality-vs-religion: {tiles} drawn, 0 up to date" in out.getvalue()
    assert (
        len(list(media_root.rglob("*.png"))) == len(VARIANTS) * tiles
    )  # full, thumbnail and list icon

    again = io.StringIO()
    call_command("render_cards", "--game", "regality-vs-religion", stdout=again)
    assert f"0 drawn, {tiles} up to date" in again.getvalue()

    forced = io.StringIO()
    call_command("render_cards", "--game", "regality-vs-religion", "--force", stdout=forced)
    assert f"{tiles} drawn, 0 up to date" in forced.getvalue()
    assert (
        len(list(media_root.rglob("*.png"))) == len(VARIANTS) * tiles
    )  # full, thumbnail and list icon


def test_render_cards_rejects_an_unknown_game() -> None:
    with pytest.raises(CommandError, match="unknown game nope"):
        call_command("render_cards", "--game", "nope", stdout=io.StringIO())


def test_render_cards_names_every_card_whose_text_was_cut(card_factory) -> None:
    card = card_factory(name="Endless Decree", rules_text="Pay 1 supply, then draw. " * 80)
    out = io.StringIO()
    call_command("render_cards", "--game", card.game.slug, stdout=out)
    assert "cut with an ellipsis: Endless Decree (rules)" in out.getvalue()


@pytest.mark.parametrize("game", ["revolt-n-reign", "regality-vs-religion"])
def test_the_list_icon_is_a_quarter_of_the_thumbnail_and_far_lighter(client, game: str) -> None:
    """A deck list row shows a card at about 32 CSS pixels: its icon is served at a quarter of the
    thumbnail's size, so a 60-card list does not download 26 thumbnails."""
    card = Card.objects.for_game(game).with_related().order_by("name").first()
    assert card is not None
    face = face_for_card(card)
    thumb = client.get(card_image_url(face, "thumb"))
    icon = client.get(card_image_url(face, "icon"))
    assert icon.status_code == 200 and icon["Content-Type"] == "image/png"
    icon_bytes = b"".join(icon.streaming_content)
    with Image.open(io.BytesIO(icon_bytes)) as image:
        width, height = output_size(game, "thumb")
        assert image.size == output_size(game, "icon") == (width // 4, height // 4)
    assert len(icon_bytes) * 4 < len(b"".join(thumb.streaming_content))
