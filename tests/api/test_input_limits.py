"""The API's limits (docs/api.md, *Limits*): JSON depth and size, Unicode, ids and numbers.

Each was a 500 before: a body of a few thousand "[" made ``json.loads`` recurse until a
RecursionError, and a version number of 2**63 overflowed SQLite's integers.
"""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

DEEP = "[" * 4096


@pytest.fixture
def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def post_json(client: APIClient, path: str, body: str | bytes):
    # DRF's test client sends bytes as they are; its stubs say str
    return client.generic("POST", path, body, content_type="application/json")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "path", ["/api/v1/validate/", "/api/v1/auth/token/", "/api/v1/formats/standard/check/"]
)
def test_deep_json_is_a_400_saying_where_for_anyone(api_client, path):
    response = post_json(api_client, path, DEEP)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "json-too-deep"
    assert body["type"].endswith("/api/v1/problems/json-too-deep/")
    assert (body["limit"], body["line"], body["column"], body["position"]) == (32, 1, 33, 32)
    assert (
        body["detail"] == "JSON nested deeper than 32 levels at line 1, column 33 (character 32)."
    )


def test_deep_json_to_an_endpoint_that_needs_a_token(token_client):
    nested = '{"game": "revolt-n-reign", "name": "Deep", "decklist": ' + DEEP
    response = post_json(token_client, "/api/v1/decks/", nested)

    assert response.status_code == 400
    assert response.json()["code"] == "json-too-deep"


def test_the_depth_limit_is_a_setting(api_client, settings):
    # {"decks": [{"cards": [{...}]}]} is 5 levels deep: the deepest request the API takes
    body = {"decks": [{"cards": [{"name": "Stamp Act", "quantity": 1}]}], "game": "revolt-n-reign"}
    assert (
        post_json(api_client, "/api/v1/formats/standard/check/", json.dumps(body)).status_code
        == 200
    )

    settings.API_JSON_MAX_DEPTH = 4
    response = post_json(api_client, "/api/v1/formats/standard/check/", json.dumps(body))
    assert response.status_code == 400
    assert response.json()["limit"] == 4


def test_a_body_over_the_json_cap_is_refused_with_the_limit(api_client, settings):
    settings.API_JSON_MAX_BYTES = 100
    response = post_json(api_client, "/api/v1/validate/", json.dumps({"decklist": "x" * 200}))

    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["limit"]) == ("body-too-large", 100)
    assert "larger than the 100 bytes" in body["detail"]


def test_a_body_over_djangos_upload_cap_is_the_same_problem(api_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = post_json(api_client, "/api/v1/validate/", json.dumps({"decklist": "x" * 200}))

    assert response.status_code == 400
    assert (response.json()["code"], response.json()["limit"]) == ("body-too-large", 100)


def test_a_lone_surrogate_is_refused_and_a_pair_is_read(api_client):
    lone = b'{"game": "revolt-n-reign", "cards": [{"name": "\\ud800", "quantity": 1}]}'
    response = post_json(api_client, "/api/v1/validate/", lone)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid-text"

    pair = b'{"game": "revolt-n-reign", "cards": [{"name": "\\ud83d\\ude00", "quantity": 1}]}'
    response = post_json(api_client, "/api/v1/validate/", pair)
    assert response.status_code == 200
    assert response.json()["violations"][0]["code"] in {"deck-size", "unknown-card"}


def test_nan_is_not_json(api_client):
    response = post_json(api_client, "/api/v1/validate/", b'{"game": NaN}')
    assert response.status_code == 400
    assert response.json()["code"] == "parse-error"


@pytest.mark.parametrize("code", ["json-too-deep", "body-too-large", "invalid-text"])
def test_the_new_problem_types_are_described(api_client, code):
    response = api_client.get(f"/api/v1/problems/{code}/")
    assert response.status_code == 200
    assert response.json()["status"] == 400


def test_version_numbers_beyond_the_column_are_a_400_naming_the_parameter(token_client):
    created = token_client.post(
        "/api/v1/decks/",
        {"game": "revolt-n-reign", "name": "D", "decklist": "1 Stamp Act"},
        format="json",
    )
    deck = created.json()["id"]
    for to in (2**31, 2**63, 10**30):
        response = token_client.get(f"/api/v1/decks/{deck}/diff/?from=1&to={to}")
        assert response.status_code == 400
        body = response.json()
        assert body["errors"][0]["field"] == "to"
        assert "2147483647" in body["detail"]


@pytest.mark.parametrize(
    "path", [f"/api/v1/decks/{2**63}/", f"/api/v1/events/{10**30}/", f"/api/v1/cards/{10**18}/"]
)
def test_ids_longer_than_18_digits_are_not_found(api_client, path):
    response = api_client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not-found"


def test_format_suffix_routes_are_not_served(api_client):
    assert api_client.get("/api/v1/decks.json").status_code == 404
    assert api_client.get("/api/v1/games/?format=json").status_code == 200


def test_a_nul_in_json_text_is_refused(api_client):
    response = post_json(api_client, "/api/v1/validate/", b'{"game": "revolt-n-reign\\u0000"}')
    assert response.status_code == 400
    assert response.json()["code"] == "invalid-text"
    assert "NUL" in response.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("get", "/api/v1/cards/autocomplete/", {"q": "sta", "game": "a\x00b"}),
        ("get", "/api/v1/formats/", {"game": "a\x00b"}),
        ("post", "/api/v1/validate/", {"game": "a\x00b", "decklist": "1 Stamp Act"}),
    ],
)
def test_a_nul_in_a_parameter_is_a_400_naming_it(api_client, method, path, data):
    # PostgreSQL cannot compare text holding a NUL: the lookup of the game was a 500 there
    response = getattr(api_client, method)(path, data)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation-error"
    assert body["errors"][0]["field"] == "game"
    assert "NUL" in body["detail"]


def test_a_nul_in_the_path_is_a_400_problem_naming_the_path(api_client):
    response = api_client.get("/api/v1/cards/a%00b/")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "path"
    assert "NUL" in response.json()["detail"]


def test_a_form_body_over_djangos_cap_is_the_same_problem(api_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = api_client.post("/api/v1/validate/", {"decklist": "x" * 200}, format="multipart")

    assert response.status_code == 400
    assert (response.json()["code"], response.json()["limit"]) == ("body-too-large", 100)
    assert "larger than the 100 bytes" in response.json()["detail"]


@pytest.mark.parametrize("size", ["0", "-3", "ten", "2.5"])
@pytest.mark.parametrize("path", ["/api/v1/cards/", "/api/v1/decks/"])
def test_a_page_size_that_is_not_one_is_a_400_naming_it(token_client, path, size):
    # DRF alone answers these with 50 items and no word why
    response = token_client.get(path, {"page_size": size})

    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "page_size" and error["code"] == "invalid"
    assert repr(size) in error["detail"] and "1 to 200" in error["detail"]


def test_a_page_size_past_the_cap_is_cut_to_it_and_an_empty_one_is_the_default(
    token_client, generated_cards, monkeypatch
):
    from api.pagination import PageNumberPagination
    from tests.conftest import GENERATED_GAME

    monkeypatch.setattr(PageNumberPagination, "max_page_size", 20)
    game = {"game": GENERATED_GAME}
    capped = token_client.get("/api/v1/cards/", {**game, "page_size": "100000"}).json()
    default = token_client.get("/api/v1/cards/", {**game, "page_size": ""}).json()

    assert len(capped["results"]) == 20 and capped["next"] is not None
    assert len(default["results"]) == 50 and default["count"] == 60


def test_a_number_of_thousands_of_digits_is_a_400_saying_where(api_client):
    quantity = "9" * 5000
    decklist = '{"cards": [{"name": "Grain Tithe", "quantity": ' + quantity + "}]}"
    in_a_list = api_client.post(
        "/api/v1/validate/",
        {"game": "rival-realms", "kind": "json", "decklist": decklist},
        format="json",
    )
    in_the_body = post_json(api_client, "/api/v1/validate/", '{"game": ' + quantity + "}")

    assert in_a_list.status_code == 400 and in_the_body.status_code == 400
    assert "5,000 digits at line 1, column 48" in in_a_list.content.decode()
    body = in_the_body.json()
    assert body["code"] == "parse-error" and (body["line"], body["column"]) == (1, 10)
    assert "set_int_max_str_digits" not in body["detail"]


@pytest.mark.parametrize("day", ["2026-02-30", "2026-13-01", "2025-02-29"])
def test_a_well_written_day_the_calendar_lacks_is_named_so(api_client, day):
    # DRF called it a wrong format ("Use one of these formats instead: YYYY-MM-DD")
    body = {"game": "revolt-n-reign", "as_of": day, "decklist": "1 Stamp Act"}
    response = api_client.post("/api/v1/validate/", body, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "as_of" and error["code"] == "invalid"
    assert f"{day} is written as a date but is no day of the calendar" in error["detail"]
    other = {**body, "as_of": "30/02/2026"}
    worded = api_client.post("/api/v1/validate/", other, format="json").json()["errors"][0]
    assert "wrong format" in worded["detail"]  # a day written otherwise: DRF's words stay
    leap = {**body, "as_of": "2024-02-29"}
    assert api_client.post("/api/v1/validate/", leap, format="json").status_code == 200
