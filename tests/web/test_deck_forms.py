"""The new-deck and deck-settings forms: the game format and variant follow the chosen game."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards.models import Game
from decks.models import Deck, Format
from decks.selectors import format_default
from decks.validation import rules_for
from tests.web.conftest import RNR, make_deck

pytestmark = pytest.mark.django_db

RVR = "regality-vs-religion"


def select_options(html: str, name: str) -> list[tuple[str, str, bool]]:
    """``(value, label, selected)`` of every option of the select called ``name``."""
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert found, f"no select {name}"
    return [
        (value, label.strip(), bool(selected))
        for value, selected, label in re.findall(
            r'<option value="([^"]*)"( selected)?>([^<]*)</option>', found.group(1)
        )
    ]


def format_ids(game_slug: str) -> set[str]:
    return {
        str(pk) for pk in Format.objects.filter(game__slug=game_slug).values_list("pk", flat=True)
    }


@pytest.mark.parametrize("slug", [RNR, "rival-realms", RVR, "reggae-revolution", "reign-absolute"])
def test_new_deck_form_offers_only_the_chosen_games_formats(alice, slug):
    # when
    response = alice.get(reverse("deck-new"), {"game": slug})
    # then
    options = select_options(response.content.decode(), "format")
    offered = {value for value, _, _ in options if value}
    assert offered == format_ids(slug)
    other = Format.objects.exclude(game__slug=slug)
    assert not offered & {str(pk) for pk in other.values_list("pk", flat=True)}


def test_new_deck_form_preselects_the_games_default_format(alice):
    for game in Game.objects.all():
        default = format_default(game)
        if default is None:
            continue
        options = select_options(
            alice.get(reverse("deck-new"), {"game": game.slug}).content.decode(), "format"
        )
        assert [value for value, _, selected in options if selected] == [str(default.pk)]


def test_the_two_format_fields_have_distinct_labels(alice):
    body = alice.get(reverse("deck-new")).content.decode()
    labels = re.findall(r'<label for="id_[a-z_]+">([^<]+)</label>', body)
    assert "Game format" in labels
    assert "File format" in labels
    assert "Format" not in labels


def test_htmx_game_change_answers_the_games_formats_and_variants_alone(alice):
    # when: the game select changes to Regality vs Religion (htmx asks for the fields)
    response = alice.get(reverse("deck-new"), {"game": RVR}, HTTP_HX_REQUEST="true")
    # then
    body = response.content.decode()
    assert 'id="game-fields"' in body
    assert "<h1>" not in body
    assert {v for v, _, _ in select_options(body, "format") if v} == format_ids(RVR)
    variants = select_options(body, "variant")
    assert [v for v, _, _ in variants] == list(rules_for(RVR).variants)
    assert [v for v, _, selected in variants if selected] == [rules_for(RVR).default_variant]


def test_a_game_without_variants_offers_no_variant_select(alice):
    body = alice.get(reverse("deck-new"), {"game": RNR}).content.decode()
    assert '<select name="variant"' not in body


def test_a_format_of_another_game_is_refused_with_a_message_and_nothing_stored(alice):
    foreign = format_default("rival-realms")
    # when
    response = alice.post(
        reverse("deck-new"),
        {"name": "Mixed", "game": RNR, "format": foreign.pk, "visibility": "private"},
    )
    # then
    assert response.status_code == 400
    body = response.content.decode()
    assert f"{foreign.name} is a format of Rival Realms, not of Revolt N Reign" in body
    assert not Deck.objects.filter(name="Mixed").exists()
    # and the form offers the chosen game's formats again, its default selected
    options = select_options(body, "format")
    assert {v for v, _, _ in options if v} == format_ids(RNR)
    assert [v for v, _, selected in options if selected] == [str(format_default(RNR).pk)]


@pytest.mark.parametrize("posted", ["999999", "standard", "-1"])
def test_an_unknown_format_is_refused_with_a_message(alice, posted):
    response = alice.post(
        reverse("deck-new"),
        {"name": "Odd", "game": RNR, "format": posted, "visibility": "private"},
    )
    assert response.status_code == 400
    assert "Choose a format of Revolt N Reign" in response.content.decode()
    assert not Deck.objects.filter(name="Odd").exists()


def test_a_variant_of_no_such_kind_is_refused_and_nothing_stored(alice):
    response = alice.post(
        reverse("deck-new"),
        {"name": "Var", "game": RNR, "variant": "draft", "visibility": "private"},
    )
    assert response.status_code == 400
    assert "Revolt N Reign has no variant &#x27;draft&#x27;" in response.content.decode()
    assert not Deck.objects.filter(name="Var").exists()


def test_a_deck_created_with_the_preselected_values_gets_the_default_format(alice, user):
    # given: the form as it opens for Regality vs Religion
    body = alice.get(reverse("deck-new"), {"game": RVR}).content.decode()
    fmt = next(v for v, _, selected in select_options(body, "format") if selected)
    variant = next(v for v, _, selected in select_options(body, "variant") if selected)
    # when
    response = alice.post(
        reverse("deck-new"),
        {"name": "Tiles", "game": RVR, "format": fmt, "variant": variant, "visibility": "private"},
    )
    # then
    assert response.status_code == 302
    deck = Deck.objects.get(owner=user, name="Tiles")
    assert deck.format == format_default(RVR)
    assert deck.variant == rules_for(RVR).default_variant


def test_settings_offer_only_the_decks_games_formats(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    assert {v for v, _, _ in select_options(body, "format") if v} == format_ids(RNR)
    assert '<label for="id_format">Game format</label>' in body


def test_settings_refuse_a_format_of_another_game(alice, legal_deck):
    foreign = format_default("rival-realms")
    response = alice.post(
        reverse("deck-settings", args=[legal_deck.pk]),
        {
            "name": legal_deck.name,
            "format": foreign.pk,
            "visibility": legal_deck.visibility,
            "version": legal_deck.version,
        },
    )
    assert response.status_code == 400
    assert "is a format of Rival Realms, not of Revolt N Reign" in response.content.decode()
    legal_deck.refresh_from_db()
    assert legal_deck.format == format_default(RNR)


def test_settings_change_the_variant_of_a_game_with_variants(alice, user):
    deck = make_deck(user, game=RVR, sample_name="legal-religion-draft")
    assert deck.variant == "draft"  # the decklist's own "# variant: draft"
    body = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert [v for v, _, _ in select_options(body, "variant")] == list(rules_for(RVR).variants)
    # when
    response = alice.post(
        reverse("deck-settings", args=[deck.pk]),
        {
            "name": deck.name,
            "format": deck.format_id,
            "variant": "old-style",
            "visibility": deck.visibility,
            "version": deck.version,
        },
    )
    # then
    assert response.status_code == 302
    deck.refresh_from_db()
    assert deck.variant == "old-style"
    assert "variant:" in deck.versions.order_by("-number").first().note


def test_settings_refuse_a_variant_the_game_lacks(alice, user):
    deck = make_deck(user, game=RVR, sample_name="legal-regality-standard")
    before = deck.variant
    response = alice.post(
        reverse("deck-settings", args=[deck.pk]),
        {
            "name": deck.name,
            "format": deck.format_id,
            "variant": "sealed",
            "visibility": deck.visibility,
            "version": deck.version,
        },
    )
    assert response.status_code == 400
    assert "has no variant &#x27;sealed&#x27;" in response.content.decode()
    deck.refresh_from_db()
    assert deck.variant == before


def test_settings_of_a_game_without_variants_offer_none(alice, legal_deck):
    body = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    assert 'name="variant"' not in body


@pytest.mark.parametrize("asked", ["RvR", "rvr", "Regality vs Religion: Revolution"])
def test_new_deck_form_takes_the_games_short_name_or_name(alice, asked):
    """``?game=`` names the game as the API and ``g:`` do: the short name or the name opens the
    form on that game, with its formats and variants, as its slug does."""
    body = alice.get(reverse("deck-new"), {"game": asked}).content.decode()
    assert [value for value, _, selected in select_options(body, "game") if selected] == [RVR]
    assert {value for value, _, _ in select_options(body, "format") if value} == format_ids(RVR)
    assert [v for v, _, _ in select_options(body, "variant")] == list(rules_for(RVR).variants)
