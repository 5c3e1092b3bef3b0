"""The API root lists every endpoint the URL configuration registers, with its URL and a line
on what it does, in JSON for clients and as a browsable page."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve

pytestmark = pytest.mark.django_db


def registered_api_routes() -> set[str]:
    """Every URL name under the ``api`` namespace, read from the resolver on its own."""
    _, api = get_resolver().namespace_dict["api"]
    names: set[str] = set()

    def walk(patterns) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns)
            elif isinstance(entry, URLPattern):
                names.add(f"api:{entry.name}")

    walk(api.url_patterns)
    return names


def example(url: str) -> str:
    """A path to try for a templated URL (``{pk}`` -> 1, ``{slug}`` -> standard)."""
    path = re.sub(r"^https?://[^/]+", "", url)
    return re.sub(r"\{(\w+)\}", lambda m: "1" if m.group(1) in ("pk", "id") else "standard", path)


def test_the_root_lists_every_registered_endpoint(api_client):
    # when
    response = api_client.get("/api/v1/", HTTP_ACCEPT="application/json")
    # then
    assert response.status_code == 200
    body = response.json()
    listed = {endpoint["name"] for endpoint in body["endpoints"]}
    assert listed == registered_api_routes()
    assert {"api:deck-list", "api:deck-detail", "api:card-named", "api:validate"} <= listed
    assert body["docs"] == "http://testserver/api/v1/docs/"


def test_every_listed_url_resolves_to_its_endpoint_and_says_what_it_does(api_client):
    body = api_client.get("/api/v1/", HTTP_ACCEPT="application/json").json()
    for endpoint in body["endpoints"]:
        assert endpoint["url"].startswith("http://testserver/api/v1/"), endpoint
        match = resolve(example(endpoint["url"]))
        assert f"{match.namespace}:{match.url_name}" == endpoint["name"], endpoint
        assert endpoint["description"].strip(), endpoint
        assert "\n" not in endpoint["description"], endpoint
        assert endpoint["methods"] and all(line for line in endpoint["methods"].values())


def test_the_root_describes_endpoints_by_their_documented_summaries(api_client):
    body = api_client.get("/api/v1/", HTTP_ACCEPT="application/json").json()
    by_name = {endpoint["name"]: endpoint for endpoint in body["endpoints"]}
    decks = by_name["api:deck-list"]
    assert decks["url"] == "http://testserver/api/v1/decks/"
    assert decks["methods"] == {"GET": "Decks you can see", "POST": "Create a deck from a decklist"}
    assert by_name["api:deck-detail"]["url"] == "http://testserver/api/v1/decks/{pk}/"
    assert by_name["api:problem-detail"]["url"] == "http://testserver/api/v1/problems/{code}/"


def test_the_root_is_browsable(client):
    response = client.get("/api/v1/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Every endpoint of the API" in body
    assert "http://testserver/api/v1/decks/{pk}/" in body
    assert "Api Root" not in body  # not DRF's default router page
