"""The query-language help page is docs/query-language.md rendered, and follows the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

GUIDE = Path(settings.BASE_DIR) / "docs" / "query-language.md"


def headings(markdown_text: str) -> list[str]:
    return [line.lstrip("#").strip() for line in markdown_text.splitlines() if line.startswith("#")]


def test_the_help_page_shows_every_heading_of_the_guide(client):
    # when
    response = client.get(reverse("query-help"))
    # then
    assert response.status_code == 200
    body = response.content.decode()
    page_headings = [
        re.sub(r"<[^>]+>", "", text).replace("&amp;", "&")
        for text in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", body)
    ]
    expected = headings(GUIDE.read_text(encoding="utf-8"))
    assert expected and all(heading in page_headings for heading in expected)
    assert "<table>" in body  # the field tables are tables, not text
    assert "<title>The card query language — Deckwright</title>" in body


def test_the_help_page_follows_the_file(client, settings, tmp_path):
    # given: a guide in another docs folder
    settings.DOCS_DIR = tmp_path
    guide = tmp_path / "query-language.md"
    guide.write_text("# Queries\n\n## First heading\n\nSome text.\n", encoding="utf-8")
    assert "First heading" in client.get(reverse("query-help")).content.decode()
    # when: the file changes
    guide.write_text("# Queries\n\n## A new section\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    # then: the page says what the file now says
    body = client.get(reverse("query-help")).content.decode()
    assert "A new section" in body
    assert "First heading" not in body


def test_the_card_browser_links_to_the_help_and_the_site_to_the_api_docs(client):
    body = client.get(reverse("card-browser")).content.decode()
    assert f'href="{reverse("query-help")}"' in body
    assert 'href="/api/v1/docs/"' in body
    assert 'href="/api/v1/"' in body


def test_a_query_error_links_to_the_help(client):
    body = client.get(reverse("card-browser"), {"q": "cost<<"}).content.decode()
    assert 'data-testid="query-error"' in body
    assert f'href="{reverse("query-help")}">How queries are written' in body
