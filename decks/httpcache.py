"""HTTP caching of the public catalogue: validators, ``Cache-Control`` and a shared response cache.

The catalogue (cards, their vocabularies, sets, games and formats) changes only when game data is
loaded or edited, and every such write already moves a generation counter in the Django cache
(``cards.caching``: the card detail rows' counter, which every card and vocabulary write bumps,
and the format rules' counter). An anonymous answer of a catalogue route is therefore a function
of the request's URL, the few headers its body depends on, and those two counters. So, for the
routes in ``CATALOGUE_ROUTES``, before the view runs:

- the validator (a weak ``ETag``) is computed from that key; ``If-None-Match`` with it is a
  ``304 Not Modified`` without running the view;
- the shared response cache (the ``default`` cache, Redis when ``REDIS_URL`` is set) is read by
  that key; a hit is answered from it (``X-Deckwright-Cache: hit``). A write to the catalogue
  moves the counters, so old entries are simply no longer read and expire on their own.

Anything private never takes part: a request carrying ``Authorization``, a signed-in session or a
pending message gets ``Cache-Control: private, no-cache`` and is neither read from nor stored in
the cache; a response is stored only when it is a 200 that set no cookie, used no CSRF token and
did not change the session (``_storable``), and not in the moment just after a change
(``_settled``). Public answers say ``Cache-Control: public,
max-age=CATALOGUE_MAX_AGE, stale-while-revalidate=...`` and ``Vary`` on what their body depends on.
docs/api.md ("Caching and conditional requests") and docs/deploy.md describe it for clients and
proxies.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from cards.selectors import DETAIL_GENERATION_KEY, card_detail_rows_forget_local
from cards.vocabulary import vocabularies_forget_local
from decks.validation.formats import GENERATION_KEY as FORMATS_GENERATION_KEY
from decks.validation.formats import format_rules_forget_local
from decks.validation.index import card_index_forget_local

CACHE_HEADER = "X-Deckwright-Cache"
KEY_PREFIX = "http-response"

#: the counters a catalogue answer depends on: every card and vocabulary write bumps the first
#: (``cards.signals``), every format (and set) write the second (``decks.signals``)
GENERATION_KEYS = (DETAIL_GENERATION_KEY, FORMATS_GENERATION_KEY)

#: headers of a stored answer given back on a hit (the rest are added again on the way out)
STORED_HEADERS = ("Content-Type", "Content-Language", "Allow", "Link")


@dataclass(frozen=True)
class Route:
    """How one catalogue route's body depends on the request, beyond its URL."""

    api: bool  # negotiated by Accept (DRF); only JSON is public, never the browsable HTML
    lists_decks: bool = False  # also shows public decks, which move no catalogue counter


WEB = Route(api=False)
API = Route(api=True)

#: URL names of the catalogue's answers (``request.resolver_match.view_name``)
CATALOGUE_ROUTES: dict[str, Route] = {
    "card-detail": Route(api=False, lists_decks=True),
    "game-detail": WEB,
    "card-browser": WEB,
    "api:card-list": API,
    "api:card-detail": API,
    "api:card-named": API,
    "api:card-autocomplete": API,
    "api:game-list": API,
    "api:game-detail": API,
    "api:set-list": API,
    "api:card-type-list": API,
    "api:branch-list": API,
    "api:rarity-list": API,
    "api:subtype-list": API,
}

VARY_WEB = ("Cookie", "HX-Request")
VARY_API = ("Accept", "Authorization", "Cookie")


@dataclass
class _State:
    route: Route
    private: bool
    key: str = ""
    etag: str = ""
    answered: bool = False  # a 304 or a cache hit: nothing to store
    settled: bool = True  # False just after a catalogue change (``_settled``): draw, keep nothing


def catalogue_generation() -> str:
    """The catalogue's generation: the counters of ``GENERATION_KEYS``, in one cache read.

    A counter that is missing (never bumped, or the cache was flushed or restarted) is started at
    a random value rather than 0, so that a generation never comes back after a flush: an ETag a
    browser kept from before it cannot match a different catalogue after it.
    """
    found = cache.get_many(GENERATION_KEYS)
    if len(found) < len(GENERATION_KEYS):
        for key in GENERATION_KEYS:
            if key not in found:
                cache.add(key, secrets.randbelow(2**40) + 1, None)
        found = cache.get_many(GENERATION_KEYS)
    return ".".join(str(int(found.get(key, 0))) for key in GENERATION_KEYS)


# The generation this process saw last, since when, and whether it has settled (``_settled``).
_seen: dict[str, Any] = {"generation": None, "since": 0.0, "settled": False}


def _forget_memos() -> None:
    for forget in (
        card_detail_rows_forget_local,
        vocabularies_forget_local,
        card_index_forget_local,
        format_rules_forget_local,
    ):
        forget()


def _settled(generation: str) -> bool:
    """False for ``CATALOGUE_SETTLE_SECONDS`` after this process first sees ``generation``.

    A counter is bumped when a row is saved, before its transaction commits, and the other
    processes' memos look at it at most once a second; an answer drawn just then may show the old
    rows under the new generation, and stored (or given its ETag) it would stay wrong until the
    next change. So for a moment after a change answers are drawn but neither stored nor given a
    validator, and this process's memos are dropped when the change is seen and again when it has
    settled, so that what is stored afterwards was read from the committed rows.
    """
    settle = settings.CATALOGUE_SETTLE_SECONDS
    if settle <= 0:  # one process, or tests: nothing to wait for, the memos are current
        return True
    now = time.monotonic()
    if generation != _seen["generation"]:
        _seen.update(generation=generation, since=now, settled=False)
        _forget_memos()
    if _seen["settled"]:
        return True
    if now - _seen["since"] < settle:
        return False
    _seen["settled"] = True
    _forget_memos()
    return True


def _is_private(request: HttpRequest) -> bool:
    """True when the answer may depend on who asks (or consumes something of theirs)."""
    if "HTTP_AUTHORIZATION" in request.META:
        return True
    if CookieStorage.cookie_name in request.COOKIES:
        return True  # a pending message is shown (and consumed) by the next page
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


def _normalised_query(request: HttpRequest) -> str:
    """The query string with its parameters sorted by name (values of one name keep their
    order, since a view reads the last of them), so ``?b=1&a=2`` and ``?a=2&b=1`` share a key."""
    pairs = [(name, value) for name, values in request.GET.lists() for value in values]
    pairs.sort(key=lambda pair: pair[0])
    return urlencode(pairs)  # encoded: a value holding "&" or "=" cannot pass for two


def response_key(request: HttpRequest, route: Route, generation: str) -> str:
    """The cache key (and the ETag's source) of an anonymous answer to ``request``."""
    parts = [
        request.scheme or "",
        request.get_host(),
        request.path,
        _normalised_query(request),
    ]
    if route.api:
        parts.append("accept=" + request.headers.get("Accept", "").replace(" ", "").lower())
    else:
        parts.append("hx=" + request.headers.get("HX-Request", ""))
        parts.append("hx-restore=" + request.headers.get("HX-History-Restore-Request", ""))
        parts.append("hx-target=" + request.headers.get("HX-Target", ""))
    if route.lists_decks:
        # Public decks come and go without the catalogue's counters moving: the key rolls over
        # every DECK_LISTS_SECONDS, so a listing is at most that old.
        parts.append(f"decks={int(time.time() // max(settings.DECK_LISTS_SECONDS, 1))}")
    digest = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{KEY_PREFIX}:{generation}:{digest[:40]}"


def _etag(key: str) -> str:
    return f'W/"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def public_cache_control() -> str:
    max_age = settings.CATALOGUE_MAX_AGE
    return f"public, max-age={max_age}, stale-while-revalidate={max_age}"


def _matches(request: HttpRequest, etag: str) -> bool:
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    wanted = etag.removeprefix("W/")
    return any(tag == "*" or tag.removeprefix("W/") == wanted for tag in parse_etags(header))


def _storable(request: HttpRequest, response: HttpResponseBase, route: Route) -> bool:
    """True when ``response`` is the same for every anonymous client and holds nothing of one."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False  # a CSRF token was rendered (or a cookie is about to be set)
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return False
    control = response.get("Cache-Control", "")
    if "private" in control or "no-store" in control:
        return False
    content_type = response.get("Content-Type", "")
    wanted = "application/json" if route.api else "text/html"
    return content_type.startswith(wanted)


def _from_cache(entry: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(entry["content"], status=200)
    for name, value in entry["headers"].items():
        response[name] = value
    return response


class CatalogueCacheMiddleware:
    """Validators, ``Cache-Control`` and the shared response cache of ``CATALOGUE_ROUTES``.

    Sits after ``AuthenticationMiddleware`` (it asks whether the user is signed in) and inside
    the middlewares that add per-response headers (the CSP, ``X-Frame-Options``), which therefore
    apply to cached answers as to fresh ones.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        state: _State | None = getattr(request, "_catalogue_cache", None)
        if state is None:
            return response
        patch_vary_headers(response, VARY_API if state.route.api else VARY_WEB)
        if state.answered:
            return response
        if state.private:
            if response.status_code == 200:
                response["Cache-Control"] = "private, no-cache"
            return response
        if (
            not state.settled
            or not isinstance(response, HttpResponse)
            or not _storable(request, response, state.route)
        ):
            if response.status_code == 200:
                response["Cache-Control"] = "private, no-cache"
                response[CACHE_HEADER] = "bypass"
            return response
        response["ETag"] = state.etag
        response["Cache-Control"] = public_cache_control()
        response[CACHE_HEADER] = "miss"
        seconds = settings.RESPONSE_CACHE_SECONDS
        if seconds > 0 and request.method == "GET":
            headers = {name: response[name] for name in STORED_HEADERS if name in response}
            headers.update(
                {"ETag": state.etag, "Cache-Control": response["Cache-Control"]},
                Vary=response["Vary"],
            )
            entry = {"content": response.content, "headers": headers}
            cache.set(state.key, entry, seconds)
        return response

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> HttpResponseBase | None:
        match = request.resolver_match
        route = CATALOGUE_ROUTES.get(match.view_name) if match is not None else None
        if route is None or request.method not in ("GET", "HEAD"):
            return None
        request.catalogue_page = True  # type: ignore[attr-defined]  # base.html: no CSRF token
        private = _is_private(request)
        state = _State(route, private)
        request._catalogue_cache = state  # type: ignore[attr-defined]
        if private:
            return None
        generation = catalogue_generation()
        state.key = response_key(request, route, generation)
        state.etag = _etag(state.key)
        state.settled = _settled(generation)
        if not state.settled:
            return None
        if _matches(request, state.etag):
            state.answered = True
            not_modified = HttpResponseNotModified()
            not_modified["ETag"] = state.etag
            not_modified["Cache-Control"] = public_cache_control()
            not_modified[CACHE_HEADER] = "revalidated"
            return not_modified
        if settings.RESPONSE_CACHE_SECONDS > 0:
            entry = cache.get(state.key)
            if entry is not None:
                state.answered = True
                response = _from_cache(entry)
                response[CACHE_HEADER] = "hit"
                return response
        return None
