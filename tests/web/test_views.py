"""Every page: status, key content and permissions (Django's test client, no browser)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from cards.models import Card
from decks.events.services import event_create
from decks.models import Deck, DeckCard, Event, Registration, Visibility
from decks.selectors import format_default
from tests.factories import default_format
from tests.web.conftest import RNR, make_deck, sample

pytestmark = pytest.mark.django_db


def rnr_card(name: str) -> Card:
    return Card.objects.get(game__slug=RNR, name=name)


# -- accounts -------------------------------------------------------------------------------------


def test_signup_creates_an_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": "a-long-test-passphrase-42",
            "password2": "a-long-test-passphrase-42",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("deck-list-mine")
    assert client.get(reverse("deck-list-mine")).status_code == 200


def test_signup_errors_are_inline_and_keep_the_input(client):
    response = client.post(
        reverse("signup"),
        {"username": "carol", "email": "not-an-email", "password1": "x", "password2": "y"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'value="carol"' in body
    assert "field-error" in body


def test_login_and_logout(client, user, password):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b"Forgot your password?" in page.content
    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 302
    home = client.get(reverse("home"))
    assert b"Log out alice" in home.content
    assert client.post(reverse("logout")).status_code == 302
    assert b"Log in" in client.get(reverse("home")).content


def test_bad_login_says_so(client, user):
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert b"alert" in response.content


def test_password_reset_sends_a_link_by_the_console_backend(client, user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body
    assert client.get(reverse("password_reset_done")).status_code == 200


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "django.core.mail.backends.console.EmailBackend"),
        (
            {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"},
            "django.core.mail.backends.smtp.EmailBackend",
        ),
    ],
)
def test_email_backend_comes_from_the_environment(environ, expected):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "EMAIL_BACKEND"} | environ
    code = "import deckwright.settings as s; print(s.EMAIL_BACKEND)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == expected


# -- card browser ---------------------------------------------------------------------------------


def test_card_browser_lists_cards_as_a_grid(client):
    response = client.get(reverse("card-browser"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="card-grid"' in body
    assert ".thumb.png" in body
    assert "page 1 of" in body


def test_card_browser_query_and_filters(client):
    response = client.get(reverse("card-browser"), {"q": "t:attack b:eagle", "game": RNR})
    assert response.status_code == 200
    assert b"Eagle Dive" in response.content
    assert b"Harbor Customs House" not in response.content


def test_card_browser_list_view_and_sort(client):
    response = client.get(
        reverse("card-browser"), {"game": RNR, "view": "list", "sort": "cost", "dir": "desc"}
    )
    assert response.status_code == 200
    assert b"compact-list" in response.content


def test_card_browser_filter_by_type_id(client):
    attack = rnr_card("Eagle Dive").card_type
    response = client.get(reverse("card-browser"), {"type": attack.pk, "view": "list"})
    assert b"Eagle Dive" in response.content
    assert b"Stamp Act" not in response.content


def test_card_browser_parse_error_is_inline_with_its_position(client):
    response = client.get(reverse("card-browser"), {"q": "t:attack (b:eagle"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "column 18" in body
    assert 'value="t:attack (b:eagle"' in body
    assert 'data-testid="query-error"' in body


def test_card_browser_unknown_field_suggests(client):
    response = client.get(reverse("card-browser"), {"q": "tpye:attack"})
    assert response.status_code == 400
    assert b"type" in response.content


def test_card_browser_htmx_gets_only_the_results(client):
    response = client.get(reverse("card-browser"), {"q": "eagle"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"result-count" in response.content


def test_card_browser_bad_filter_value_is_a_400_not_a_500(client):
    response = client.get(reverse("card-browser"), {"type": "nope", "page": "x"})
    assert response.status_code == 400


def test_card_page_shows_formats_rulings_and_public_decks(client, user):
    make_deck(user, name="Public Eagles", visibility=Visibility.PUBLIC)
    make_deck(user, name="Secret Eagles", visibility=Visibility.PRIVATE)
    card = rnr_card("Eagle Dive")
    response = client.get(card.get_absolute_url())
    assert response.status_code == 200
    body = response.content.decode()
    assert "Legal</span> in Standard" in body
    assert "Public Eagles" in body
    assert "Secret Eagles" not in body


def test_a_ruling_on_a_card_page_says_which_ruling_not_which_file(client):
    card = rnr_card("Militia Bill")
    ruling = card.rulings.first()
    assert ruling is not None and ruling.source.startswith("docs/rules/")  # as the API gives it
    body = client.get(card.get_absolute_url()).content.decode()
    number = ruling.source.rsplit(" ", 1)[1]
    assert f"(Deckwright ruling {number}): {escape(ruling.text)}" in body
    assert "docs/rules/" not in body


def test_card_page_shows_a_banned_card(client):
    response = client.get(rnr_card("Writs of Assistance").get_absolute_url())
    assert b"Banned</span> in Standard" in response.content


# -- decks ----------------------------------------------------------------------------------------


def test_deck_pages_need_a_login_to_build(client):
    response = client.get(reverse("deck-new"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert client.get(reverse("deck-list-mine")).status_code == 302


def test_create_an_empty_deck(alice, user):
    fmt = format_default(RNR)
    response = alice.post(
        reverse("deck-new"),
        {"name": "Fresh", "game": RNR, "format": fmt.pk, "visibility": "private", "kind": "auto"},
    )
    deck = Deck.objects.get(owner=user, name="Fresh")
    assert response["Location"] == reverse("deck-detail", args=[deck.pk])
    page = alice.get(response["Location"])
    assert b"Not legal" in page.content
    assert b"deck-size" in page.content


def test_create_from_a_decklist_with_a_format_of_another_game_is_refused(alice):
    other = format_default("rival-realms")
    response = alice.post(
        reverse("deck-new"),
        {"name": "Mixed", "game": RNR, "format": other.pk, "visibility": "private"},
    )
    assert response.status_code == 400
    assert b"Choose a format of Revolt N Reign" in response.content


def test_create_with_a_malformed_decklist_keeps_the_text(alice):
    text = "0 Stamp Act\n3x\n"
    response = alice.post(
        reverse("deck-new"),
        {"name": "Broken", "game": RNR, "visibility": "private", "decklist": text},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "line 1: quantity 0" in body
    assert "3x" in body
    assert not Deck.objects.filter(name="Broken").exists()


def test_create_with_an_unknown_card_suggests(alice):
    response = alice.post(
        reverse("deck-new"),
        {"name": "Typo", "game": RNR, "visibility": "private", "decklist": "2 Eagel Dive"},
    )
    assert response.status_code == 400
    assert b"Eagle Dive" in response.content


def test_create_from_an_uploaded_json_file(alice, user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    payload = json.dumps({"cards": [{"name": "Eagle Dive", "quantity": 2}]}).encode()
    upload = SimpleUploadedFile("deck.json", payload, content_type="application/json")
    response = alice.post(
        reverse("deck-new"),
        {"name": "From JSON", "game": RNR, "visibility": "private", "file": upload},
    )
    assert response.status_code == 302
    deck = Deck.objects.get(owner=user, name="From JSON")
    assert deck.cards.get().quantity == 2


def test_a_new_deck_takes_the_variant_its_decklist_names_unless_the_form_chose_one(alice, user):
    draft = sample("regality-vs-religion", "legal-regality-draft")
    assert "# variant: draft" in draft
    offered = alice.get(reverse("deck-new") + "?game=regality-vs-religion").context["form"]
    fields = {"game": "regality-vs-religion", "visibility": "private", "decklist": draft}
    fields["variant"] = offered["variant"].initial  # the form's default, left as it was
    assert fields["variant"] == "standard"
    response = alice.post(reverse("deck-new"), {**fields, "name": "Draft"})
    assert response.status_code == 302, response.content
    assert Deck.objects.get(owner=user, name="Draft").variant == "draft"
    chosen = alice.post(reverse("deck-new"), {**fields, "name": "Chosen", "variant": "old-style"})
    assert chosen.status_code == 302
    assert Deck.objects.get(owner=user, name="Chosen").variant == "old-style"


def test_pasted_text_and_a_file_at_once_are_refused_and_nothing_is_created(alice, user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deck.txt", b"1 Sugar Act\n", content_type="text/plain")
    response = alice.post(
        reverse("deck-new"),
        {
            "name": "Both",
            "game": RNR,
            "visibility": "private",
            "decklist": "1 Tea Act",
            "file": upload,
        },
    )
    assert response.status_code == 400
    assert b"Paste a decklist or upload a file, not both" in response.content
    assert not Deck.objects.filter(owner=user, name="Both").exists()


def test_deck_page_of_a_legal_deck(alice, legal_deck):
    response = alice.get(reverse("deck-detail", args=[legal_deck.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-legal="true"' in body
    assert "Legal: 60 cards" in body
    assert "Cost curve" in body
    assert "<svg" in body
    assert "Opening hand" in body
    assert 'id="card-name"' in body  # the owner gets the builder


def test_private_deck_is_404_for_others(client, other_user, legal_deck):
    url = reverse("deck-detail", args=[legal_deck.pk])
    assert client.get(url).status_code == 404
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    assert client.get(reverse("deck-versions", args=[legal_deck.pk])).status_code == 404
    assert client.get(reverse("deck-export", args=[legal_deck.pk, "text"])).status_code == 404


def test_unlisted_deck_opens_by_link_but_is_not_listed(client, user):
    deck = make_deck(user, name="By Link", visibility=Visibility.UNLISTED)
    page = client.get(reverse("deck-detail", args=[deck.pk]))
    assert page.status_code == 200
    assert b'id="card-name"' not in page.content  # read-only for visitors
    assert b"By Link" not in client.get(reverse("deck-list-public")).content


def test_public_and_mine_lists(alice, user, other_user):
    make_deck(user, name="Mine Private")
    make_deck(other_user, name="Theirs Public", visibility=Visibility.PUBLIC)
    make_deck(other_user, name="Theirs Private")
    public = alice.get(reverse("deck-list-public")).content.decode()
    assert "Theirs Public" in public
    assert "Theirs Private" not in public
    assert "Mine Private" not in public
    mine = alice.get(reverse("deck-list-mine")).content.decode()
    assert "Mine Private" in mine
    assert "Theirs Public" not in mine


def test_add_a_card_by_name_with_htmx_returns_the_live_panels(alice, user):
    deck = make_deck(user, name="Empty", sample_name="legal-eagle-control")
    response = alice.post(
        reverse("deck-card-add", args=[deck.pk]),
        {"name": "grievance roll", "quantity": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response["HX-Trigger"] == "deck-changed"
    body = response.content.decode()
    assert "<html" not in body
    assert 'id="validation-panel"' in body
    assert 'hx-swap-oob="innerHTML"' in body
    assert DeckCard.objects.filter(deck=deck, card__name="Grievance Roll").exists()


def test_add_an_unknown_card_is_a_422_with_suggestions(alice, legal_deck):
    response = alice.post(
        reverse("deck-card-add", args=[legal_deck.pk]),
        {"name": "Eagel Dive"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert b"Did you mean Eagle Dive" in response.content


def test_add_without_htmx_redirects_back(alice, legal_deck):
    response = alice.post(reverse("deck-card-add", args=[legal_deck.pk]), {"name": "Eagle Dive"})
    assert response.status_code == 302


def test_add_refused_without_htmx_keeps_the_name(alice, legal_deck):
    response = alice.post(reverse("deck-card-add", args=[legal_deck.pk]), {"name": "Zzzzz"})
    assert response.status_code == 422
    assert b'value="Zzzzz"' in response.content


def test_set_quantities_and_remove(alice, legal_deck):
    url = reverse("deck-card-set", args=[legal_deck.pk])
    alice.post(url, {"card": "Eagle Dive", "quantity": 1}, HTTP_HX_REQUEST="true")
    assert legal_deck.cards.get(card__name="Eagle Dive").quantity == 1
    alice.post(url, {"card": "Eagle Dive", "quantity": 0}, HTTP_HX_REQUEST="true")
    assert not legal_deck.cards.filter(card__name="Eagle Dive").exists()
    bad = alice.post(url, {"card": "Eagle Dive", "quantity": -3}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 422


def test_only_the_owner_changes_a_deck(client, other_user, user):
    """Another user who may read the deck (public) is told 403 and why, as the API tells them;
    the deck stays as it was."""
    deck = make_deck(user, visibility=Visibility.PUBLIC)
    client.force_login(other_user)
    for name in ("deck-card-add", "deck-card-set", "deck-paste", "deck-settings", "deck-delete"):
        refused = client.post(reverse(name, args=[deck.pk]), {"name": "x", "decklist": "1 Tea Act"})
        assert refused.status_code == 403, name
        assert b"Only the deck&#x27;s owner can change it." in refused.content
    deck.refresh_from_db()
    assert deck.version == 1 and sum(c.quantity for c in deck.cards.all()) == 60


def test_paste_adds_or_replaces(alice, user):
    deck = make_deck(user, name="Paste", sample_name="legal-eagle-control")
    url = reverse("deck-paste", args=[deck.pk])
    response = alice.post(
        url, {"decklist": "1 Grievance Roll", "mode": "add", "kind": "auto"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert sum(deck.cards.values_list("quantity", flat=True)) == 61
    # a replacement names the version the page showed; without one nothing is changed
    refused = alice.post(url, {"decklist": "2 Eagle Dive", "mode": "replace", "kind": "text"})
    assert "needs the version the page showed" in refused.content.decode()
    assert sum(deck.cards.values_list("quantity", flat=True)) == 61
    deck.refresh_from_db()
    alice.post(
        url,
        {"decklist": "2 Eagle Dive", "mode": "replace", "kind": "text", "version": deck.version},
    )
    assert list(deck.cards.values_list("card__name", "quantity")) == [("Eagle Dive", 2)]


def test_replacing_with_a_list_of_comments_alone_is_refused_and_empties_nothing(alice, user):
    """A pasted list without a card (comments and blank lines) is refused as an empty box is:
    replacing the deck with it would leave the deck empty, a step no one means by a paste."""
    deck = make_deck(user, name="Paste", sample_name="legal-eagle-control")
    posted = {"decklist": "# my notes\n\n", "mode": "replace", "kind": "text"}

    refused = alice.post(reverse("deck-paste", args=[deck.pk]), {**posted, "version": deck.version})

    assert refused.status_code == 422
    assert "The list holds no card, only comments or blank lines" in refused.content.decode()
    deck.refresh_from_db()
    assert sum(deck.cards.values_list("quantity", flat=True)) == 60 and deck.version == 1


def test_paste_a_malformed_list_shows_every_line_and_changes_nothing(alice, legal_deck):
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"decklist": "0 Stamp Act\n[Broken\n", "mode": "replace", "kind": "text", "version": 1},
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert "line 1" in body and "line 2" in body
    assert "[Broken" in body  # the textarea keeps what was typed
    assert legal_deck.cards.count() > 1


def test_paste_nothing_is_refused(alice, legal_deck):
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"decklist": "  ", "mode": "add"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert b"Paste a decklist" in response.content


def test_autocomplete_suggests_cards_of_the_deck_game(alice, legal_deck):
    response = alice.get(reverse("deck-card-suggest", args=[legal_deck.pk]), {"name": "eagle d"})
    assert response.status_code == 200
    assert b'role="option"' in response.content
    assert b"Eagle Dive" in response.content


def test_export_in_three_formats(alice, legal_deck):
    text = alice.get(reverse("deck-export", args=[legal_deck.pk, "text"]))
    assert text["Content-Disposition"] == 'attachment; filename="eagle-control.txt"'
    assert b"# game: revolt-n-reign" in text.content
    csv_body = alice.get(reverse("deck-export", args=[legal_deck.pk, "csv"])).content.decode()
    assert csv_body.startswith("quantity,name,zone")
    data = json.loads(alice.get(reverse("deck-export", args=[legal_deck.pk, "json"])).content)
    assert sum(card["quantity"] for card in data["cards"]) == 60
    assert alice.get(f"/decks/{legal_deck.pk}/export.xml").status_code == 404
    # a deck of a variant is told that CSV holds the cards alone
    page = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    assert 'data-testid="csv-variant-note"' not in page
    draft = make_deck(
        legal_deck.owner, game="regality-vs-religion", sample_name="legal-regality-draft"
    )
    assert draft.variant == "draft"
    page = alice.get(reverse("deck-detail", args=[draft.pk])).content.decode()
    assert "CSV holds the cards alone" in page


def test_clone_a_public_deck(client, other_user, user):
    deck = make_deck(user, visibility=Visibility.PUBLIC)
    client.force_login(other_user)
    response = client.post(reverse("deck-clone", args=[deck.pk]))
    clone = Deck.objects.get(owner=other_user)
    assert response["Location"] == reverse("deck-detail", args=[clone.pk])
    assert clone.visibility == Visibility.PRIVATE


def test_settings_change_visibility_and_format(alice, legal_deck):
    response = alice.post(
        reverse("deck-settings", args=[legal_deck.pk]),
        {"name": "Renamed", "description": "", "format": "", "visibility": "public"},
    )
    assert response.status_code == 302
    legal_deck.refresh_from_db()
    assert (legal_deck.name, legal_deck.visibility, legal_deck.format) == (
        "Renamed",
        "public",
        None,
    )


def test_settings_refuse_an_empty_name(alice, legal_deck):
    response = alice.post(
        reverse("deck-settings", args=[legal_deck.pk]),
        {"name": "", "format": "", "visibility": "public"},
    )
    assert response.status_code == 400


def test_delete_a_deck(alice, legal_deck):
    assert alice.post(reverse("deck-delete", args=[legal_deck.pk])).status_code == 302
    assert not Deck.objects.filter(pk=legal_deck.pk).exists()


def test_version_history_with_diff(alice, legal_deck):
    alice.post(
        reverse("deck-card-set", args=[legal_deck.pk]), {"card": "Eagle Dive", "quantity": 1}
    )
    alice.post(reverse("deck-card-add", args=[legal_deck.pk]), {"name": "Grievance Roll"})
    response = alice.get(reverse("deck-versions", args=[legal_deck.pk]), {"a": 1, "b": 3})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Eagle Dive: 2 → 1" in body
    assert "+1 Grievance Roll" in body
    assert "Eagle Dive: 2 -&gt; 1" in body  # the version's own note
    missing = alice.get(reverse("deck-versions", args=[legal_deck.pk]), {"a": 1, "b": 99})
    assert missing.status_code == 400


def test_deck_of_a_zoned_game(alice, user):
    deck = make_deck(user, game="reggae-revolution", sample_name="legal-full-setup", name="Reggae")
    response = alice.get(reverse("deck-detail", args=[deck.pk]))
    assert response.status_code == 200
    assert b'id="add-zone"' in response.content
    assert b"Legal" in response.content


def test_deck_of_a_game_without_a_hand_has_no_odds(alice, user):
    deck = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Elves")
    response = alice.get(reverse("deck-detail", args=[deck.pk]))
    assert response.status_code == 200
    assert b"no hand to draw" in response.content


def test_deck_page_query_count_does_not_grow_with_the_deck(alice, legal_deck, user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small = make_deck(user, name="Small", sample_name="illegal-deck-size")
    alice.get(reverse("deck-detail", args=[small.pk]))  # warm the validation caches
    with CaptureQueriesContext(connection) as small_queries:
        alice.get(reverse("deck-detail", args=[small.pk]))
    with CaptureQueriesContext(connection) as big_queries:
        alice.get(reverse("deck-detail", args=[legal_deck.pk]))
    assert len(big_queries) == len(small_queries)


# -- tournament checks and events -----------------------------------------------------------------


def test_tournament_batch_from_paste_and_files_with_csv(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    fmt = format_default(RNR)
    pasted = sample(RNR, "legal-eagle-control") + "\n---\n" + sample(RNR, "illegal-rights-cap")
    upload = SimpleUploadedFile("bad.txt", b"0 Stamp Act\n", content_type="text/plain")
    response = client.post(
        reverse("tournament-check"), {"format": fmt.pk, "decklists": pasted, "files": [upload]}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "3 decks: 1 legal, 1 illegal, 1 unreadable" in body
    assert "rights-cap" in body
    token = response.context["token"]
    report = client.get(reverse("tournament-report-csv", args=[token]))
    assert report["Content-Type"].startswith("text/csv")
    lines = report.content.decode().splitlines()
    assert lines[0] == "deck,verdict,card_count,code,message,rule,cards,judged_on"
    assert any(",legal," in line for line in lines)
    assert any("rights-cap" in line for line in lines)
    assert any(line.startswith("bad.txt,unreadable") for line in lines)


def test_tournament_batch_numbers_each_pasted_decks_lines_from_its_own_first_line(client):
    fmt = format_default(RNR)
    pasted = "1 Stamp Act\n1 Tea Act\n1 Sugar Act\n---\n1 Stamp Act\n0 Tea Act\n  ---  \n0 Tea Act"
    response = client.post(reverse("tournament-check"), {"format": fmt.pk, "decklists": pasted})
    body = response.content.decode()
    assert "3 decks: 0 legal, 1 illegal, 2 unreadable" in body
    # the second deck's bad line is its second; the third deck's its first
    assert "line 2: quantity 0 is not between 1 and 999" in body
    assert "line 1: quantity 0 is not between 1 and 999" in body
    assert "line 3:" not in body


def test_tournament_batch_refuses_a_decklist_of_another_game(client):
    fmt = format_default(RNR)
    text = sample(RNR, "legal-eagle-control")
    assert "# game: revolt-n-reign" in text
    pasted = text.replace("# game: revolt-n-reign", "# game: rival-realms")
    response = client.post(reverse("tournament-check"), {"format": fmt.pk, "decklists": pasted})
    assert "this decklist is for rival-realms, not revolt-n-reign" in response.content.decode()


def test_tournament_batch_judges_each_deck_in_the_variant_and_on_the_day_its_list_names(client):
    rvr = "regality-vs-religion"
    draft = sample(rvr, "legal-regality-draft")
    assert "# variant: draft" in draft
    old = sample(RNR, "legal-bison-pressure").replace("# as_of: 2026-10-01", "# as_of: 2000-01-01")
    drafted = client.post(
        reverse("tournament-check"), {"format": format_default(rvr).pk, "decklists": draft}
    )
    assert drafted.status_code == 200
    result = drafted.context["check"]["results"][0]
    assert result["legal"] is True and result["report"]["variant"] == "draft"
    dated = client.post(
        reverse("tournament-check"), {"format": format_default(RNR).pk, "decklists": old}
    )
    result = dated.context["check"]["results"][0]
    assert result["legal"] is False and result["report"]["as_of"] == "2000-01-01"
    # the organiser's day for the whole batch wins over the list's own
    today = client.post(
        reverse("tournament-check"),
        {"format": format_default(RNR).pk, "decklists": old, "as_of": "2026-10-01"},
    )
    assert today.context["check"]["results"][0]["legal"] is True


def test_a_list_dated_before_a_ban_is_marked_judged_on_its_own_date_in_page_and_csv(client):
    # a player backdating their list past a ban: without the organiser's day it is judged as it
    # stood then, and the page, its summary and the CSV all say on which day
    banned = sample(RNR, "illegal-banned")
    assert "Writs of Assistance" in banned
    backdated = re.sub(r"# as_of: \S+", "# as_of: 2026-05-15", banned)
    pasted = backdated + "\n---\n" + sample(RNR, "legal-eagle-control")
    fmt = format_default(RNR).pk
    response = client.post(reverse("tournament-check"), {"format": fmt, "decklists": pasted})
    check = response.context["check"]
    today = timezone.localdate().isoformat()
    assert check["as_of"] == today
    assert [r["as_of"] for r in check["results"]] == ["2026-05-15", today]
    assert [r["legal"] for r in check["results"]] == [True, True]
    assert check["summary"]["own_dates"] == 1
    body = response.content.decode()
    assert "1 deck judged on the date its list names" in body
    assert body.count('data-testid="judged-on"') == 1 and "judged on 2026-05-15" in body
    csv_text = client.get(reverse("tournament-report-csv", args=[response.context["token"]]))
    rows = list(csv.DictReader(io.StringIO(csv_text.content.decode())))
    assert [row["judged_on"] for row in rows] == ["2026-05-15", today]
    # the organiser's day judges both, and the backdated list is banned on it
    on_the_day = client.post(
        reverse("tournament-check"), {"format": fmt, "decklists": pasted, "as_of": today}
    )
    judged = on_the_day.context["check"]
    assert judged["summary"]["own_dates"] == 0
    assert [r["legal"] for r in judged["results"]] == [False, True]
    assert 'data-testid="judged-on"' not in on_the_day.content.decode()


def test_a_tournament_check_takes_at_most_the_apis_number_of_decks(client, monkeypatch):
    from api.serializers.decks import FormatCheckRequestSerializer
    from web.views import events

    assert FormatCheckRequestSerializer().fields["decks"].max_length == events.MAX_BATCH_DECKS
    monkeypatch.setattr(events, "MAX_BATCH_DECKS", 3)  # 100 decks to check are slow to build
    fmt = format_default(RNR).pk
    four = "\n---\n".join(["1 Stamp Act"] * 4)
    response = client.post(reverse("tournament-check"), {"format": fmt, "decklists": four})
    assert response.status_code == 400 and response.context["check"] is None
    assert "at most 3 decks, and these are 4" in response.content.decode()
    three = "\n---\n".join(["1 Stamp Act"] * 3)
    done = client.post(reverse("tournament-check"), {"format": fmt, "decklists": three})
    assert done.context["check"]["summary"]["decks"] == 3


@pytest.mark.parametrize("pasted", ["", "---\n---", "  -----  \n"])
def test_tournament_check_needs_decklists(client, pasted):
    fmt = format_default(RNR)
    response = client.post(reverse("tournament-check"), {"format": fmt.pk, "decklists": pasted})
    assert response.status_code == 400
    assert b"Paste at least one decklist" in response.content


def test_tournament_csv_of_another_session_is_404(client):
    assert client.get(reverse("tournament-report-csv", args=["nope"])).status_code == 404


def _event(organiser, *, deadline_in: dt.timedelta = dt.timedelta(days=1)) -> Event:
    # Created an hour before its deadline, so a deadline already passed is possible too.
    deadline = timezone.now() + deadline_in
    return event_create(
        game=RNR,
        format=default_format(RNR),
        name="Harbor Open",
        date=timezone.localdate() + dt.timedelta(days=2),
        decklist_deadline=deadline,
        organiser=organiser,
        now=deadline - dt.timedelta(hours=1),
    )


def test_an_organiser_creates_an_event(client, organiser):
    client.force_login(organiser)
    fmt = format_default(RNR)
    response = client.post(
        reverse("event-new"),
        {
            "name": "Autumn Cup",
            "format": fmt.pk,
            "date": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
            "decklist_deadline": f"{timezone.localdate() + dt.timedelta(days=4)}T18:00",
        },
    )
    event = Event.objects.get(name="Autumn Cup")
    assert event.organiser == organiser
    assert response["Location"] == reverse("event-detail", args=[event.pk])
    assert b"Autumn Cup" in client.get(reverse("event-list")).content


def test_register_shows_the_verdict_and_hash(client, other_user, organiser):
    event = _event(organiser)
    client.force_login(other_user)
    response = client.post(
        reverse("event-register", args=[event.pk]),
        {"decklist": sample(RNR, "legal-eagle-control"), "kind": "auto"},
    )
    assert response.status_code == 302
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    registration = Registration.objects.get(event=event, player=other_user)
    assert registration.deck_hash in page
    assert "verdict legal" in page
    assert "Registrations (organiser)" not in page


def test_register_with_one_of_my_decks(alice, user, organiser):
    event = _event(organiser)
    deck = make_deck(user)
    response = alice.post(reverse("event-register", args=[event.pk]), {"deck": deck.pk})
    assert response.status_code == 302
    assert Registration.objects.get(event=event).legal
    alice.force_login(organiser)
    page = alice.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Registrations (organiser)" in page
    assert user.username in page


def test_registration_is_locked_after_the_deadline(alice, organiser):
    event = _event(organiser, deadline_in=-dt.timedelta(hours=1))
    page = alice.get(reverse("event-detail", args=[event.pk]))
    assert b"locked" in page.content
    response = alice.post(
        reverse("event-register", args=[event.pk]), {"decklist": "1 Stamp Act", "kind": "text"}
    )
    assert response.status_code == 409
    assert b"deadline" in response.content


def test_register_a_malformed_list_is_inline(alice, organiser):
    event = _event(organiser)
    response = alice.post(
        reverse("event-register", args=[event.pk]), {"decklist": "0 Stamp Act", "kind": "text"}
    )
    assert response.status_code == 400
    assert b"line 1" in response.content


def test_register_a_list_of_only_comments_is_refused_and_keeps_the_registration(
    alice, user, organiser
):
    event = _event(organiser)
    url = reverse("event-register", args=[event.pk])
    alice.post(url, {"decklist": sample(RNR, "legal-eagle-control"), "kind": "auto"})
    kept = Registration.objects.get(event=event, player=user)

    response = alice.post(url, {"decklist": "# to be decided\n\n", "kind": "text"})

    assert response.status_code == 400
    assert b"a registration needs a deck" in response.content
    again = Registration.objects.get(event=event, player=user)
    assert (again.deck_hash, again.legal) == (kept.deck_hash, True)


def test_withdraw(alice, organiser):
    event = _event(organiser)
    alice.post(reverse("event-register", args=[event.pk]), {"decklist": "1 Stamp Act"})
    assert alice.post(reverse("event-withdraw", args=[event.pk])).status_code == 302
    assert not Registration.objects.filter(event=event).exists()


def test_pages_have_one_h1_and_a_skip_link(client):
    for url in (
        reverse("home"),
        reverse("card-browser"),
        reverse("deck-list-public"),
        reverse("event-list"),
        reverse("tournament-check"),
        reverse("login"),
        reverse("signup"),
    ):
        body = client.get(url).content.decode()
        assert body.count("<h1") == 1, url
        assert 'class="skip-link"' in body
        assert '<html lang="en">' in body


# -- test hands -----------------------------------------------------------------------------------


def test_test_hands_deal_keep_and_step(alice, legal_deck):
    url = reverse("deck-test-hands", args=[legal_deck.pk])
    opening = alice.get(url, {"seed": 7})
    assert opening.status_code == 200
    walk = opening.context["walk"]
    assert len(walk.hand) == 7
    assert not walk.kept
    assert alice.get(url, {"seed": 7}).context["walk"].hand == walk.hand  # a seed replays
    mulligan = alice.get(url, {"seed": 7, "mulligans": 1}).context["walk"]
    assert mulligan.mulligans == 1
    turn = alice.get(url, {"seed": 7, "kept": "on", "turns": 1}).context["walk"]
    assert turn.turns == 1
    assert turn.log
    assert b"Play turn 2" in alice.get(url, {"seed": 7, "kept": "on", "turns": 1}).content


def test_test_hands_summary(alice, legal_deck):
    url = reverse("deck-test-hands", args=[legal_deck.pk])
    response = alice.get(
        url, {"hands": 20, "deal_seed": 3, "policy": "no-pillar"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert response.context["summary"].games == 20
    assert b"Pillar on turn 1" in response.content
    bad = alice.get(url, {"hands": 0, "deal_seed": 3, "policy": "no-pillar"})
    assert bad.status_code == 400


def test_test_hands_of_an_unplayable_deck_say_why(alice, user):
    deck = make_deck(user, name="Short", sample_name="illegal-deck-size")
    response = alice.get(reverse("deck-test-hands", args=[deck.pk]))
    assert response.status_code == 400
    assert b"cannot be played yet" in response.content


def test_test_hands_are_available_for_rival_realms(alice, user):
    deck = make_deck(user, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    response = alice.get(reverse("deck-test-hands", args=[deck.pk]))
    assert response.status_code == 200
    assert b"not available" not in response.content
    assert len(response.context["walk"].hand) == 7


def test_test_hands_respect_visibility(client, legal_deck):
    assert client.get(reverse("deck-test-hands", args=[legal_deck.pk])).status_code == 404


# -- matchups -------------------------------------------------------------------------------------


def _start_matchup(client, a, b, *, games=3, agents=("random", "random")):
    return client.post(
        reverse("matchup-new"),
        {
            "deck_a": a.pk,
            "deck_b": b.pk,
            "agent_a": agents[0],
            "agent_b": agents[1],
            "games": games,
            "seed": 5,
        },
    )


def _run_pk(response) -> int:
    assert response.status_code == 302
    return int(response["Location"].rstrip("/").split("/")[-1])


def _poll_to_end(client, pk: int):
    """Play the matchup job as the background runner does (nothing is dispatched from the
    test's uncommitted transaction), then poll it as htmx does; return the answer."""
    from rules.lab.jobs import simulation_job_play_inline
    from rules.lab.runner import background_wait

    assert background_wait(("job", pk), timeout=120)  # where the runner holds it
    assert simulation_job_play_inline(job_id=pk).finished, "the matchup did not finish"
    return client.get(reverse("simulation-progress", args=[pk]), HTTP_HX_REQUEST="true")


def test_matchup_runs_in_chunks_to_results_and_replay(alice, user):
    a = make_deck(user, name="Eagles")
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    assert alice.get(reverse("matchup-new"), {"deck": a.pk}).status_code == 200
    response = _start_matchup(alice, a, b, games=12)
    pk = _run_pk(response)
    page = alice.get(response["Location"])
    assert b"Waiting for the first game to start" in page.content  # the runner has not begun
    last = _poll_to_end(alice, pk)
    body = last.content.decode()
    assert "Results of 12 games" in body
    assert "95% interval" in body
    assert 'data-testid="length-chart"' in body and 'data-testid="reason-chart"' in body
    replay = alice.get(reverse("simulation-game", args=[pk, 3]), {"step": 2})
    assert replay.status_code == 200
    assert b"Step 2 of" in replay.content
    again = alice.get(reverse("simulation-game", args=[pk, 3]), {"step": "x"})
    assert again.status_code == 400


def test_matchup_is_reproducible_by_seed(alice, user):
    from rules.models import SimulationJob

    a = make_deck(user, name="Eagles")
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure")
    results = []
    for _ in range(2):
        pk = _run_pk(_start_matchup(alice, a, b, games=5))
        _poll_to_end(alice, pk)
        results.append(SimulationJob.objects.get(pk=pk).aggregate)
    assert results[0] == results[1]


def test_matchup_of_an_unplayable_deck_says_why(alice, user):
    a = make_deck(user, name="Eagles")
    short = make_deck(user, name="Short", sample_name="illegal-deck-size")
    response = _start_matchup(alice, a, short)
    assert response.status_code == 400
    assert b"cannot play these decks" in response.content


def test_matchup_refuses_decks_of_two_games(alice, user):
    a = make_deck(user, name="Eagles")
    b = make_deck(user, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    response = _start_matchup(alice, a, b)
    assert response.status_code == 400
    assert b"same game" in response.content


def test_matchup_cannot_use_someone_elses_private_deck(client, user, other_user):
    private = make_deck(user, name="Secret")
    mine = make_deck(other_user, name="Mine")
    client.force_login(other_user)
    response = _start_matchup(client, mine, private)
    assert response.status_code == 400


def test_matchup_of_another_session_is_404(client):
    assert client.get(reverse("simulation-detail", args=[999_999])).status_code == 404
    assert client.get("/matchups/999999/").status_code == 404  # no run had that id


def test_rival_realms_matchup(alice, user):
    a = make_deck(user, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    b = make_deck(user, game="rival-realms", sample_name="legal-knights-and-keeps", name="Keeps")
    step = _poll_to_end(alice, _run_pk(_start_matchup(alice, a, b, games=2)))
    assert step.status_code == 200
    assert b"Results of 2 games" in step.content


def test_matchups_are_available_for_reign_absolute(alice, user):
    deck = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Elves")
    response = alice.get(reverse("matchup-new"), {"deck": deck.pk})
    assert response.status_code == 200
    assert b"not available" not in response.content


def test_import_a_csv_file_into_a_deck(alice, legal_deck):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "list.csv", b"quantity,name\n2,Eagle Dive\n", content_type="text/csv"
    )
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"file": upload, "mode": "replace", "kind": "auto", "version": legal_deck.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert list(legal_deck.cards.values_list("card__name", "quantity")) == [("Eagle Dive", 2)]


def test_import_a_file_that_is_not_utf8_is_refused(alice, legal_deck):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("list.txt", b"\xff\xfe\x00bad", content_type="text/plain")
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"file": upload, "mode": "replace", "kind": "auto", "version": legal_deck.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert b"not UTF-8" in response.content


def test_suggestions_of_a_private_deck_are_404_for_others(client, other_user, legal_deck):
    client.force_login(other_user)
    url = reverse("deck-card-suggest", args=[legal_deck.pk])
    assert client.get(url, {"name": "eagle"}).status_code == 404


def test_card_browser_history_restore_gets_the_whole_page(client):
    response = client.get(
        reverse("card-browser"),
        {"q": "eagle"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )
    assert b"<html" in response.content


def test_a_nested_json_upload_is_a_decklist_error(alice, legal_deck):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("list.json", b"[" * 4096, content_type="application/json")
    response = alice.post(
        reverse("deck-paste", args=[legal_deck.pk]),
        {"file": upload, "mode": "replace", "kind": "auto", "version": legal_deck.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert b"nested deeper than 32 levels at line 1, column 33" in response.content
    assert legal_deck.cards.count() > 1


def test_version_numbers_beyond_the_column_are_a_400_page(client, user):
    deck = make_deck(user, visibility=Visibility.PUBLIC)
    url = reverse("deck-versions", args=[deck.pk])
    for b in (2**31, 2**63, 10**30):
        response = client.get(url, {"a": 1, "b": b})
        assert response.status_code == 400
        assert b"2147483647" in response.content


def test_page_ids_longer_than_18_digits_are_not_found(client):
    assert client.get(f"/decks/{2**63}/").status_code == 404
    assert client.get(f"/matchups/1/games/{10**30}/").status_code == 404


def test_a_nul_in_a_parameter_is_a_400_page(client):
    response = client.get("/cards/", {"game": "a\x00b"})
    assert response.status_code == 400
    assert b"NUL character" in response.content


def test_a_nul_in_the_path_is_a_400_page_not_a_database_error(client, user):
    # PostgreSQL cannot compare text holding a NUL: a friend table's invite token was a 500 there
    client.force_login(user)
    for method in ("get", "post"):
        response = getattr(client, method)("/play/friends/join/a%00b/")
        assert response.status_code == 400
        assert b"The path holds a NUL character" in response.content


def test_admin_pages_refuse_an_empty_to_field_and_versions_are_not_added_by_hand(
    client, django_user_model, user
):
    deck = make_deck(user)
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.com", "pw"))
    response = client.get(f"/admin/decks/deck/{deck.pk}/change/", {"_to_field": ""})
    assert response.status_code == 400  # the admin read "" as a field name: a 500
    assert client.get(f"/admin/decks/deck/{deck.pk}/change/").status_code == 200
    assert client.post("/admin/decks/deckversion/add/", {}).status_code == 403


def test_a_form_over_the_upload_cap_is_a_400_page_saying_so(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = client.post("/tournament/", {"decklists": "1 Stamp Act\n" * 50})
    assert response.status_code == 400
    assert b"larger than the 100 bytes" in response.content
