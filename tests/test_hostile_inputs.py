"""No input gives a 500: every URL pattern, every parameter it reads, hostile values.

The URL patterns come from ``get_resolver()`` (walked recursively), so a new route is swept without
editing this file; the parameters come from watching which query and form keys, file fields and
raw bodies each view reads, so a new parameter is swept too. Each pattern is requested anonymously
and signed in (a session for the pages, a token for the API; the user owns a deck, organises an
event, is registered to it and has a finished matchup job), and the admin's as a non-staff user
and as a superuser, with hostile path values, query values (all parameters at once, then each
alone with the others at a value the view accepts), form fields, files, JSON bodies and content
types. The admin's pages get fewer values (``ADMIN_PATH``, ``ADMIN_TEXT``) and no raw bodies: its
code is Django's, and the parsers it reads bodies with are swept on Deckwright's own routes. A
crash shows as a 500 (``raise_request_exception=False``) and the test lists every one with its
exception.

Run it on PostgreSQL too (``DATABASE_URL=postgres://...``): PostgreSQL refuses NUL bytes in text
where SQLite stores them, and its integer columns are 32-bit where SQLite's are 64-bit.
``-m "not slow"`` leaves out the admin's pages (Django's code, most of the sweep's time).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms import FileInput
from django.http import HttpRequest, QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from cards.models import Card
from decks.events.services import event_create, registration_submit
from decks.models import Event
from decks.selectors import format_default
from decks.services import deck_create, organiser_grant
from rules.lab.jobs import simulation_job_play_inline
from rules.lab.runner import background_wait
from rules.models import SimulationJob
from tests.factories import default_format
from tests.web.conftest import sample
from tests.web.test_matchup_runs import RELIGION_STANDARD

pytestmark = pytest.mark.django_db

RNR = "revolt-n-reign"
RVR = "regality-vs-religion"
DEEP = 4096

# Path segments: each replaces one parameter of a route (percent-encoded where it must be).
HOSTILE_PATH = [
    "0",
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(10**30),
    "-1",
    "1.5",
    "abc",
    "x" * 300,
    quote("\u202eevil"),
    quote("😀"),
    "%00",
    "%ED%A0%80",  # a lone surrogate as UTF-8 bytes: not valid UTF-8
    "..%2F..",
]
# The admin's own code gets fewer (it is Django's, and tested there).
ADMIN_PATH = [str(2**63), str(10**30), "abc", "%00", "%ED%A0%80"]
# Query and form values (text); each is sent alone for every parameter a view reads.
HOSTILE_TEXT = [
    "0",
    "-1",
    str(2**31),
    str(2**63),
    str(10**30),
    str(-(2**63) - 1),
    "1e3",
    "1.5",
    "abc",
    "",
    "\u202eevil\u202c",
    "😀",
    "a\x00b",
    "x" * 5000,
    "9" * 5000,  # more digits than int() reads (Python's int_max_str_digits)
    "\u0663",  # ARABIC-INDIC DIGIT THREE: str.isdigit() says yes, and int() reads it
    "\u00b2",  # SUPERSCRIPT TWO: str.isdigit() says yes, and int() refuses it
    "a\r\nX-Injected: 1",  # a value copied into a header (Django refuses newlines there: a 500)
    "5% %s %(x)s",  # a value copied into a message formatted with % (django-filter's: a 500)
]
# The admin's forms and filters get fewer (the admin's code is Django's; what is left still reaches
# what Deckwright adds there, its forms' checks and list filters: an overflow of each integer
# width, -1, text where a number goes, the empty string, a NUL, a long value, a digit that is not
# ASCII and a newline bound for a header). Taken from HOSTILE_TEXT, so it stays a part of it.
ADMIN_LEFT_OUT = {"0", str(-(2**63) - 1), "1e3", "1.5", "\u202eevil\u202c", "😀", "9" * 5000}
ADMIN_TEXT = [value for value in HOSTILE_TEXT if value not in ADMIN_LEFT_OUT]
# The values also sent in each parameter alone (the rest at once, in every parameter together).
ALONE_TEXT = [str(2**63), "-1", "abc", "a\x00b", "\u00b2"]
# Raw query strings that text values cannot express (undecodable bytes, repeated keys).
RAW_QUERY_SUFFIXES = ["=%ED%A0%80", "=%FF%FE", "=1&{key}=2", "[]=1", "=%00"]
NESTED_LIST = "[" * DEEP + "]" * DEEP
NESTED_OBJECT = '{"a":' * DEEP + "1" + "}" * DEEP
# Whole request bodies: (content type, bytes).
HOSTILE_BODIES: list[tuple[str, bytes | str]] = [
    ("application/json", b"[" * DEEP),
    ("application/json", NESTED_LIST.encode()),
    ("application/json", NESTED_OBJECT.encode()),
    ("application/json", b""),
    ("application/json", b"null"),
    ("application/json", b"[]"),
    ("application/json", b'"text"'),
    ("application/json", str(2**63).encode()),
    ("application/json", b'{"game": ' + b"9" * 5000 + b"}"),
    ("application/json", b"\xff\xfe{"),
    ("application/json", b'{"a": "\\ud800"}'),
    ("application/json", b"{" * 10),
    ("application/json; charset=latin-1", '{"name": "é"}'),
    ("text/plain", b'{"name": "x"}'),
    ("application/xml", b"<deck/>"),
    ("multipart/form-data", b"--x\r\n"),
    ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data\r\n\r\n"),
    ("application/x-www-form-urlencoded", b"name=%ED%A0%80&q=%FF"),
]
# JSON field values: each is sent alone for every field an endpoint reads.
HOSTILE_JSON_VALUES: list[Any] = [
    None,
    True,
    2**63,
    10**30,
    -1,
    1.5,
    "",
    "x" * 5000,
    "a\x00b",
    "\ud800",
    "\u202eevil",
    [],
    {},
    [[[[["deep"]]]]],
    {"a": {"b": {"c": {}}}},
]
NESTED_JSON_VALUE = "@nested@"  # replaced by NESTED_LIST in the serialised body
# Bodies shaped like real requests (validation, deck writes, format checks, registrations).
SHAPED_BODIES: list[Any] = [
    {"game": RNR, "cards": [{"name": "\ud800", "quantity": 2**63}]},
    {"game": RNR, "cards": [{"name": "a\x00b", "quantity": 1, "zone": NESTED_JSON_VALUE}]},
    {"game": RNR, "cards": {"name": "Stamp Act"}},
    {"game": RNR, "name": "a\x00b", "decklist": "1 Stamp Act\x00", "kind": "text"},
    {"game": RNR, "name": "deep", "decklist": "[" * DEEP, "kind": "json"},
    {"game": RNR, "name": "deep", "decklist": NESTED_LIST, "kind": "json"},
    # a quantity of more digits than int() reads (Python's int_max_str_digits): a 500 until
    # 2026-12-07, in a JSON decklist and in a JSON body
    {"game": RNR, "decklist": '{"cards": [{"name": "x", "quantity": ' + "9" * 5000 + "}]}"},
    {
        "game": RNR,
        "name": "csv",
        "decklist": "name,quantity\n\ud800,99999999999999999999",
        "kind": "csv",
    },
    {
        "game": RNR,
        "name": "x",
        "decklist": "1 Stamp Act",
        "format": "x" * 5000,
        "as_of": "9999-99-99",
    },
    {"game": RNR, "variant": "\x00", "decklist": "1 Stamp Act", "as_of": "0001-01-01"},
    {"game": ["list"], "decklist": {"a": 1}, "kind": 2**63},
    {
        "decks": [
            {"decklist": NESTED_LIST, "kind": "json"},
            {"cards": [{"name": "x", "quantity": 10**30}]},
        ]
    },
    {"decks": [1, "two", None, []]},
    {"decks": NESTED_JSON_VALUE},
    {"decklist": "[" * DEEP, "kind": "json"},
    {"username": "a\x00b", "password": "\ud800"},
    {"username": ["x"], "password": {"a": 1}},
    {"name": "a\x00b", "visibility": "public", "format": None},
    {
        "name": "Event",
        "game": RNR,
        "format": "standard",
        "date": "9999-12-31",
        "decklist_deadline": "99999-01-01T00:00:00Z",
    },
]
# Uploaded files: (name, content).
HOSTILE_FILES: list[tuple[str, bytes]] = [
    ("deck.json", b"[" * DEEP),
    ("deck.json", NESTED_LIST.encode()),
    ("deck.json", b'[{"name": "x", "quantity": ' + b"9" * 5000 + b"}]"),
    ("deck.json", b'{"cards": [{"name": "\\ud800", "quantity": 99999999999999999999}]}'),
    ("deck.txt", b"\xff\xfe\x00\x01"),
    ("deck.txt", b"1 Stamp Act\x00\n99999999999999999999 Tea Act\n"),
    ("deck.csv", b"name,quantity\n\x00,-1\n"),
    ("deck.txt", b""),
    ("\u202edeck.txt", b"1 Stamp Act\n"),
]


@dataclass
class World:
    """What the signed-in user owns, and the values that make each route resolve to something."""

    user: Any
    staff_user: Any
    token: str
    deck: Any
    event: Any
    run: Any
    card: Any
    anonymous: Client = field(default_factory=lambda: Client(raise_request_exception=False))
    signed_in: Client = field(default_factory=lambda: Client(raise_request_exception=False))
    staff: Client = field(default_factory=lambda: Client(raise_request_exception=False))


@pytest.fixture(autouse=True)
def _no_throttling(settings) -> None:
    """The sweep sends thousands of requests: throttling would answer most of them with a 429."""
    rates = {"anon": "1000000/minute", "user": "1000000/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture(scope="module")
def world_data(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once for the module (a matchup job and decks take a while), outside the tests'
    transactions, and deleted at the end; each test rolls back what it changed."""
    with django_db_blocker.unblock():
        built = _build_world()
    yield built
    with django_db_blocker.unblock():
        Event.objects.filter(pk=built.event.pk).delete()
        get_user_model().objects.filter(pk__in=[built.user.pk, built.staff_user.pk]).delete()
        Session.objects.all().delete()


@pytest.fixture
def world(world_data: World) -> World:
    """The world, with its clients signed in afresh (a sweep of the logout page signs out)."""
    world_data.signed_in.force_login(world_data.user)
    world_data.staff.force_login(world_data.staff_user)
    return world_data


def _build_world() -> World:
    user = get_user_model().objects.create_user("mallory", "m@example.com", "pw-hostile-123")
    organiser_grant(user=user)
    deck = deck_create(
        owner=user,
        game=RNR,
        name="Eagle Control",
        decklist=sample(RNR, "legal-eagle-control"),
        format=default_format(RNR),
        visibility="public",
    )
    event = event_create(
        organiser=user,
        game=deck.game,
        format=default_format(RNR),
        name="Open",
        date=dt.date.today() + dt.timedelta(days=7),
        decklist_deadline=timezone.now() + dt.timedelta(days=3),
    )
    registration_submit(event=event, player=user, decklist=sample(RNR, "legal-eagle-control"))
    run = _finished_run(user)
    token = Token.objects.create(user=user).key
    staff_user = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root")
    built = World(
        user=user,
        staff_user=staff_user,
        token=token,
        deck=deck,
        event=event,
        run=run,
        card=Card.objects.first(),
    )
    built.signed_in.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
    return built


def _finished_run(user: Any) -> SimulationJob:
    """A finished two-game matchup of random agents (Regality vs Religion games are quick)."""
    client = Client()
    client.force_login(user)
    decks = []
    for name, text in [
        ("King's Court", sample(RVR, "legal-regality-standard")),
        ("Temple Guard", RELIGION_STANDARD),
    ]:
        decks.append(
            deck_create(
                owner=user,
                game=RVR,
                name=name,
                decklist=text,
                format=format_default(RVR),
                variant="standard",
            )
        )
    data = {
        "deck_a": decks[0].pk,
        "deck_b": decks[1].pk,
        "agent_a": "random",
        "agent_b": "random",
        "games": 2,
        "seed": 1,
    }
    response = client.post("/matchups/", data)
    assert response.status_code == 302, response.content[:500]
    job = SimulationJob.objects.get(owner=user, kind="matchup")
    # committed: the background runner plays it; play it here once the runner is done
    assert background_wait(("job", job.pk), timeout=120)
    # as if migration 0009 had made it of a matchup run of the same id: the old links lead here
    SimulationJob.objects.filter(pk=job.pk).update(legacy_run=job.pk)
    return simulation_job_play_inline(job_id=job.pk)


# --- the routes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One URL pattern, with the full regex from the site root and its parameters' names."""

    regex: str
    name: str
    params: tuple[str, ...]
    ours: bool  # served by Deckwright's own code (not the admin's, DRF's or drf-spectacular's)

    @property
    def label(self) -> str:
        return f"{self.name or '-'}:{self.regex}"


OUR_APPS = ("api.", "cards.", "decks.", "rules.", "web.", "deckwright.")


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[Route]:
    for pattern in patterns:
        regex = prefix + pattern.pattern.regex.pattern.lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, _strip_end(regex))
        elif isinstance(pattern, URLPattern):
            params = tuple(re.findall(r"\(\?P<(\w+)>", regex))
            view = pattern.callback
            view = getattr(view, "cls", None) or getattr(view, "view_class", None) or view
            ours = view.__module__.startswith(OUR_APPS)
            yield Route(_strip_end(regex), pattern.name or "", params, ours)


def _strip_end(regex: str) -> str:
    return re.sub(r"(\\Z|\$)$", "", regex)


ROUTES = list(dict.fromkeys(_walk(get_resolver().url_patterns)))


def _fill(route: Route, values: dict[str, str]) -> str:
    """The route's path with each named group replaced by its value."""
    text = route.regex
    for name in route.params:
        start = text.index(f"(?P<{name}>")
        depth, end = 0, start
        for end in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0) if text[end - 1] != "\\" else 0
            if depth == 0:
                break
        text = text[:start] + values[name] + text[end + 1 :]
    text = text.replace("/?", "/").replace("\\", "")
    return "/" + text


def _valid(route: Route, name: str, world: World) -> str:
    """A value of a path parameter that names something the signed-in user may see."""
    path = route.regex
    if name in ("pk", "object_id"):
        for prefix, obj in [
            ("decks", world.deck),
            ("events", world.event),
            ("matchups", world.run),
            ("simulations", world.run),
            ("cards", world.card),
        ]:
            if path.startswith(prefix) or f"/{prefix}" in path or f"^{prefix}" in path:
                return str(obj.pk)
        return str(world.deck.pk)
    if name == "slug" and "cards" in path:
        return world.card.slug
    return {
        "number": "1",
        "slug": "standard" if "formats" in path else RNR,
        "game": RNR,
        "code": "validation-error",
        "format": "json",
        "kind": "json",
        "digest": "0" * 16,
        "app_label": "decks",
        "content_type_id": "1",
        "uidb64": "MQ",
        "token": "set-password",
        "url": "decks/deck/",
    }.get(name, "1")


# --- watching which parameters a view reads -----------------------------------------------------

_READ: set[str] = set()
_ORIGINAL = {
    name: getattr(MultiValueDict, name)
    for name in ("__getitem__", "get", "getlist", "__contains__")
}
_ORIGINAL_FILE_INPUT = FileInput.value_from_datadict
_ORIGINAL_BODY: property = vars(HttpRequest)["body"]
BODY_READ = "<body>"


def _watched_body(self: HttpRequest) -> bytes:
    _READ.add(BODY_READ)
    assert _ORIGINAL_BODY.fget is not None
    return _ORIGINAL_BODY.fget(self)


def _watching(name: str) -> Any:
    original = _ORIGINAL[name]

    def watched(self: MultiValueDict, key: Any, *args: Any) -> Any:
        # only a request's GET and POST (URL reversing keeps a MultiValueDict of its own)
        if isinstance(self, QueryDict) and isinstance(key, str):
            _READ.add(key)
        return original(self, key, *args)

    return watched


def _watching_files(self: FileInput, data: Any, files: Any, name: str) -> Any:
    _READ.add(FILE_KEY_MARK + name)
    return _ORIGINAL_FILE_INPUT(self, data, files, name)


FILE_KEY_MARK = "file:"


@pytest.fixture
def watch_reads() -> Iterator[set[str]]:
    for name in _ORIGINAL:
        setattr(MultiValueDict, name, _watching(name))
    setattr(FileInput, "value_from_datadict", _watching_files)  # noqa: B010 (a spy)
    setattr(HttpRequest, "body", property(_watched_body))  # noqa: B010
    try:
        yield _READ
    finally:
        for name, original in _ORIGINAL.items():
            setattr(MultiValueDict, name, original)
        setattr(FileInput, "value_from_datadict", _ORIGINAL_FILE_INPUT)  # noqa: B010
        setattr(HttpRequest, "body", _ORIGINAL_BODY)  # noqa: B010
        _READ.clear()


# --- the sweep --------------------------------------------------------------------------------


@dataclass
class Sweep:
    route: Route
    crashes: list[str] = field(default_factory=list)
    requests: int = 0
    # (method, keys) already swept one parameter at a time: a second client whose view reads
    # the same keys gets only the all-at-once pass (the sweep's time goes to new code paths)
    alone: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)

    def first_alone(self, method: str, keys: list[str]) -> bool:
        seen = (method, tuple(keys))
        fresh = self.route.ours and seen not in self.alone
        self.alone.add(seen)
        return fresh

    def send(self, client: Client, who: str, method: str, path: str, **kwargs: Any) -> Any:
        self.requests += 1
        response = getattr(client, method)(path, **kwargs)
        if response.status_code >= 500:
            error = getattr(response, "exc_info", None)
            cause = f"{error[0].__name__}: {error[1]}"[:300] if error else "no exception"
            shown = {k: repr(v)[:100] for k, v in kwargs.items()}
            self.crashes.append(f"{who} {method.upper()} {path[:150]} {shown} -> {cause}")
        return response


@dataclass
class Reads:
    """What a view read from a request: query or form keys, file fields, the raw body; and
    ``filler``, the keys that may all be "1" at once without the view refusing the request (so
    one hostile value at a time is not hidden behind another parameter's 400)."""

    keys: list[str]
    files: list[str]
    body: bool
    filler: dict[str, str]


UNREAD = "unread-probe"  # makes request.GET/POST non-empty, as `request.GET or None` forms need


def _send_data(sweep: Sweep, client: Client, who: str, method: str, path: str, data: Any) -> Any:
    if method in ("get", "post"):
        return sweep.send(client, who, method, path, data=data)
    # the test client sends PUT and PATCH data as is: encode the form
    form = "application/x-www-form-urlencoded"
    return sweep.send(client, who, method, path, data=urlencode(data), content_type=form)


def _reads(sweep: Sweep, client: Client, who: str, method: str, path: str) -> Reads:
    """Every key the view reads, found by asking until no new key turns up."""
    found: set[str] = set()
    for data in ({}, {UNREAD: "1"}):
        for _ in range(3):
            _READ.clear()
            _send_data(sweep, client, who, method, path, data)
            new = _READ - found - {"csrfmiddlewaretoken", UNREAD}
            found |= new
            if not new:
                break
            data = {UNREAD: "1", **{k: "1" for k in found if not k.startswith(("file:", "<"))}}
    _READ.clear()
    keys = sorted(k for k in found if not k.startswith((FILE_KEY_MARK, BODY_READ)))
    filler = dict.fromkeys(keys, "1")
    if (
        keys and _send_data(sweep, client, who, method, path, filler).status_code >= 400
    ):  # one key that breaks the rest (DRF's ?format=1) is left out
        for key in keys:
            fewer = {k: v for k, v in filler.items() if k != key}
            if _send_data(sweep, client, who, method, path, fewer).status_code < 400:
                filler = fewer
                break
        else:
            filler = {}
    files = sorted(k.removeprefix(FILE_KEY_MARK) for k in found if k.startswith(FILE_KEY_MARK))
    return Reads(keys, files, BODY_READ in found, filler)


def _query(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{quote(key)}={quote(value)}" for key, value in pairs)


def _sweep_route(route: Route, world: World) -> Sweep:
    sweep = Sweep(route)
    admin = route.regex.startswith("admin/")
    clients = [("anonymous", world.anonymous), ("signed-in", world.signed_in)]
    segments, texts = HOSTILE_PATH, HOSTILE_TEXT
    if admin:
        # the admin sends anyone but staff to its login page: one such client is enough
        clients = [("signed-in", world.signed_in), ("staff", world.staff)]
        segments, texts = ADMIN_PATH, ADMIN_TEXT
    valid = {name: _valid(route, name, world) for name in route.params}
    base = _fill(route, valid)
    hostile_paths = [
        _fill(route, {**valid, name: value}) for name in route.params for value in segments
    ]
    for who, client in clients:
        for path in dict.fromkeys(hostile_paths):
            for method in ("get", "post", "delete"):
                sweep.send(client, who, method, path)
        # a method answered 405, or with a redirect (to the login page), reads no input
        served = [
            method
            for method in (("get", "post") if admin else ("get", "post", "put", "patch"))
            if sweep.send(client, who, method, base).status_code not in (301, 302, 405)
        ]
        for method in served:
            reads = _reads(sweep, client, who, method, base)
            if method == "get":
                _sweep_query(sweep, client, who, base, reads, texts)
                continue
            if method == "post":
                _sweep_form(sweep, client, who, base, reads, texts)
            # A view that reads nothing gets no body; nor does the admin, which reads its forms
            # through the request parsers every route here shares (swept on Deckwright's own).
            if not admin and (reads.keys or reads.files or reads.body):
                for content_type, body in HOSTILE_BODIES:
                    sweep.send(client, who, method, base, data=body, content_type=content_type)
                if base.startswith("/api/"):
                    _sweep_json(sweep, client, who, method, base, reads)
    return sweep


def _sweep_query(
    sweep: Sweep, client: Client, who: str, path: str, reads: Reads, texts: list[str]
) -> None:
    """Every hostile value in every parameter at once, then each parameter alone."""
    if not reads.keys:
        return
    for value in texts:
        sweep.send(client, who, "get", f"{path}?{_query([(k, value) for k in reads.keys])}")
    if reads.filler and len(reads.filler) < len(reads.keys):
        # a key that refuses any value of these (DRF's ?format=, a 404) answers before the view
        # reads the rest: those get every value at once without it too (the schema view's
        # ?version= went into a header unread by this sweep, and a newline there was a 500)
        for value in texts:
            accepted = [(k, value) for k in reads.filler]
            sweep.send(client, who, "get", f"{path}?{_query(accepted)}")
    for suffix in RAW_QUERY_SUFFIXES:
        pairs = "&".join(quote(k) + suffix.format(key=quote(k)) for k in reads.keys)
        sweep.send(client, who, "get", f"{path}?{pairs}")
    for key in reads.keys if sweep.first_alone("get", reads.keys) else []:
        for value in ALONE_TEXT:
            alone = list({**reads.filler, key: value}.items())
            sweep.send(client, who, "get", f"{path}?{_query(alone)}")


def _sweep_form(
    sweep: Sweep, client: Client, who: str, path: str, reads: Reads, texts: list[str]
) -> None:
    """The same for form fields, and hostile files for each file field."""
    for value in texts if reads.keys else []:
        sweep.send(client, who, "post", path, data=dict.fromkeys(reads.keys, value))
    for key in reads.keys if sweep.first_alone("post", reads.keys) else []:
        for value in ALONE_TEXT:
            sweep.send(client, who, "post", path, data={**reads.filler, key: value})
    for name in reads.files:
        for file_name, content in HOSTILE_FILES:
            upload = SimpleUploadedFile(file_name, content)
            fields = {**reads.filler, "kind": "auto"} if "kind" in reads.keys else reads.filler
            sweep.send(client, who, "post", path, data={**fields, name: upload})


def _sweep_json(sweep: Sweep, client: Client, who: str, method: str, path: str, reads: Reads):
    """JSON bodies: each field the endpoint reads with a value of the wrong type, and bodies
    shaped like a real request with hostile values deep inside."""
    nested = json.dumps(NESTED_JSON_VALUE)
    bodies = [
        json.dumps({key: value}).replace(nested, NESTED_LIST)
        for key in reads.keys
        for value in [*HOSTILE_JSON_VALUES, NESTED_JSON_VALUE]
    ]
    bodies += [json.dumps(body).replace(nested, NESTED_LIST) for body in SHAPED_BODIES]
    for body in bodies:
        sweep.send(client, who, method, path, data=body, content_type="application/json")


@pytest.mark.parametrize(
    "route",
    [
        # the admin's pages are Django's code: `-m "not slow"` sweeps only Deckwright's own
        pytest.param(route, marks=[pytest.mark.slow] if route.regex.startswith("admin/") else [])
        for route in ROUTES
    ],
    ids=[route.label for route in ROUTES],
)
def test_no_route_answers_a_hostile_request_with_a_5xx(route, world, watch_reads):
    cache.clear()  # no throttle history carried from one route to the next
    sweep = _sweep_route(route, world)
    assert sweep.requests > 0
    assert not sweep.crashes, f"{len(sweep.crashes)} of {sweep.requests} requests crashed:\n" + (
        "\n".join(sweep.crashes[:40])
    )


def test_the_sweep_covers_every_kind_of_route():
    """The walk found the API, the pages, the card images and the admin (so it really walks)."""
    names = {route.name for route in ROUTES}
    assert {"api:deck-diff", "deck-versions", "card-image", "simulation-game"} <= names | {
        f"api:{route.name}" for route in ROUTES
    }
    assert any(route.regex.startswith("admin/") for route in ROUTES)
    assert len(ROUTES) > 100


# --- properties -------------------------------------------------------------------------------


@hypothesis_settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.text(max_size=300))
def test_any_card_query_is_answered_200_or_4xx(query, client):
    cache.clear()
    response = Client(raise_request_exception=False).get("/api/v1/cards/", {"q": query})
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.content[:300]


@hypothesis_settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    params=st.dictionaries(
        st.sampled_from(["q", "page", "page_size", "cost_min", "cost_max", "order", "dir", "game"]),
        st.one_of(st.text(max_size=40), st.integers().map(str)),
        max_size=4,
    )
)
def test_any_card_list_parameters_are_answered_200_or_4xx(params, client):
    cache.clear()
    response = Client(raise_request_exception=False).get("/api/v1/cards/", params)
    assert response.status_code == 200 or 400 <= response.status_code < 500, response.content[:300]
