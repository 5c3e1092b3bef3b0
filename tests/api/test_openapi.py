"""The OpenAPI document and its docs page."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from drf_spectacular.validation import validate_schema
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

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
            for status in ("400", "401", "404", "406", "429", "500"):
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


def test_every_game_parameter_is_documented_as_text_naming_a_game_as_g_does(openapi):
    """A client generated from the schema sends ``?game=RNR`` as text: the card and set lists
    once documented it as an integer (the foreign key's), where the API reads a game's name."""
    games = [
        (path, parameter)
        for path, operations in openapi["paths"].items()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["name"] == "game" and parameter["in"] == "query"
    ]
    assert len(games) >= 8, games
    for path, parameter in games:
        assert parameter["schema"]["type"] == "string", path
        assert "short name" in parameter["description"], path


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


# The document is built once a process (api.views.meta.SchemaView): that is right only while it
# depends on nothing a request or the database can change. These tests hold that, and what the
# kept copy is served with.

JSON_ACCEPT = "application/vnd.oai.openapi+json"


def test_the_document_is_the_same_for_every_user_and_any_rows(api_client, django_user_model):
    """Built afresh each time: anonymous, signed in as a superuser, and with a new game, its
    vocabularies, a card and a format in the database give one document, so keeping one copy a
    process cannot show anyone another's, nor an old list of anything stored."""
    from api.views.meta import schemas_forget
    from decks.models import Format
    from tests.factories import CardFactory, SubtypeFactory

    schemas_forget()
    anonymous = api_client.get("/api/v1/schema/", HTTP_ACCEPT=JSON_ACCEPT).content
    schemas_forget()
    admin = django_user_model.objects.create_superuser("root", password="pw-root-123")
    api_client.force_authenticate(admin)
    signed_in = api_client.get("/api/v1/schema/", HTTP_ACCEPT=JSON_ACCEPT).content
    schemas_forget()
    card = CardFactory(name="Schema Probe")
    SubtypeFactory(game=card.game)
    Format.objects.create(game=card.game, slug="probe", name="Probe")
    with_rows = api_client.get("/api/v1/schema/", HTTP_ACCEPT=JSON_ACCEPT).content
    assert b"/api/v1/cards/" in anonymous
    assert signed_in == anonymous
    assert with_rows == anonymous


def test_the_kept_document_is_the_generators(openapi, api_client):
    import json

    api_client.get("/api/v1/schema/?format=json")
    kept = api_client.get("/api/v1/schema/?format=json")
    assert kept.json() == json.loads(json.dumps(openapi))
    assert kept["Content-Type"].startswith(JSON_ACCEPT)
    assert kept["Content-Disposition"] == 'inline; filename="Deckwright API.json"'
    yaml = api_client.get("/api/v1/schema/")
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi: 3.")


def test_a_browser_revalidates_the_document_and_gets_a_304(api_client):
    first = api_client.get("/api/v1/schema/?format=json")
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert "no-cache" in first["Cache-Control"]
    assert "Accept" in first["Vary"]
    again = api_client.get("/api/v1/schema/?format=json", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    stale = api_client.get("/api/v1/schema/?format=json", HTTP_IF_NONE_MATCH='"0123"')
    assert stale.status_code == 200
    assert stale.content == first.content
    yaml = api_client.get("/api/v1/schema/", HTTP_IF_NONE_MATCH=etag)
    assert yaml.status_code == 200 and yaml["ETag"] != etag


def test_each_language_gets_its_own_copy(api_client):
    english = api_client.get("/api/v1/schema/?format=json&lang=en")
    german = api_client.get("/api/v1/schema/?format=json&lang=de")
    assert german.status_code == english.status_code == 200
    assert german.content != english.content
    assert api_client.get("/api/v1/schema/?format=json&lang=de").content == german.content
    assert german["ETag"] != english["ETag"]


# NUL is refused by a middleware before any view (tests/test_hostile_inputs.py)
PARAMETER_TEXT = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")


@hypothesis_settings(max_examples=15, deadline=None)
@given(
    lang=st.text(PARAMETER_TEXT, min_size=1, max_size=12),
    version=st.text(PARAMETER_TEXT, max_size=8),
)
def test_no_request_makes_the_process_keep_more_copies(lang, version):
    """Any language and version are answered from one of a few copies (a format for each of
    LANGUAGES, at most): a client cannot grow the process's memory, nor break the document, by
    varying a parameter."""
    from django.core.cache import cache
    from django.test import Client

    from api.views.meta import schema_copies

    cache.clear()  # the anonymous throttle's counters: each example is a new visitor
    client = Client()
    known = client.get("/api/v1/schema/?format=json")
    assert known.status_code == 200
    versioned = client.get("/api/v1/schema/", {"format": "json", "version": version})
    assert versioned.status_code == 200
    assert versioned.content == known.content
    assert versioned["Content-Disposition"] == known["Content-Disposition"]
    kept = schema_copies()
    in_lang = client.get("/api/v1/schema/", {"format": "json", "lang": lang, "version": version})
    assert in_lang.status_code == 200
    try:  # the language Django would read from a browser's Accept-Language of ``lang``
        variant = translation.get_supported_language_variant(lang)
    except LookupError:
        variant = None
    if variant is None:
        assert in_lang.content == known.content
        assert schema_copies() == kept
    else:
        same = client.get("/api/v1/schema/", {"format": "json", "lang": variant.lower()})
        assert in_lang.content == same.content


@pytest.mark.parametrize(
    ("lang", "like"),
    [("de-at", "de"), ("DE", "de"), ("zz", None), ("de_at", None), ("x" * 300, None)],
)
def test_a_language_is_read_as_django_reads_one(api_client, lang, like):
    """``de-at`` and ``DE`` are German; a value Django does not know (``zz``, ``de_at``) gets
    the default language's document, never another language's under its name."""
    default = api_client.get("/api/v1/schema/", {"format": "json"})
    german = api_client.get("/api/v1/schema/", {"format": "json", "lang": "de"})
    assert german.content != default.content
    asked = api_client.get("/api/v1/schema/", {"format": "json", "lang": lang})
    assert asked.status_code == 200
    assert asked.content == (german if like == "de" else default).content


@pytest.mark.parametrize("version", ["\n", "2\r\nSet-Cookie: a=b", "\u0100", "😀"])
def test_a_version_parameter_is_not_read(api_client, version):
    """drf-spectacular copied ``?version=`` into the document and the file name of its
    Content-Disposition, where a newline was a 500 (Django refuses it in a header)."""
    response = api_client.get("/api/v1/schema/", {"format": "json", "version": version})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'inline; filename="Deckwright API.json"'
    assert response.json()["info"]["version"] == "1.0.0"


@pytest.mark.parametrize("page", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_options_on_a_docs_page_describes_it_in_json(client, page):
    response = client.options(page)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["renders"] == ["text/html"]


@pytest.mark.parametrize(
    ("page", "sends"),
    [
        ("/api/v1/docs/", "text/html"),
        ("/api/v1/redoc/", "text/html"),
        ("/api/v1/schema/", "application/vnd.oai.openapi"),
        ("/api/v1/cards/", "application/json"),
    ],
)
def test_a_406_is_a_problem_document_saying_what_the_page_sends(client, page, sends):
    response = client.get(page, HTTP_ACCEPT="image/png")
    assert response.status_code == 406
    assert response["Content-Type"] == "application/problem+json"
    detail = response.json()["detail"]
    assert "'image/png'" in detail and sends in detail.split("it sends ", 1)[1]


def test_the_page_size_is_documented_as_the_api_reads_it(openapi):
    [size] = [
        p
        for p in openapi["paths"]["/api/v1/cards/"]["get"]["parameters"]
        if p["name"] == "page_size"
    ]
    assert size["schema"] == {"type": "integer", "minimum": 1, "default": 50}
    assert "200" in size["description"]


def test_a_list_the_api_sends_whole_is_documented_as_one_array(openapi):
    operation = openapi["paths"]["/api/v1/events/{id}/registrations/"]["get"]
    assert "page" not in {p["name"] for p in operation.get("parameters", [])}
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["type"] == "array"
