"""Decks over the API: CRUD with owner-only writes, privacy (404 for others), import/export,
versions and diff, clone, validation, format checks and event registrations."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import Event, Format

pytestmark = pytest.mark.django_db

GAME = "revolt-n-reign"
DECKS = Path(settings.FIXTURES_DIR) / "decks" / GAME


def sample(name: str) -> str:
    path = DECKS / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"sample decklist {name} is not in the fixtures yet")
    return path.read_text()


@pytest.fixture
def alice(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def bob(other_user) -> APIClient:
    client = APIClient()
    client.force_authenticate(other_user)
    return client


def create(client: APIClient, **fields) -> dict:
    body = {"game": GAME, "name": "Bison Pressure", "decklist": sample("legal-bison-pressure")}
    body.update(fields)
    response = client.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def regality_body(**fields) -> dict:
    """A request creating a Regality vs Religion deck of the standard sample side."""
    path = Path(settings.FIXTURES_DIR) / "decks/regality-vs-religion/legal-regality-standard.txt"
    body = {
        "game": "regality-vs-religion",
        "name": "Regality",
        "decklist": path.read_text(encoding="utf-8"),
    }
    return {**body, **fields}


def create_regality(client: APIClient) -> dict:
    response = client.post("/api/v1/decks/", regality_body(), format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_create_from_decklist_text_returns_cards_and_version(alice):
    deck = create(alice, format="standard")
    assert deck["card_count"] == 60
    assert deck["version"] == 1 and deck["visibility"] == "private"
    assert deck["format"] == "standard"
    boston = next(card for card in deck["cards"] if card["name"] == "Boston Port Act")
    assert boston["quantity"] == 1


def test_create_and_validate_take_the_games_short_name(alice):
    """``"game": "RNR"`` (the short name ``g:RNR`` reads) makes the same deck as the slug; the
    answer names the game by its slug."""
    deck = create(alice, game="rnr", format="standard")
    assert deck["game"] == GAME and deck["card_count"] == 60
    body = {"game": "RNR", "decklist": sample("legal-bison-pressure"), "format": "standard"}
    report = alice.post("/api/v1/validate/", body, format="json")
    assert report.status_code == 200, report.json()
    assert report.json()["game"] == GAME and report.json()["legal"] is True


def test_the_format_list_takes_the_games_short_name_and_name(alice):
    """``/formats/?game=RNR`` (or the game's name) lists the formats ``?game=<slug>`` lists, all
    of that game; a value naming no game is a 400 that says so."""
    by_slug = alice.get("/api/v1/formats/", {"game": GAME}).json()["results"]
    assert by_slug and {row["game"] for row in by_slug} == {GAME}
    for value in ("RNR", "rnr", "Revolt N Reign"):
        response = alice.get("/api/v1/formats/", {"game": value})
        assert response.status_code == 200, (value, response.json())
        assert response.json()["results"] == by_slug, value
    refused = alice.get("/api/v1/formats/", {"game": "no-such-game"})
    assert refused.status_code == 400
    assert "no-such-game" in refused.json()["errors"][0]["detail"]


def test_create_with_unknown_card_is_a_400_naming_it(alice):
    response = alice.post(
        "/api/v1/decks/",
        {"game": GAME, "name": "Oops", "decklist": "3 Stamp Act\n2 Stamp Akt\n"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "decklist"
    assert "Stamp Akt" in body["errors"][0]["detail"]


def test_create_needs_authentication(api_client):
    response = api_client.post("/api/v1/decks/", {"game": GAME, "name": "x"}, format="json")
    assert response.status_code == 401


# -- the permission matrix ------------------------------------------------------------------------
#   who        | private deck      | public deck       | unlisted deck
#   owner      | read, write       | read, write       | read, write
#   other user | 404 everywhere    | read; write 403   | read; write 403
#   anonymous  | 404 everywhere    | read; write 401   | read; write 401


@pytest.mark.parametrize("visibility", ["private", "public", "unlisted"])
@pytest.mark.parametrize("who", ["owner", "other", "anonymous"])
def test_permission_matrix(alice, bob, api_client, visibility, who):
    deck = create(alice, visibility=visibility)
    client = {"owner": alice, "other": bob, "anonymous": api_client}[who]
    url = f"/api/v1/decks/{deck['id']}/"
    read = client.get(url).status_code
    write = client.patch(url, {"name": "Renamed"}, format="json").status_code
    export = client.get(url + "export/").status_code
    if who == "owner":
        assert (read, write, export) == (200, 200, 200)
    elif visibility == "private":
        assert (read, write, export) == (404, 404 if who == "other" else 401, 404)
    else:
        assert read == 200 and export == 200
        assert write == (403 if who == "other" else 401)
    deleted = client.delete(url).status_code
    expected_delete = {
        "owner": 204,
        "other": 404 if visibility == "private" else 403,
        "anonymous": 401,
    }[who]
    assert deleted == expected_delete


def test_list_shows_public_decks_and_your_own_only(alice, bob, api_client):
    create(alice, name="Alice private")
    create(alice, name="Alice public", visibility="public")
    create(alice, name="Alice unlisted", visibility="unlisted")
    create(bob, name="Bob private")

    def names(client, query=""):
        return sorted(d["name"] for d in client.get("/api/v1/decks/" + query).json()["results"])

    assert names(api_client) == ["Alice public"]
    assert names(bob) == ["Alice public", "Bob private"]
    assert names(alice) == ["Alice private", "Alice public", "Alice unlisted"]
    assert names(alice, "?mine=true") == ["Alice private", "Alice public", "Alice unlisted"]


def test_deck_list_query_count_is_fixed(alice, django_assert_num_queries):
    for n in range(3):
        create(alice, name=f"Deck {n}")
    # session user, count, page (owner, game, format joined; card counts summed)
    with django_assert_num_queries(2):
        assert alice.get("/api/v1/decks/").status_code == 200


def test_patch_with_decklist_makes_a_version_and_diff_shows_it(alice):
    deck = create(alice)
    text = sample("legal-bison-pressure").replace("7 Homestead Claim", "6 Homestead Claim")
    text = text.replace("5 Village Green", "6 Village Green")
    response = alice.patch(
        f"/api/v1/decks/{deck['id']}/",
        {"decklist": text},
        format="json",
        HTTP_IF_MATCH=f'"deck-{deck["id"]}-v1"',
    )
    assert response.status_code == 200 and response.json()["version"] == 2
    versions = alice.get(f"/api/v1/decks/{deck['id']}/versions/").json()
    assert [v["number"] for v in versions] == [1, 2]
    diff = alice.get(f"/api/v1/decks/{deck['id']}/diff/?from=1&to=2").json()
    assert diff["changed"] == [
        {"name": "Homestead Claim", "zone": "", "from": 7, "to": 6},
        {"name": "Village Green", "zone": "", "from": 5, "to": 6},
    ]
    missing = alice.get(f"/api/v1/decks/{deck['id']}/diff/?from=1&to=9")
    assert missing.status_code == 404


def test_patch_changes_the_variant_and_refuses_one_the_game_lacks(alice):
    deck = create_regality(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    changed = alice.patch(url, {"variant": "old-style"}, format="json")
    assert changed.status_code == 200
    assert changed.json()["variant"] == "old-style" and changed.json()["version"] == 2
    bad = alice.patch(url, {"variant": "chaos"}, format="json")
    assert bad.status_code == 400
    message = json.dumps(bad.json())
    assert "has no variant 'chaos'" in message and "secret-random" in message
    assert alice.get(url).json()["variant"] == "old-style"  # nothing changed
    cleared = alice.patch(url, {"variant": ""}, format="json")
    assert cleared.status_code == 200 and cleared.json()["variant"] == ""
    rnr = create(alice)
    refused = alice.patch(f"/api/v1/decks/{rnr['id']}/", {"variant": "draft"}, format="json")
    assert refused.status_code == 400 and "it has none" in json.dumps(refused.json())


def test_create_refuses_a_variant_the_game_lacks_on_the_variant_field(alice):
    refused = alice.post("/api/v1/decks/", regality_body(variant="xx"), format="json")
    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert error["field"] == "variant" and "has no variant 'xx'" in error["detail"]
    assert "secret-random" in error["detail"]  # it lists the game's variants
    assert alice.get("/api/v1/decks/?mine=true").json()["count"] == 0


def test_export_text_json_and_csv(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/export/"
    text = alice.get(url)
    assert text["Content-Type"].startswith("text/plain")
    assert "Homestead Claim" in text.content.decode()
    as_json = json.loads(alice.get(url + "?kind=json").content)
    assert sum(card["quantity"] for card in as_json["cards"]) == 60
    rows = list(csv.DictReader(io.StringIO(alice.get(url + "?kind=csv").content.decode())))
    assert sum(int(row["quantity"]) for row in rows) == 60


def test_text_exports_say_their_charset_so_a_name_beyond_ascii_survives(alice):
    deck = create(alice, name="Café ☕")
    url = f"/api/v1/decks/{deck['id']}/export/"
    for kind, media in (("text", "text/plain"), ("csv", "text/csv")):
        assert alice.get(url, {"kind": kind})["Content-Type"] == f"{media}; charset=utf-8"
    text = alice.get(url, {"kind": "text"})
    assert "# name: Café ☕" in text.content.decode(text.charset)


def test_export_round_trips_through_import(alice):
    deck = create(alice)
    exported = alice.get(f"/api/v1/decks/{deck['id']}/export/?kind=json").content.decode()
    again = create(alice, name="Again", decklist=exported, kind="json")
    assert sorted((c["name"], c["quantity"]) for c in again["cards"]) == sorted(
        (c["name"], c["quantity"]) for c in deck["cards"]
    )


def test_clone_public_deck_to_your_account_but_not_a_private_one(alice, bob):
    public = create(alice, visibility="public")
    private = create(alice, name="Secret")
    response = bob.post(f"/api/v1/decks/{public['id']}/clone/", {}, format="json")
    assert response.status_code == 201
    assert response.json()["owner"] == "bob" and response.json()["visibility"] == "private"
    assert bob.post(f"/api/v1/decks/{private['id']}/clone/", {}).status_code == 404


def test_deck_validate_uses_its_format(alice):
    deck = create(alice, format="standard")
    report = alice.get(f"/api/v1/decks/{deck['id']}/validate/?as_of=2026-10-01").json()
    assert report["legal"] is True and report["format"] == "standard"


def test_deck_validate_in_another_format_named_by_the_format_parameter(alice):
    """``?format=`` is the deck format here; DRF's renderer switch of the same name still
    chooses JSON (``?format=json``) and no longer answers 404 for a deck format's slug."""
    banned = sample("illegal-banned")
    assert "# format: standard\n" in banned
    deck = create(alice, name="Banned Act", decklist=banned.replace("# format: standard\n", ""))
    url = f"/api/v1/decks/{deck['id']}/validate/?as_of=2026-10-01"
    own = alice.get(url)
    assert own.status_code == 200 and own.json()["format"] is None
    standard = alice.get(url + "&format=standard")
    assert standard.status_code == 200, standard.content
    report = standard.json()
    assert report["format"] == "standard" and report["legal"] is False
    assert "banned" in {v["code"] for v in report["violations"]}
    as_json = alice.get(url + "&format=json")
    assert as_json.status_code == 200 and as_json["Content-Type"].startswith("application/json")
    assert as_json.json()["format"] is None
    unknown = alice.get(url + "&format=nope")
    assert unknown.status_code == 400 and "nope" in json.dumps(unknown.json())


def test_a_decklist_is_judged_in_the_format_and_on_the_day_it_names_unless_told_otherwise(
    alice, api_client
):
    banned = sample("illegal-banned")  # "# format: standard" and "# as_of: 2026-10-01"
    report = api_client.post(
        "/api/v1/validate/", {"game": GAME, "decklist": banned}, format="json"
    ).json()
    assert report["format"] == "standard" and report["as_of"] == "2026-10-01"
    assert report["legal"] is False and "banned" in {v["code"] for v in report["violations"]}
    later = api_client.post(
        "/api/v1/validate/",
        {"game": GAME, "decklist": banned, "as_of": "2026-11-01"},
        format="json",
    ).json()
    assert later["as_of"] == "2026-11-01"  # the request wins over the decklist
    assert create(alice, name="Banned Act", decklist=banned)["format"] == "standard"


def test_a_decklist_of_another_game_is_refused_by_validation_and_the_format_check(api_client):
    other = sample("legal-eagle-control").replace("# game: revolt-n-reign", "# game: rival-realms")
    assert other != sample("legal-eagle-control")
    refused = api_client.post("/api/v1/validate/", {"game": GAME, "decklist": other}, format="json")
    assert refused.status_code == 400
    assert "this decklist is for rival-realms, not revolt-n-reign" in json.dumps(refused.json())
    checked = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": GAME, "decks": [{"name": "other", "decklist": other}]},
        format="json",
    ).json()
    assert checked["summary"]["unreadable"] == 1 and checked["summary"]["legal"] == 0
    assert "rival-realms" in checked["results"][0]["errors"][0]


def test_a_card_list_is_read_as_a_decklist_is_zones_and_quantities_included(api_client):
    lines = [
        {"name": line.split(" ", 1)[1], "quantity": int(line.split(" ", 1)[0]), "zone": "sideboard"}
        for line in sample("legal-eagle-control").splitlines()
        if line[:1].isdigit()
    ]
    zoned = api_client.post("/api/v1/validate/", {"game": GAME, "cards": lines}, format="json")
    assert zoned.status_code == 400
    message = json.dumps(zoned.json())
    assert "cards[0]: Revolt N Reign decks have no zones" in message
    checked = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": GAME, "decks": [{"name": "zoned", "cards": lines}]},
        format="json",
    ).json()
    assert checked["summary"]["unreadable"] == 1
    plain = [{**line, "zone": ""} for line in lines]
    ok = api_client.post("/api/v1/validate/", {"game": GAME, "cards": plain}, format="json")
    assert ok.status_code == 200 and ok.json()["card_count"] == 60
    zero = [{"name": "Stamp Act", "quantity": 0}]
    refused = api_client.post("/api/v1/validate/", {"game": GAME, "cards": zero}, format="json")
    assert refused.status_code == 400


def test_validate_decklist_text(api_client):
    response = api_client.post(
        "/api/v1/validate/",
        {
            "game": GAME,
            "format": "standard",
            "as_of": "2026-10-01",
            "decklist": sample("illegal-ua-count"),
        },
        format="json",
    )
    assert response.status_code == 200
    report = response.json()
    assert report["legal"] is False
    assert "ua-count" in [v["code"] for v in report["violations"]]


def test_validate_card_list(api_client):
    response = api_client.post(
        "/api/v1/validate/",
        {"game": GAME, "cards": [{"name": "Stamp Act", "quantity": 3}]},
        format="json",
    )
    codes = {v["code"] for v in response.json()["violations"]}
    assert {"deck-size", "copy-limit"} <= codes


def test_validate_unknown_format_is_a_400_on_format(api_client):
    response = api_client.post(
        "/api/v1/validate/",
        {"game": GAME, "format": "nope", "cards": [{"name": "Stamp Act", "quantity": 1}]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "format"


def test_validate_needs_decklist_or_cards(api_client):
    response = api_client.post("/api/v1/validate/", {"game": GAME}, format="json")
    assert response.status_code == 400


def test_format_check_many_decks_with_summary(api_client):
    decks = [
        {"name": "bison", "decklist": sample("legal-bison-pressure")},
        {"name": "two acts", "decklist": sample("illegal-ua-count")},
        {"name": "copies", "decklist": sample("illegal-copy-limit")},
    ]
    response = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": GAME, "as_of": "2026-10-01", "decks": decks},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [r["legal"] for r in body["results"]] == [True, False, False]
    assert "ua-count" in body["results"][1]["codes"]
    assert body["summary"]["decks"] == 3 and body["summary"]["legal"] == 1
    assert body["summary"]["by_code"]["ua-count"] >= 1


def _fixture_deck(game: str, name: str) -> str:
    return (Path(settings.FIXTURES_DIR) / "decks" / game / f"{name}.txt").read_text("utf-8")


def test_format_check_judges_each_deck_by_its_own_variant_and_day_unless_the_request_says(
    api_client,
):
    rvr = "regality-vs-religion"
    draft = _fixture_deck(rvr, "legal-regality-draft")
    assert "# variant: draft" in draft
    old = sample("legal-bison-pressure").replace("# as_of: 2026-10-01", "# as_of: 2000-01-01")
    assert "# as_of: 2000-01-01" in old

    def check(game: str, decklist: str, **extra: str) -> dict:
        response = api_client.post(
            "/api/v1/formats/standard/check/",
            {"game": game, "decks": [{"name": "d", "decklist": decklist}], **extra},
            format="json",
        )
        assert response.status_code == 200, response.json()
        return response.json()["results"][0]

    # the draft deck is legal in the variant its list names, and judged in it
    own = check(rvr, draft)
    assert own["legal"] is True and own["report"]["variant"] == "draft", own
    # the request's variant wins over the list's: in standard rules it breaks them
    standard = check(rvr, draft, variant="standard")
    assert standard["legal"] is False and standard["report"]["variant"] == "standard"
    # a list of cards judged on its own day, before any card of it was printed
    dated = check(GAME, old)
    assert dated["legal"] is False and "not-in-format" in dated["codes"]
    assert dated["report"]["as_of"] == "2000-01-01"
    # and on the request's day when it gives one
    assert check(GAME, old, as_of="2026-10-01")["legal"] is True


def test_format_check_refuses_an_unknown_variant_and_reads_a_lists_unknown_one_as_unreadable(
    api_client,
):
    rvr = "regality-vs-religion"
    draft = _fixture_deck(rvr, "legal-regality-draft")
    refused = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": rvr, "variant": "nope", "decks": [{"decklist": draft}]},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "variant"
    assert "draft" in refused.json()["errors"][0]["detail"]  # it names the variants
    body = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": rvr, "decks": [{"decklist": draft.replace("variant: draft", "variant: nope")}]},
        format="json",
    ).json()
    assert body["summary"]["unreadable"] == 1 and body["summary"]["legal"] == 0
    assert "no variant 'nope'" in body["results"][0]["errors"][0]


def test_a_decklist_of_another_game_is_said_so_before_its_sections(api_client):
    other = _fixture_deck("rival-realms", "legal-arcane-court")
    response = api_client.post(
        "/api/v1/validate/", {"game": GAME, "decklist": other}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0]["field"] == "decklist"
    assert "this decklist is for rival-realms, not revolt-n-reign" in errors[0]["detail"]
    assert "is not a section" not in json.dumps(errors)


def test_formats_list(api_client):
    slugs = [f["slug"] for f in api_client.get(f"/api/v1/formats/?game={GAME}").json()["results"]]
    assert "standard" in slugs


@pytest.fixture
def event(user):
    fmt = Format.objects.get(game__slug=GAME, slug="standard")
    return Event.objects.create(
        game=fmt.game,
        format=fmt,
        name="Autumn Open",
        date=dt.date(2026, 10, 1),
        decklist_deadline=timezone.now() + dt.timedelta(days=1),
    )


def test_register_before_deadline_returns_hash_and_verdict(alice, event):
    response = alice.post(
        f"/api/v1/events/{event.pk}/register/",
        {"decklist": sample("legal-bison-pressure")},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert len(body["deck_hash"]) == 64 and body["legal"] is True and body["locked"] is False
    assert (
        alice.get(f"/api/v1/events/{event.pk}/registration/").json()["deck_hash"]
        == (body["deck_hash"])
    )


def test_registration_is_locked_after_the_deadline(alice, event):
    alice.post(
        f"/api/v1/events/{event.pk}/register/",
        {"decklist": sample("legal-bison-pressure")},
        format="json",
    )
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
    )
    again = alice.post(
        f"/api/v1/events/{event.pk}/register/", {"decklist": "1 Stamp Act"}, format="json"
    )
    assert again.status_code == 409
    assert again.json()["code"] == "conflict"
    assert alice.delete(f"/api/v1/events/{event.pk}/registration/").status_code == 409
    assert alice.get(f"/api/v1/events/{event.pk}/").json()["locked"] is True


def test_register_needs_sign_in(api_client, event):
    response = api_client.post(f"/api/v1/events/{event.pk}/register/", {"decklist": "x"})
    assert response.status_code == 401


def test_format_check_counts_unreadable_lists_apart(api_client):
    decks = [
        {"name": "bison", "decklist": sample("legal-bison-pressure")},
        {"name": "broken", "decklist": "{not json", "kind": "json"},
    ]
    body = api_client.post(
        "/api/v1/formats/standard/check/",
        {"game": GAME, "as_of": "2026-10-01", "decks": decks},
        format="json",
    ).json()
    broken = body["results"][1]
    assert broken["legal"] is False and broken["errors"] and broken["report"] is None
    assert body["summary"] == {
        "decks": 2,
        "legal": 1,
        "illegal": 0,
        "unreadable": 1,
        "own_dates": 0,
        "by_code": {},
    }
    assert [result["as_of"] for result in body["results"]] == [body["as_of"]] * 2


def test_format_check_unknown_format_is_404(api_client):
    response = api_client.post(
        "/api/v1/formats/no-such-format/check/",
        {"decks": [{"cards": [{"name": "Stamp Act", "quantity": 1}]}]},
        format="json",
    )
    assert response.status_code == 404


def test_listing_your_own_decks_needs_sign_in(api_client):
    response = api_client.get("/api/v1/decks/?mine=true")
    assert response.status_code == 401
    assert response.json()["code"] == "not-authenticated"


# -- optimistic concurrency: ETag, If-Match and atomic card changes ---------------------------------


def test_deck_answers_carry_the_version_as_etag(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    read = alice.get(url)
    assert read["ETag"] == f'"deck-{deck["id"]}-v1"'
    renamed = alice.patch(url, {"name": "Renamed"}, format="json", HTTP_IF_MATCH=read["ETag"])
    assert renamed.status_code == 200
    assert renamed["ETag"] == f'"deck-{deck["id"]}-v2"' and renamed.json()["version"] == 2


def test_a_stale_if_match_is_a_412_and_writes_nothing(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    first_read = alice.get(url)["ETag"]
    # someone else's change moves the deck to version 2
    assert alice.post(url + "cards/", {"name": "Eagle Dive"}, format="json").status_code == 200
    stale = alice.patch(
        url, {"decklist": "1 Stamp Act", "name": "Lost?"}, format="json", HTTP_IF_MATCH=first_read
    )
    assert stale.status_code == 412
    assert stale["Content-Type"] == "application/problem+json"
    problem = stale.json()
    assert problem["code"] == "precondition-failed" and problem["current_version"] == 2
    assert stale["ETag"] == f'"deck-{deck["id"]}-v2"'
    assert "changed since you read it" in problem["detail"]
    after = alice.get(url).json()
    assert after["name"] == "Bison Pressure" and after["card_count"] == 61
    assert alice.delete(url, HTTP_IF_MATCH=first_read).status_code == 412
    assert alice.get(url).status_code == 200


@pytest.mark.parametrize(
    ("if_match", "expected"),
    [
        ("*", 200),  # any version
        ('"deck-{id}-v1"', 200),
        ('"deck-{id}-v9", "deck-{id}-v1"', 200),  # a list matches if any tag does
        ('W/"deck-{id}-v1"', 412),  # If-Match compares strongly: weak tags never match
        ('"deck-0-v1"', 412),  # another deck's tag
        ("deck-{id}-v1", 412),  # not an entity tag
    ],
)
def test_if_match_forms(alice, if_match, expected):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    header = if_match.replace("{id}", str(deck["id"]))
    response = alice.patch(url, {"name": "Renamed"}, format="json", HTTP_IF_MATCH=header)
    assert response.status_code == expected


def test_a_replacement_without_if_match_is_a_428_that_says_how_to_send_it(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    # when a client replaces the whole list without saying which version it read
    refused = alice.patch(url, {"decklist": "1 Stamp Act", "name": "Lost?"}, format="json")
    # then nothing is written, and the problem says how to send it
    assert refused.status_code == 428
    assert refused["Content-Type"] == "application/problem+json"
    problem = refused.json()
    assert problem["code"] == "precondition-required"
    assert problem["type"].endswith("/api/v1/problems/precondition-required/")
    assert "If-Match" in problem["detail"] and "changes" in problem["detail"]
    after = alice.get(url).json()
    assert after["version"] == 1 and after["name"] == "Bison Pressure"
    assert after["card_count"] == 60
    # the problem type is served, like every other
    described = alice.get("/api/v1/problems/precondition-required/")
    assert described.status_code == 200 and "If-Match" in json.dumps(described.json())
    # with the ETag it read, the replacement is made; If-Match: * replaces whatever is there
    read = alice.get(url)["ETag"]
    assert (
        alice.patch(url, {"decklist": "1 Stamp Act"}, format="json", HTTP_IF_MATCH=read).status_code
        == 200
    )
    assert (
        alice.patch(url, {"decklist": "1 Tea Act"}, format="json", HTTP_IF_MATCH="*").status_code
        == 200
    )
    assert [c["name"] for c in alice.get(url).json()["cards"]] == ["Tea Act"]


def test_settings_alone_need_no_if_match(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    renamed = alice.patch(url, {"name": "Renamed"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["card_count"] == 60


def lines(deck: dict) -> dict[str, int]:
    return {card["name"]: card["quantity"] for card in deck["cards"]}


def test_card_changes_add_remove_and_set_in_one_version(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    before = lines(deck)
    changes = [
        {"op": "add", "name": "eagle dive", "count": 2},
        {"op": "remove", "name": "Homestead Claim", "count": 1},
        {"op": "set", "name": "Village Green", "count": 2},
        {"op": "set", "name": "Boston Port Act", "count": 0},
    ]
    # when a client sends only the changes, with no If-Match and a new name
    response = alice.patch(url, {"name": "Tuned", "changes": changes}, format="json")
    # then those lines change, the others stay, and it is one version
    assert response.status_code == 200, response.json()
    after = response.json()
    assert after["version"] == 2 and after["name"] == "Tuned"
    assert lines(after)["Eagle Dive"] == before.get("Eagle Dive", 0) + 2
    assert lines(after)["Homestead Claim"] == before["Homestead Claim"] - 1
    assert lines(after)["Village Green"] == 2
    assert "Boston Port Act" not in lines(after)
    untouched = set(before) - {"Eagle Dive", "Homestead Claim", "Village Green", "Boston Port Act"}
    assert {n: lines(after)[n] for n in untouched} == {n: before[n] for n in untouched}
    versions = alice.get(url + "versions/").json()
    assert [v["number"] for v in versions] == [1, 2]
    assert "Eagle Dive:" in versions[-1]["note"] and "Village Green:" in versions[-1]["note"]


def test_card_changes_are_all_or_nothing_and_name_every_problem(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    changes = [
        {"op": "add", "name": "Eagle Dive", "count": 1},
        {"op": "remove", "name": "Homestead Claim", "count": 99},
        {"op": "add", "name": "Eagel Dive", "count": 1},
    ]
    refused = alice.patch(url, {"changes": changes}, format="json")
    assert refused.status_code == 400
    details = [error["detail"] for error in refused.json()["errors"]]
    assert any("change 2:" in d and "cannot be removed" in d for d in details)
    assert any("change 3:" in d and "Did you mean Eagle Dive" in d for d in details)
    assert alice.get(url).json()["version"] == 1  # the valid first change was not kept
    zero = alice.patch(
        url, {"changes": [{"op": "add", "name": "Eagle Dive", "count": 0}]}, format="json"
    )
    assert zero.status_code == 400
    both = alice.patch(
        url,
        {"decklist": "1 Stamp Act", "changes": [{"op": "set", "name": "Tea Act", "count": 1}]},
        format="json",
        HTTP_IF_MATCH="*",
    )
    assert both.status_code == 400 and "not both" in both.json()["detail"]
    assert alice.get(url).json()["version"] == 1


def test_a_zone_named_in_a_game_without_zones_is_refused_and_nothing_is_saved(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    changed = alice.patch(
        url,
        {"changes": [{"op": "add", "name": "Tea Act", "count": 1, "zone": "bogus"}]},
        format="json",
    )
    assert changed.status_code == 400
    assert "decks have no zones, so zone 'bogus' means nothing" in json.dumps(changed.json())
    added = alice.post(url + "cards/", {"name": "Sugar Act", "zone": "bogus"}, format="json")
    assert added.status_code == 400 and "no zones" in added.json()["detail"]
    assert alice.get(url).json()["version"] == 1
    # without a zone the same changes land
    assert alice.post(url + "cards/", {"name": "Sugar Act"}, format="json").status_code == 200


def test_card_changes_honour_a_stale_if_match(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/"
    first_read = alice.get(url)["ETag"]
    alice.patch(url, {"name": "Moved on"}, format="json")
    stale = alice.patch(
        url,
        {"changes": [{"op": "add", "name": "Eagle Dive", "count": 1}]},
        format="json",
        HTTP_IF_MATCH=first_read,
    )
    assert stale.status_code == 412 and alice.get(url).json()["version"] == 2


def test_card_changes_add_and_take_out_copies_as_versions(alice):
    deck = create(alice)
    url = f"/api/v1/decks/{deck['id']}/cards/"
    added = alice.post(url, {"name": "eagle dive", "quantity": 2}, format="json")
    assert added.status_code == 200
    assert added["ETag"] == f'"deck-{deck["id"]}-v2"'
    dive = next(c for c in added.json()["cards"] if c["name"] == "Eagle Dive")
    removed = alice.post(url, {"name": "Eagle Dive", "quantity": -1}, format="json")
    assert next(c for c in removed.json()["cards"] if c["name"] == "Eagle Dive")["quantity"] == (
        dive["quantity"] - 1
    )
    zero = alice.post(url, {"name": "Eagle Dive", "quantity": 0}, format="json")
    assert zero.status_code == 400
    unknown = alice.post(url, {"name": "Eagel Dive"}, format="json")
    assert unknown.status_code == 400 and "Did you mean Eagle Dive" in unknown.json()["detail"]
    stale = alice.post(url, {"name": "Eagle Dive"}, format="json", HTTP_IF_MATCH='"x"')
    assert stale.status_code == 412
    notes = [v["note"] for v in alice.get(f"/api/v1/decks/{deck['id']}/versions/").json()]
    assert notes[0] == "created" and len(notes) == 3


def test_card_changes_are_the_owners_alone(alice, bob, api_client):
    deck = create(alice, visibility="public")
    url = f"/api/v1/decks/{deck['id']}/cards/"
    assert bob.post(url, {"name": "Eagle Dive"}, format="json").status_code == 403
    assert api_client.post(url, {"name": "Eagle Dive"}, format="json").status_code == 401
    private = create(alice)
    private_url = f"/api/v1/decks/{private['id']}/cards/"
    assert bob.post(private_url, {"name": "Eagle Dive"}, format="json").status_code == 404


def test_the_schema_documents_etag_if_match_412_428_and_card_changes(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    deck = schema["paths"]["/api/v1/decks/{id}/"]
    patch = deck["patch"]
    assert any(p["name"] == "If-Match" and p["in"] == "header" for p in patch["parameters"])
    assert "412" in patch["responses"] and "ETag" in patch["responses"]["412"]["headers"]
    assert "428" in patch["responses"]
    body = patch["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    changes = schema["components"]["schemas"][body]["properties"]["changes"]
    item = schema["components"]["schemas"][changes["items"]["$ref"].split("/")[-1]]
    op_ref = item["properties"]["op"]["allOf"][0]["$ref"]
    op = schema["components"]["schemas"][op_ref.split("/")[-1]]
    assert op["enum"] == ["add", "remove", "set"]
    assert set(item["required"]) == {"op", "name", "count"}
    assert "ETag" in patch["responses"]["200"]["headers"]
    assert "ETag" in deck["get"]["responses"]["200"]["headers"]
    assert "412" in deck["delete"]["responses"]
    cards = schema["paths"]["/api/v1/decks/{id}/cards/"]["post"]
    assert "412" in cards["responses"] and "503" in cards["responses"]


def test_lists_refuse_a_game_that_does_not_exist_and_filter_by_one_that_does(api_client, event):
    for path in ("decks", "formats", "events", "cards"):
        bad = api_client.get(f"/api/v1/{path}/?game=bogus")
        assert bad.status_code == 400, path
        assert "bogus" in json.dumps(bad.json()), path
    formats = api_client.get("/api/v1/formats/?game=rival-realms").json()["results"]
    assert formats and {f["game"] for f in formats} == {"rival-realms"}
    assert event.game.slug == GAME
    own = api_client.get(f"/api/v1/events/?game={GAME}").json()["results"]
    assert event.pk in [e["id"] for e in own]
    other = api_client.get("/api/v1/events/?game=rival-realms").json()["results"]
    assert event.pk not in [e["id"] for e in other]


def test_a_deck_stored_with_a_variant_its_game_lacks_is_judged_not_refused(alice, client):
    """A variant the game no longer has (stored before it was dropped): the deck's report says
    so, names the game's variants and checks the list as the default variant; the deck page
    shows the same instead of failing, and the stored deck is left as it was."""
    from decks.models import Deck

    deck = create_regality(alice)
    Deck.objects.filter(pk=deck["id"]).update(variant="seven-a-side")

    response = alice.get(f"/api/v1/decks/{deck['id']}/validate/")

    assert response.status_code == 200
    report = response.json()
    assert report["legal"] is False and [v["code"] for v in report["violations"]] == [
        "unknown-variant"
    ]
    [violation] = report["violations"]
    assert violation["rule"] == "Game system options"
    assert (
        "'seven-a-side'" in violation["message"] and "checked as standard" in violation["message"]
    )
    assert "secret-random" in violation["details"]["variants"]

    client.force_login(Deck.objects.get(pk=deck["id"]).owner)
    page = client.get(f"/decks/{deck['id']}/")

    assert page.status_code == 200
    assert "Unknown variant" in page.content.decode()
    assert Deck.objects.get(pk=deck["id"]).variant == "seven-a-side"


@pytest.mark.parametrize(
    "name", ["Bison\nPressure", "Bison\r\nPressure", "Bison\x1bPressure", "Bison\u2028Pressure"]
)
def test_a_deck_name_is_one_line(alice, name):
    """A name is written into the export's ``# name:`` line: a line break in it would start a
    line of its own there (a ``# format:`` of the name's choosing, say). It is refused, saying
    where, on creation and on a change, and nothing is stored."""
    refused = alice.post(
        "/api/v1/decks/",
        {"game": GAME, "name": name, "decklist": sample("legal-bison-pressure")},
        format="json",
    )
    deck = create(alice)
    changed = alice.patch(f"/api/v1/decks/{deck['id']}/", {"name": name}, format="json")

    assert refused.status_code == 400 and changed.status_code == 400
    for response in (refused, changed):
        [error] = response.json()["errors"]
        assert error["field"] == "name"  # beside the field it is about, not the decklist
        assert "a deck name is one line" in error["detail"] and "at character 6" in error["detail"]
    assert alice.get("/api/v1/decks/?mine=true").json()["count"] == 1
    assert alice.get(f"/api/v1/decks/{deck['id']}/").json()["name"] == "Bison Pressure"


def test_a_list_naming_a_card_twice_holds_no_more_copies_than_a_deck_may(alice):
    """The lines of one card add up, and a deck holds at most 999 copies of a card, as a line
    may say: two lines of 999 Stamp Act are refused on creation and on a replacement, so every
    stored deck reads back from its own export."""
    twice = "999 Stamp Act\n999 Stamp Act\n"
    refused = alice.post(
        "/api/v1/decks/", {"game": GAME, "name": "Big", "decklist": twice}, format="json"
    )
    deck = create(alice)
    replaced = alice.patch(
        f"/api/v1/decks/{deck['id']}/",
        {"decklist": twice},
        format="json",
        HTTP_IF_MATCH=f'"deck-{deck["id"]}-v{deck["version"]}"',
    )

    for response in (refused, replaced):
        assert response.status_code == 400
        assert "at most 999 copies of Stamp Act: the list gives 1998" in json.dumps(response.json())
    assert alice.get("/api/v1/decks/?mine=true").json()["count"] == 1
    assert alice.get(f"/api/v1/decks/{deck['id']}/").json()["version"] == deck["version"]
    # 999 in all, over two lines, is a deck the export says again
    fine = create(alice, name="Many", decklist="500 Stamp Act\n499 Stamp Act\n")
    text = alice.get(f"/api/v1/decks/{fine['id']}/export/?kind=text").content.decode()
    again = create(alice, name="Again", decklist=text)
    assert [(c["name"], c["quantity"]) for c in again["cards"]] == [("Stamp Act", 999)]


def test_a_card_added_to_a_zone_its_game_lacks_is_refused_on_the_zone_field(alice):
    deck = create(alice)

    refused = alice.post(
        f"/api/v1/decks/{deck['id']}/cards/", {"name": "Eagle Dive", "zone": "main"}, format="json"
    )

    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert error["field"] == "zone" and "decks have no zones" in error["detail"]
