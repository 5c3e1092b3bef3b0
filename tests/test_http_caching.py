"""HTTP caching of the anonymous catalogue (decks/httpcache.py): ETag and 304, Cache-Control,
and the shared response cache, on the default cache and on Redis where it runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import RequestFactory
from django.urls import resolve

from cards.models import Card
from decks.httpcache import (
    CACHE_HEADER,
    CATALOGUE_ROUTES,
    CatalogueCacheMiddleware,
    response_key,
)
from tests.counter_stores import redis_reason, redis_test_url

REDIS_URL = redis_test_url("http_caching")  # this file's own Redis database, flushed only here
GAME = "revolt-n-reign"


@pytest.fixture(params=["default", pytest.param("redis", marks=pytest.mark.redis)])
def response_cache(request, settings) -> Iterator[str]:
    """The response cache on, in the default cache as configured (this process's memory) or in
    Redis (skipped with the reason where Redis is absent); empty at the start."""
    if request.param == "redis":
        reason = redis_reason(REDIS_URL)
        if reason:
            pytest.skip(reason)
        settings.CACHES = {
            **settings.CACHES,
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": REDIS_URL,
            },
        }
    settings.RESPONSE_CACHE_SECONDS = 600
    cache.clear()
    yield request.param
    if request.param == "redis":
        cache.clear()


@pytest.fixture
def card(db) -> Card:
    found = Card.objects.filter(game__slug=GAME).order_by("pk").first()
    assert found is not None
    return found


def catalogue_urls(card: Card) -> list[str]:
    return [
        card.get_absolute_url(),
        f"/api/v1/cards/{card.pk}/",
        "/api/v1/cards/?q=t%3Aattack+b%3Aeagle&game=revolt-n-reign",
        "/cards/?q=t%3Aattack&game=revolt-n-reign",
        f"/games/{GAME}/",
    ]


def test_a_second_anonymous_get_comes_from_the_cache_byte_for_byte(client, card, response_cache):
    for url in catalogue_urls(card):
        # when an anonymous client asks twice
        first = client.get(url)
        second = client.get(url)
        # then the first was drawn and stored, the second read back, identical
        assert first.status_code == 200, url
        assert first[CACHE_HEADER] == "miss", url
        assert second[CACHE_HEADER] == "hit", url
        assert second.content == first.content, url
        assert second["ETag"] == first["ETag"]
        assert second["Content-Type"] == first["Content-Type"]
        assert first["Cache-Control"].startswith("public, max-age=")
        assert second["Cache-Control"] == first["Cache-Control"]
        assert "Cookie" in second["Vary"]
        assert not first.cookies, url


def test_parameter_order_does_not_split_the_cache(client, card, response_cache):
    first = client.get("/api/v1/cards/?game=revolt-n-reign&q=t%3Aattack")
    second = client.get("/api/v1/cards/?q=t%3Aattack&game=revolt-n-reign")
    assert (first[CACHE_HEADER], second[CACHE_HEADER]) == ("miss", "hit")


def test_a_value_holding_an_ampersand_is_not_two_parameters():
    # "q=a&game=b" as one value, then as two parameters: two different requests, two keys
    factory = RequestFactory()
    one = factory.get("/api/v1/cards/?q=a%26game%3Db")
    two = factory.get("/api/v1/cards/?q=a&game=b")
    reordered = factory.get("/api/v1/cards/?game=b&q=a")
    keys = [
        response_key(request, CATALOGUE_ROUTES["api:card-list"], "1.0")
        for request in (one, two, reordered)
    ]
    assert keys[0] != keys[1]
    assert keys[1] == keys[2]


def test_a_card_saved_makes_the_next_get_a_miss_with_the_new_content(client, card, response_cache):
    urls = [card.get_absolute_url(), f"/api/v1/cards/{card.pk}/"]
    before = {url: client.get(url) for url in urls}
    assert all(client.get(url)[CACHE_HEADER] == "hit" for url in urls)
    # when the card changes through its normal save path (the signal bumps the generation)
    card.flavor_text = "Printed in a hurry, read at leisure."
    card.save()
    for url in urls:
        after = client.get(url)
        # then the old copy is no longer read: a miss, with the new text and a new ETag
        assert after[CACHE_HEADER] == "miss", url
        assert b"Printed in a hurry, read at leisure." in after.content, url
        assert after["ETag"] != before[url]["ETag"]
        assert client.get(url)[CACHE_HEADER] == "hit"


def test_just_after_a_change_answers_are_drawn_but_not_kept(client, card, settings, response_cache):
    # given a process that waits a moment after a catalogue change before keeping answers
    settings.CATALOGUE_SETTLE_SECONDS = 60
    url = f"/api/v1/cards/{card.pk}/"
    card.flavor_text = "Fresh ink."
    card.save()
    # when the change is seen, then for that moment nothing is stored nor validated
    for _ in range(2):
        answer = client.get(url)
        assert answer[CACHE_HEADER] == "bypass"
        assert b"Fresh ink." in answer.content
        assert "public" not in answer["Cache-Control"]
    # and once it has settled, answers are kept again
    settings.CATALOGUE_SETTLE_SECONDS = 0
    assert client.get(url)[CACHE_HEADER] == "miss"
    assert client.get(url)[CACHE_HEADER] == "hit"


def test_a_signed_in_page_is_never_cached_nor_public(
    client, card, response_cache, django_user_model
):
    url = card.get_absolute_url()
    assert client.get(url)[CACHE_HEADER] == "miss"  # an anonymous copy is stored
    user = django_user_model.objects.create_user("carol", password="pw-carol-123")
    client.force_login(user)
    for _ in range(2):
        page = client.get(url)
        assert page.status_code == 200
        assert CACHE_HEADER not in page  # neither read from the cache nor stored
        assert "public" not in page["Cache-Control"]
        assert "private" in page["Cache-Control"]
        assert "ETag" not in page
        assert b"Log out carol" in page.content
    # and the anonymous copy is still the anonymous one
    client.logout()
    anonymous = client.get(url)
    assert anonymous[CACHE_HEADER] == "hit"
    assert b"carol" not in anonymous.content


def test_an_api_client_with_a_token_is_answered_privately(client, card, response_cache):
    url = f"/api/v1/cards/{card.pk}/"
    client.get(url)
    answer = client.get(url, HTTP_AUTHORIZATION="Token not-a-real-one")
    assert answer.status_code == 401  # the view ran: the token was checked, not the cache
    assert CACHE_HEADER not in answer
    assert "public" not in answer.get("Cache-Control", "")


@pytest.mark.parametrize("cached", [False, True], ids=["no-response-cache", "response-cache"])
def test_if_none_match_with_the_current_etag_is_a_304_without_a_body(
    client, card, settings, cached, django_assert_num_queries
):
    settings.RESPONSE_CACHE_SECONDS = 600 if cached else 0
    for url in (card.get_absolute_url(), f"/api/v1/cards/{card.pk}/", "/api/v1/cards/?q=eagle"):
        etag = client.get(url)["ETag"]
        assert etag.startswith('W/"')
        # when the client sends back the ETag it holds
        with django_assert_num_queries(0):
            again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        # then nothing is drawn: 304, no body, the same validator
        assert again.status_code == 304, url
        assert again.content == b""
        assert again["ETag"] == etag
        assert again["Cache-Control"].startswith("public")
        # and a stale ETag gets the page
        stale = client.get(url, HTTP_IF_NONE_MATCH='W/"0123456789abcdef"')
        assert stale.status_code == 200, url
        assert stale["ETag"] == etag


def test_an_etag_goes_stale_when_the_catalogue_changes(client, card):
    url = f"/api/v1/cards/{card.pk}/"
    etag = client.get(url)["ETag"]
    card.flavor_text = "A second printing."
    card.save()
    answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    assert answer["ETag"] != etag


def test_the_browsable_api_which_carries_a_csrf_token_is_not_cached(client, card, response_cache):
    url = f"/api/v1/cards/{card.pk}/"
    for _ in range(2):
        page = client.get(url, HTTP_ACCEPT="text/html")
        assert page.status_code == 200
        assert page["Content-Type"].startswith("text/html")
        assert page[CACHE_HEADER] == "bypass"
        assert "public" not in page["Cache-Control"]
        assert not page.get("ETag", "").startswith("W/")  # none of the catalogue's validators


def _through_middleware(url: str, view_response, **headers) -> HttpResponse:
    request = RequestFactory().get(url, **headers)
    request.resolver_match = resolve(url)
    request.user = AnonymousUser()
    middleware = CatalogueCacheMiddleware(lambda req: view_response(req))
    answered = middleware.process_view(request, None, (), {})
    if answered is not None:
        request._catalogue_cache.answered = True  # type: ignore[attr-defined]  # the middleware's
        response = middleware.__class__(lambda req: answered)(request)
    else:
        response = middleware(request)
    assert isinstance(response, HttpResponse)
    return response


def test_an_answer_that_sets_a_cookie_or_renders_a_csrf_token_is_not_stored(
    db, card, response_cache
):
    url = card.get_absolute_url()

    def sets_a_cookie(request):
        response = HttpResponse("<p>hello</p>", content_type="text/html")
        response.set_cookie("seen", "1")
        return response

    def renders_a_token(request):
        return HttpResponse(f"<p>{get_token(request)}</p>", content_type="text/html")

    for view in (sets_a_cookie, renders_a_token):
        for _ in range(2):
            answer = _through_middleware(url, view)
            assert answer[CACHE_HEADER] == "bypass"
            assert answer["Cache-Control"] == "private, no-cache"
            assert "ETag" not in answer


def test_errors_and_other_methods_are_not_cached(client, card, response_cache):
    missing = f"/games/{GAME}/cards/no-such-card-at-all/"
    for _ in range(2):
        assert CACHE_HEADER not in client.get(missing)
    bad_query = "/api/v1/cards/?q=%28%28"
    for _ in range(2):
        answer = client.get(bad_query)
        assert answer.status_code == 400
        assert CACHE_HEADER not in answer
    posted = client.post("/api/v1/cards/", {})
    assert CACHE_HEADER not in posted
    assert client.get("/api/v1/cards/")[CACHE_HEADER] == "miss"


def test_a_pending_message_keeps_the_page_private(client, card, response_cache):
    url = card.get_absolute_url()
    client.get(url)
    client.cookies["messages"] = "anything"
    answer = client.get(url)
    assert CACHE_HEADER not in answer
    assert "public" not in answer["Cache-Control"]


def test_the_openapi_schema_documents_the_304_of_catalogue_reads_only(client, db):
    paths = client.get("/api/v1/schema/?format=json").json()["paths"]
    for path in ("/api/v1/cards/", "/api/v1/cards/{id}/", "/api/v1/games/"):
        responses = paths[path]["get"]["responses"]
        assert "304" in responses, path
        assert "ETag" in responses["200"]["headers"]
    assert "304" not in paths["/api/v1/decks/"]["get"]["responses"]
    assert "304" not in paths["/api/v1/decks/"]["post"]["responses"]
