"""Every game's shipped data: loaded, counted on the home page, exportable, idempotent."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from cards.gamedata import available_games
from cards.models import Card, Game
from cards.search import card_search
from cards.services import game_data_load
from cards.vocabulary import game_matches, game_named
from rules.engines.core import plugins

pytestmark = pytest.mark.django_db

#: every registered game, by the name its engine gives it (the registry, not a list of slugs)
GAMES = {plugin.slug: plugin.name for plugin in plugins()}


def test_every_registered_game_ships_data() -> None:
    assert set(available_games(Path(settings.FIXTURES_DIR))) == set(GAMES)
    assert dict(Game.objects.values_list("slug", "name")) == GAMES


def test_every_game_has_its_own_short_name_for_queries_to_name_it() -> None:
    """``g:RR`` once found both Rival Realms and Reggae Revolution: a short name is one game's."""
    shorts = [game.short_name.lower() for game in Game.objects.all()]
    assert len(shorts) == len(GAMES) and all(shorts)
    assert len(set(shorts)) == len(shorts), shorts
    rr = card_search("g:RR")
    assert rr.exists() and set(rr.values_list("game__slug", flat=True)) == {"rival-realms"}
    reggae = card_search("g:RgR")
    assert set(reggae.values_list("game__slug", flat=True)) == {"reggae-revolution"}


@given(
    case=st.lists(st.booleans(), min_size=40, max_size=40),
    which=st.sampled_from(["slug", "short_name", "name"]),
)
@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_a_game_is_named_alike_by_the_api_and_the_query_language(case, which) -> None:
    """Each game's slug, short name or name, in any mix of case, names that game and no other,
    for ``?game=`` (``game_named``) and for ``g:`` (``game_matches``) alike."""
    for game in Game.objects.all():
        text = getattr(game, which)
        value = "".join(
            c.upper() if up else c.lower()
            for c, up in zip(text, case + [False] * len(text), strict=False)
        )
        assert game_named(value) == game, value
        assert [other.slug for other in Game.objects.all() if game_matches(other, value)] == [
            game.slug
        ]
    assert game_named("") is None and game_named("chess") is None


def test_reloading_the_shipped_data_changes_nothing() -> None:
    for slug in GAMES:
        report = game_data_load(slug=slug, fixtures_dir=Path(settings.FIXTURES_DIR))
        assert not report.changed, report.summary()
        assert not report.stale_cards


def test_home_page_lists_every_game_with_its_card_count(client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    for game in Game.objects.all():
        count = Card.objects.filter(game=game).count()
        assert count > 0
        assert game.name in html
        assert f'data-testid="card-count-{game.slug}">{count}<' in html


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_game_page_and_a_card_page_render(client, slug: str) -> None:
    game = Game.objects.get(slug=slug)
    card = Card.objects.filter(game=game).order_by("name").first()
    assert card is not None
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert card.name in page.content.decode()
    detail = client.get(card.get_absolute_url())
    assert detail.status_code == 200
    assert card.card_type.name in detail.content.decode()


def test_unknown_game_page_is_404(client) -> None:
    assert client.get("/games/no-such-game/").status_code == 404


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_export_cards_matches_the_database(slug: str) -> None:
    out = io.StringIO()
    call_command("export_cards", game=slug, stdout=out)
    exported = json.loads(out.getvalue())
    assert len(exported) == Card.objects.filter(game__slug=slug).count()
    names = [card["name"] for card in exported]
    assert names == sorted(names)
    required = {"name", "type", "subtypes", "branch", "rarity", "cost", "stats", "effects"}
    assert all(required <= set(card) for card in exported)
    assert "rules_text" in exported[0]


def test_export_cards_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "rnr.json"
    err = io.StringIO()
    call_command("export_cards", game="revolt-n-reign", output=str(target), stderr=err)
    count = len(json.loads(target.read_text()))
    assert f"{count} cards written" in err.getvalue()


def test_export_of_an_unknown_game_names_the_known_ones() -> None:
    from django.core.management import CommandError

    with pytest.raises(CommandError, match=r"unknown game 'chess'.*revolt-n-reign"):
        call_command("export_cards", game="chess")
