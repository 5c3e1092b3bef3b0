"""Organisers edit formats and their ban lists in the admin."""

from __future__ import annotations

import pytest

from decks.models import Format

pytestmark = pytest.mark.django_db


def test_format_admin_shows_sets_and_ban_list_inline(admin_client):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")

    listing = admin_client.get("/admin/decks/format/")
    page = admin_client.get(f"/admin/decks/format/{fmt.pk}/change/")

    assert listing.status_code == 200 and b"Standard" in listing.content
    assert page.status_code == 200
    assert b"card_entries-TOTAL_FORMS" in page.content
    assert b"legal_sets-TOTAL_FORMS" in page.content


def test_ban_list_entries_are_listed_with_their_dates(admin_client):
    response = admin_client.get("/admin/decks/formatcardentry/?status__exact=banned")

    assert response.status_code == 200
    assert b"Writs of Assistance" in response.content
    assert b"June 1, 2026" in response.content
