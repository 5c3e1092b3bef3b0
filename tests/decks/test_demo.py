"""The demo set a fresh install loads (``manage.py load_demo``, run by ``make run``): sample decks
of every game under a demo user nobody can log in as, an example event, idempotent, optional."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from cards.models import Game
from decks.demo import DEMO_USERNAME, EVENT_NAME, demo_deck_list, demo_load
from decks.models import Deck, DeckCard, Event, Visibility
from decks.selectors import deck_validate, format_default
from decks.services import deck_card_set
from tests.decks.conftest import SAMPLES_DIR

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_the_demo_has_valid_public_decks_of_every_game_owned_by_a_user_who_cannot_log_in(
    client, django_user_model
) -> None:
    _load()

    user = django_user_model.objects.get(username=DEMO_USERNAME)
    decks = list(Deck.objects.filter(owner=user).select_related("game", "format"))
    assert {deck.game.slug for deck in decks} == set(Game.objects.values_list("slug", flat=True))
    assert len(decks) == len(list(SAMPLES_DIR.glob("*/legal-*.txt")))
    for deck in decks:
        assert deck.visibility == Visibility.PUBLIC
        assert deck.format == format_default(deck.game), deck.name
        report = deck_validate(deck)
        assert report.legal, (deck.name, report.to_dict())
        assert deck.cards.exists()
    assert not user.has_usable_password()
    for password in ("", "demo", DEMO_USERNAME, "password"):
        assert not client.login(username=DEMO_USERNAME, password=password)


def test_loading_twice_creates_nothing_and_keeps_changes_made_to_a_demo_deck() -> None:
    _load()
    deck = Deck.objects.get(owner__username=DEMO_USERNAME, name="Bison Pressure")
    line = deck.cards.select_related("card").first()
    assert line is not None
    deck_card_set(deck=deck, card=line.card, quantity=0)
    deck.refresh_from_db()
    changed_version = deck.version
    counts = (Deck.objects.count(), DeckCard.objects.count(), Event.objects.count())

    second = demo_load(samples_dir=SAMPLES_DIR)

    assert second.created == 0 and not second.decks_created
    assert (Deck.objects.count(), DeckCard.objects.count(), Event.objects.count()) == counts
    deck.refresh_from_db()
    assert deck.version == changed_version
    assert not deck.cards.filter(card=line.card).exists()


def test_refresh_gives_an_existing_demo_deck_its_shipped_list_as_a_new_version() -> None:
    """A sample list changed since an install loaded it (or a demo deck changed by hand) reaches
    the demo deck only when asked, as one new version: the old cards stay in its history."""
    _load()
    deck = Deck.objects.get(owner__username=DEMO_USERNAME, name="Bison Pressure")
    shipped = sorted(deck.cards.values_list("card__name", "zone", "quantity"))
    line = deck.cards.select_related("card").first()
    assert line is not None
    deck_card_set(deck=deck, card=line.card, quantity=0)
    deck.refresh_from_db()
    changed_version = deck.version
    others = {d.pk: d.version for d in Deck.objects.exclude(pk=deck.pk)}

    out = io.StringIO()
    call_command("load_demo", "--refresh", stdout=out)

    deck.refresh_from_db()
    assert sorted(deck.cards.values_list("card__name", "zone", "quantity")) == shipped
    assert deck.version == changed_version + 1
    assert deck.versions.filter(number=changed_version).exists()  # the changed list is kept
    assert {d.pk: d.version for d in Deck.objects.exclude(pk=deck.pk)} == others
    assert "1 refreshed (Bison Pressure)" in out.getvalue()
    assert "0 created" in out.getvalue()

    again = demo_load(samples_dir=SAMPLES_DIR, refresh=True)
    assert again.decks_refreshed == [] and again.created == 0
    deck.refresh_from_db()
    assert deck.version == changed_version + 1


def test_refresh_never_touches_a_deck_with_a_demo_name_in_another_game(tmp_path) -> None:
    _load()
    deck = Deck.objects.get(owner__username=DEMO_USERNAME, name="Bison Pressure")
    other_game = Game.objects.exclude(pk=deck.game_id).order_by("slug").first()
    assert other_game is not None
    sample = next(SAMPLES_DIR.glob(f"{other_game.slug}/legal-*.txt"))
    folder = tmp_path / other_game.slug
    folder.mkdir()
    text = sample.read_text(encoding="utf-8")
    renamed = [
        "# name: Bison Pressure" if line.startswith("# name:") else line
        for line in text.splitlines()
    ]
    (folder / "legal-clash.txt").write_text("\n".join(renamed) + "\n", encoding="utf-8")
    version = deck.version

    report = demo_load(samples_dir=tmp_path, refresh=True)

    deck.refresh_from_db()
    assert deck.version == version and deck.game_id != other_game.pk
    assert report.decks_kept == ["Bison Pressure"] and report.decks_refreshed == []


def test_other_users_decks_of_the_same_name_are_not_demo_decks(django_user_model) -> None:
    player = django_user_model.objects.create_user(username="ada", password="pw-not-secret")
    Deck.objects.create(
        owner=player, game=Game.objects.get(slug="rival-realms"), name="Arcane Court"
    )

    report = demo_load(samples_dir=SAMPLES_DIR)

    assert "Arcane Court" in report.decks_created
    assert Deck.objects.get(owner=player, name="Arcane Court").cards.count() == 0


def test_the_example_event_is_upcoming_and_listed(client) -> None:
    _load()

    event = Event.objects.get(name=EVENT_NAME)
    assert event.organiser is not None and event.organiser.username == DEMO_USERNAME
    assert event.format == format_default(event.game)
    assert event.date > timezone.localdate()
    assert event.decklist_deadline > timezone.now()
    assert EVENT_NAME in client.get(reverse("event-list")).content.decode()


def test_the_home_page_leads_to_the_sample_decks_which_an_anonymous_visitor_can_open(
    client,
) -> None:
    _load()

    home = client.get(reverse("home")).content.decode()

    decks = list(demo_deck_list())
    assert decks
    for deck in decks:
        assert reverse("deck-detail", args=[deck.pk]) in home
    page = client.get(reverse("deck-detail", args=[decks[0].pk]))
    assert page.status_code == 200
    assert decks[0].name in page.content.decode()


def test_opting_out_loads_no_demo(settings, client, django_user_model) -> None:
    settings.DEMO_DATA = False

    out = _load()

    assert "off" in out
    assert not django_user_model.objects.filter(username=DEMO_USERNAME).exists()
    assert not Event.objects.exists()
    assert "sample-decks" not in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    ("args", "env", "demo"),
    [([], {}, "1"), (["DEMO=0"], {}, "0"), ([], {"DECKWRIGHT_DEMO": "0"}, "0")],
    ids=["default", "make-DEMO=0", "env-DECKWRIGHT_DEMO=0"],
)
def test_make_data_passes_the_opt_out_to_the_demo_loader(args, env, demo) -> None:
    base = Path(settings.BASE_DIR)
    clean = {k: v for k, v in os.environ.items() if k not in ("DEMO", "DECKWRIGHT_DEMO")}
    plan = subprocess.run(
        ["make", "-n", "-C", str(base), "data", *args],
        capture_output=True,
        text=True,
        check=True,
        env={**clean, **env},
    ).stdout

    assert f"DECKWRIGHT_DEMO={demo} " in plan
    assert "manage.py load_demo" in plan


def test_a_real_account_named_demo_is_never_taken_over(django_user_model) -> None:
    user = django_user_model.objects.create_user(username=DEMO_USERNAME, password="pw-not-secret")

    with pytest.raises(CommandError, match="exists and can log in"):
        _load()

    user.refresh_from_db()
    assert user.has_usable_password()
    assert not Deck.objects.filter(owner=user).exists()
    assert not Event.objects.exists()
