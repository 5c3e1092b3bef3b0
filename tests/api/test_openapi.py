"""The OpenAPI document and its docs page."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def openapi(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def test_schema_is_valid_openapi_3(openapi):
    validate_schema(openapi)
    assert openapi["openapi"].startswith("3.")


def test_every_operation_documents_its_errors_as_problem_details(openapi):
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status in ("400", "401", "404", "429", "500"):
                content = responses[status]["content"]
                assert "application/problem+json" in content, (method, path, status)
                assert content["application/problem+json"]["examples"], (method, path, status)
            assert "Retry-After" in responses["429"]["headers"]


def test_card_list_documents_its_filters(openapi):
    names = {p["name"] for p in openapi["paths"]["/api/v1/cards/"]["get"]["parameters"]}
    assert {
        "q",
        "game",
        "type",
        "branch",
        "rarity",
        "set",
        "cost_min",
        "cost_max",
        "order",
    } <= names
    assert {"dir", "page", "page_size"} <= names


def test_schema_endpoint_serves_json(api_client):
    response = api_client.get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    assert "/api/v1/cards/" in response.json()["paths"]


@pytest.mark.parametrize("page", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_docs_pages_use_packaged_assets_and_no_other_host(client, page):
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert "drf_spectacular_sidecar" in html
    # No CDN, no web fonts, no validator badge: every URL the page names is on this server.
    assert re.findall(r"https?://[^\s\"'<>)]+", html) == []
    assert "fonts.googleapis" not in html and "validator.swagger.io" not in html


def test_swagger_ui_turns_off_the_online_validator(client):
    html = client.get("/api/v1/docs/").content.decode()
    assert '"validatorUrl": null' in html


def test_operations_that_read_a_body_document_the_415_they_give_for_other_media(
    openapi, api_client, user
):
    """A body in a media type no parser takes is refused with a 415 problem; every operation
    that reads a body says so in the schema (schemathesis found it undocumented)."""
    with_body = [
        (method, path)
        for path, operations in openapi["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    ]
    assert ("post", "/api/v1/decks/{id}/clone/") in with_body
    for method, path in with_body:
        assert "415" in openapi["paths"][path][method]["responses"], (method, path)
    assert "415" not in openapi["paths"]["/api/v1/cards/"]["get"]["responses"]

    api_client.force_authenticate(user)
    response = api_client.post("/api/v1/validate/", b'{"game": 1}', content_type="text/plain")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported-media-type"
    assert "text/plain" in response.json()["detail"]
