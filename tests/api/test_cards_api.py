"""Card lookup endpoints: lists, filters, the q parameter, sorting, paging, named lookup, ETags."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from django.db import connection

from cards.models import Card, CardSet, CardType, Game
from cards.search.index import byte_ordered_text
from cards.vocabulary import vocabularies

pytestmark = pytest.mark.django_db


def names(response):
    return [card["name"] for card in response.json()["results"]]


def test_games_list_every_game_with_counts_and_aliases(api_client, mini_game):
    response = api_client.get("/api/v1/games/")
    assert response.status_code == 200
    games = {game["slug"]: game for game in response.json()["results"]}
    assert games["mini"]["card_count"] == 3
    assert games["mini"]["search_aliases"]["ip"] == "cost"
    assert games["mini"]["search_aliases"]["colour"] == "branch"


def test_game_detail_by_slug_and_unknown_game_is_a_problem_404(api_client, mini_game):
    assert api_client.get("/api/v1/games/mini/").json()["name"] == "Mini Game"
    response = api_client.get("/api/v1/games/no-such-game/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not-found"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/api/v1/card-types/?game=mini", ["attack", "defense"]),
        ("/api/v1/branches/?game=mini", ["blue-moon", "red"]),
        ("/api/v1/rarities/?game=mini", ["common", "uncommon", "rare"]),
        ("/api/v1/subtypes/?game=mini", ["petition"]),
    ],
)
def test_vocabularies_per_game(api_client, mini_game, path, expected):
    response = api_client.get(path)
    assert response.status_code == 200
    slugs = [entry["slug"] for entry in response.json()["results"]]
    assert sorted(slugs) == sorted(expected)


def test_sets_per_game_and_unknown_game_filter_is_a_400(api_client, mini_game):
    codes = [s["code"] for s in api_client.get("/api/v1/sets/?game=mini").json()["results"]]
    assert codes == ["MG1", "MG2"]
    for listing in ("/api/v1/sets/", "/api/v1/cards/", "/api/v1/decks/", "/api/v1/events/"):
        response = api_client.get(listing, {"game": "nope"})
        assert response.status_code == 400, listing
        [error] = response.json()["errors"]
        assert error["field"] == "game"
        # it quotes the value and names the games there are
        assert error["detail"].startswith("There is no game 'nope': the games are ")
        assert "mini" in error["detail"]


@pytest.mark.parametrize("value", ["%", "100%", "%s", "%(x)s", "50% off"])
def test_a_percent_sign_in_an_unknown_game_is_a_400_quoting_it(api_client, mini_game, value):
    """Form errors are formatted with their parameters on the way out: a "%" typed into
    ``?game=`` (or into a range) once made that a 500."""
    for listing in ("/api/v1/sets/", "/api/v1/cards/", "/api/v1/decks/", "/api/v1/events/"):
        response = api_client.get(listing, {"game": value})
        assert response.status_code == 400, (listing, value)
        [error] = response.json()["errors"]
        assert error["detail"].startswith(f"There is no game {value!r}: the games are "), error
    response = api_client.get("/api/v1/cards/", {"cost_min": value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["detail"].startswith("cost_min: ")


def test_a_list_takes_the_games_short_name_or_name_as_the_query_language_does(
    api_client, mini_game
):
    """``?game=MG`` (the short name, any case) and ``?game=Mini Game`` list what ``?game=mini``
    and ``g:MG`` do, on every list with a game filter."""
    for listing in ("/api/v1/sets/", "/api/v1/card-types/", "/api/v1/cards/"):
        by_slug = api_client.get(listing, {"game": "mini"}).json()["results"]
        assert by_slug, listing
        for value in ("MG", "mg", "Mini Game", "mini game"):
            response = api_client.get(listing, {"game": value})
            assert response.status_code == 200, (listing, value)
            assert response.json()["results"] == by_slug, (listing, value)
    queried = api_client.get("/api/v1/cards/", {"q": "g:MG"}).json()["results"]
    assert names_of(queried) == names_of(api_client.get("/api/v1/cards/?game=MG").json()["results"])


def names_of(results: list[dict]) -> list[str]:
    return [card["name"] for card in results]


def test_card_list_filters_combine(api_client, mini_game):
    response = api_client.get("/api/v1/cards/?game=mini&type=defense&cost_max=0")
    assert names(response) == ["Humble Plea"]
    response = api_client.get("/api/v1/cards/?game=mini&branch=Blue Moon")
    assert names(response) == ["Stone Wall"]
    response = api_client.get("/api/v1/cards/?game=mini&set=MG1&cost_min=2")
    assert names(response) == ["Fire Storm"]


def test_filter_sets_alive_at_once_each_filter_by_their_own_parameters(mini_game):
    # The filter sets share their fields and copy their filters shallowly (api.filters): each
    # method filter must still read its own set's parameters, whichever set filters first.
    from rest_framework.exceptions import ValidationError

    from api.filters import CardFilterSet

    cards = Card.objects.all()
    first = CardFilterSet({"game": "mini", "q": "storm", "order": "cost"}, queryset=cards)
    second = CardFilterSet({"game": "mini", "type": "defense", "dir": "desc"}, queryset=cards)
    assert [card.name for card in second.qs] == ["Stone Wall", "Humble Plea"]
    assert [card.name for card in first.qs] == ["Fire Storm"]
    third = CardFilterSet({"game": "mini", "type": "atack"}, queryset=cards)
    with pytest.raises(ValidationError) as raised:
        list(third.qs)
    assert "type" in raised.value.detail
    assert first.filters["q"].parent is first and second.filters["q"].parent is second
    assert getattr(CardFilterSet.base_filters["q"], "parent", None) is None


def test_unknown_filter_value_is_a_400_naming_the_parameter(api_client, mini_game):
    response = api_client.get("/api/v1/cards/?game=mini&type=atack")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation-error"
    assert body["errors"][0]["field"] == "type"
    assert "attack" in body["errors"][0]["detail"]


def test_q_uses_the_query_language_within_the_game(api_client, mini_game):
    response = api_client.get("/api/v1/cards/", {"game": "mini", "q": "ip<=1 -st:petition"})
    assert names(response) == ["Stone Wall"]
    response = api_client.get("/api/v1/cards/", {"q": "g:mini (storm OR plea)"})
    assert names(response) == ["Fire Storm", "Humble Plea"]


def test_q_that_does_not_parse_is_a_positioned_400(api_client, mini_game):
    response = api_client.get("/api/v1/cards/", {"q": "t:attack (b:red"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "invalid-query"
    assert body["parameter"] == "q"
    assert body["position"] == 15 and body["column"] == 16
    assert ")" in body["expected"]
    assert body["type"].endswith("/api/v1/problems/invalid-query/")
    assert body["status"] == 400 and body["title"]


def test_q_with_unknown_field_is_a_positioned_400(api_client, mini_game):
    body = api_client.get("/api/v1/cards/", {"q": "fire colr:red"}).json()
    assert body["code"] == "invalid-query"
    assert (body["position"], body["length"]) == (5, 4)
    assert "colr" in body["detail"]


def test_sorting_by_cost_descending_then_name(api_client, mini_game):
    response = api_client.get("/api/v1/cards/?game=mini&order=cost&dir=desc")
    assert names(response) == ["Fire Storm", "Stone Wall", "Humble Plea"]
    response = api_client.get("/api/v1/cards/?game=mini&order=rarity")
    assert names(response) == ["Fire Storm", "Humble Plea", "Stone Wall"]


def test_bad_order_is_a_400(api_client, mini_game):
    response = api_client.get("/api/v1/cards/?order=colour")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "order"


def test_pagination_has_next_links_and_bad_pages_are_404(api_client, mini_game):
    first = api_client.get("/api/v1/cards/?game=mini&page_size=2").json()
    assert first["count"] == 3 and len(first["results"]) == 2
    assert "page=2" in first["next"]
    second = api_client.get(first["next"]).json()
    assert second["next"] is None and len(second["results"]) == 1
    response = api_client.get("/api/v1/cards/?game=mini&page=9")
    assert response.status_code == 404
    assert response.json()["code"] == "not-found"


def test_card_detail_shows_numbers_by_the_games_names_and_rulings(
    api_client, mini_game, ruling_factory
):
    _game, cards = mini_game
    ruling_factory(card=cards["fire"], text="Pillars include tokens.")
    body = api_client.get(f"/api/v1/cards/{cards['fire'].pk}/").json()
    assert body["numbers"] == {"ip_cost": 3, "attack_damage": 20}
    assert body["rulings"][0]["text"] == "Pillars include tokens."
    assert body["web_url"].endswith("/games/mini/cards/fire-storm/")


def test_card_detail_etag_gives_304_when_unchanged(api_client, mini_game):
    _game, cards = mini_game
    url = f"/api/v1/cards/{cards['wall'].pk}/"
    first = api_client.get(url)
    etag = first["ETag"]
    assert etag
    again = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    # an edit (saved, as the admin and the loaders save: cards.signals) is a new ETag
    cards["wall"].rules_text = "Block two attacks."
    cards["wall"].save()
    changed = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_card_list_etag(api_client, mini_game):
    first = api_client.get("/api/v1/cards/?game=mini")
    assert (
        api_client.get("/api/v1/cards/?game=mini", HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 304
    )


def test_named_exact_and_fuzzy(api_client, mini_game):
    assert api_client.get("/api/v1/cards/named/?exact=STONE-WALL").json()["name"] == "Stone Wall"
    assert api_client.get("/api/v1/cards/named/?fuzzy=humbl plee&game=mini").json()["name"] == (
        "Humble Plea"
    )
    assert api_client.get("/api/v1/cards/named/?fuzzy=fire st&game=mini").json()["name"] == (
        "Fire Storm"
    )


def test_named_miss_is_404_with_suggestions(api_client, mini_game):
    response = api_client.get("/api/v1/cards/named/?exact=Stone Wal&game=mini")
    assert response.status_code == 404
    assert "Stone Wall" in response.json()["suggestions"]
    # the game the search was narrowed to is named
    mini = Game.objects.get(slug="mini")
    assert response.json()["detail"] == f"No card is called 'Stone Wal' in {mini.name}."


def test_named_needs_exactly_one_of_exact_or_fuzzy(api_client, mini_game):
    response = api_client.get("/api/v1/cards/named/")
    assert response.status_code == 400
    assert response.json()["code"] == "validation-error"


def test_autocomplete_prefix_first_then_substring(api_client, mini_game):
    body = api_client.get("/api/v1/cards/autocomplete/?q=st&game=mini").json()
    assert [r["name"] for r in body["results"]] == ["Stone Wall", "Fire Storm"]


def test_unknown_api_path_is_a_problem_404(api_client):
    response = api_client.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["status"] == 404


@pytest.mark.parametrize("path", ["/api/v1/nothing-here/", "/api/v1/cards/abc/"])
def test_unknown_api_path_is_a_problem_404_under_debug_too(api_client, settings, path):
    """``make run`` serves with DEBUG on, where Django shows its HTML debug page for a path no
    route matches; a client of the API gets problem details all the same."""
    settings.DEBUG = True
    response = api_client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["detail"] == f"Nothing at {path}. The API index is /api/v1/."
    # a missing slash is still a redirect to the route that has it
    assert api_client.get("/api/v1/games").status_code == 301


def test_problem_types_describe_themselves(api_client):
    body = api_client.get("/api/v1/problems/invalid-query/").json()
    assert body["status"] == 400 and "position" in body["description"]


def _estimate_queries() -> int:
    """PostgreSQL pages ask its planner for an estimate first (cards.search.paging): one more."""
    byte_ordered_text()  # looked up once per connection: not a per-request query
    return 1 if connection.vendor == "postgresql" else 0


@pytest.fixture
def warm_vocabularies(mini_game):
    """The games and vocabularies in memory, as after a process's first search."""
    vocabularies()


def test_list_query_count_is_fixed(
    api_client, mini_game, warm_vocabularies, django_assert_num_queries
):
    # the page's ids (capped, counted and sorted in one query), the page (subtypes in it); the
    # game comes from memory
    extra = _estimate_queries()
    with django_assert_num_queries(2 + extra):
        assert api_client.get("/api/v1/cards/?game=mini").status_code == 200
    # ...and a q naming a type and a rarity adds none: the vocabularies are in memory too.
    with django_assert_num_queries(2 + extra):
        response = api_client.get("/api/v1/cards/?game=mini&q=t:defense r:common")
        assert response.status_code == 200
        assert [card["name"] for card in response.json()["results"]] == ["Humble Plea"]


def test_a_set_another_process_added_shows_in_lists_at_once(
    api_client, mini_game, warm_vocabularies
):
    # given the vocabularies in this process's memory, when another process (no signal here:
    # bulk_create sends none) adds a set and moves a card into it
    game, cards = mini_game
    (added,) = CardSet.objects.bulk_create(
        [CardSet(game=game, code="MG9", name="Late", release_date=date(2026, 11, 29))]
    )
    Card.objects.filter(pk=cards["fire"].pk).update(card_set=added)
    # then the list names the new set (an unknown id rebuilds the memo), and so does the detail
    rows = api_client.get("/api/v1/cards/?game=mini").json()["results"]
    assert {row["name"]: row["set"] for row in rows}["Fire Storm"] == "MG9"
    assert api_client.get(f"/api/v1/cards/{cards['fire'].pk}/").json()["set"] == "MG9"


def test_a_new_card_type_is_searchable_at_once(api_client, mini_game, warm_vocabularies):
    # given the vocabularies in memory, when a card type is added and a card given it
    game, cards = mini_game
    added = CardType.objects.create(game=game, slug="edict", name="Edict", sort_order=9)
    Card.objects.filter(pk=cards["plea"].pk).update(card_type=added)
    # then a query naming it finds the card (the save dropped the memo), not "no card type"
    response = api_client.get("/api/v1/cards/?game=mini&q=t:edict")
    assert response.status_code == 200, response.json()
    assert [card["name"] for card in response.json()["results"]] == [cards["plea"].name]
    # and once it is deleted, naming it is the usual 400 with the position
    Card.objects.filter(pk=cards["plea"].pk).update(card_type=cards["plea"].card_type)
    added.delete()
    response = api_client.get("/api/v1/cards/?game=mini&q=t:edict")
    assert response.status_code == 400
    assert "No card type is called 'edict'" in response.content.decode()


def test_full_card_list_query_count_does_not_grow_with_cards(
    api_client, mini_game, warm_vocabularies, django_assert_num_queries
):
    # the page's ids, the page (subtypes in it): the same for 3 cards or 200
    with django_assert_num_queries(2 + _estimate_queries()):
        assert api_client.get("/api/v1/cards/?page_size=200").status_code == 200


@pytest.mark.parametrize(
    ("path", "queries"),
    [
        ("/api/v1/games/", 2),
        ("/api/v1/sets/", 2),
        ("/api/v1/card-types/", 2),
        ("/api/v1/branches/?game=mini", 2),
    ],
)
def test_catalogue_query_counts(
    api_client, mini_game, warm_vocabularies, django_assert_num_queries, path, queries
):
    with django_assert_num_queries(queries):
        assert api_client.get(path).status_code == 200


def test_detail_query_count(api_client, mini_game, warm_vocabularies, django_assert_num_queries):
    # the card with its subtypes and rulings: one query, then none until a card changes (its
    # game, set, type, branch and rarity are named from memory)
    _game, cards = mini_game
    with django_assert_num_queries(1):
        first = api_client.get(f"/api/v1/cards/{cards['plea'].pk}/")
    with django_assert_num_queries(0):
        again = api_client.get(f"/api/v1/cards/{cards['plea'].pk}/")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and first.json()["name"] == "Humble Plea"


def test_detail_shows_an_edit_a_ruling_and_a_deletion_at_once(api_client, mini_game):
    # given a card's detail already served (and remembered)
    _game, cards = mini_game
    url = f"/api/v1/cards/{cards['plea'].pk}/"
    assert api_client.get(url).json()["rules_text"] == "Draw a card."
    # when its text is edited, a ruling added and a subtype removed, each shows on the next read
    card = cards["plea"]
    card.rules_text = "Draw two cards."
    card.save()
    assert api_client.get(url).json()["rules_text"] == "Draw two cards."
    card.rulings.create(text="Counts as one play.", source="test", published_on=date(2026, 11, 29))
    assert [r["text"] for r in api_client.get(url).json()["rulings"]] == ["Counts as one play."]
    card.subtypes.clear()
    assert api_client.get(url).json()["subtypes"] == []
    # and once it is deleted, the detail is a 404, not the remembered row
    card.delete()
    assert api_client.get(url).status_code == 404


def test_list_rows_carry_each_cards_own_subtypes_sorted(api_client, subtype_factory):
    # given the real Revolt N Reign cards (most with no subtype), one given two more, added
    # out of slug order
    card = Card.objects.for_game("revolt-n-reign").filter(subtypes__isnull=False).first()
    for slug in ("zz-last", "aa-first"):
        card.subtypes.add(subtype_factory(game=card.game, slug=slug))
    expected = {
        card.pk: sorted(subtype.slug for subtype in card.subtypes.all())
        for card in Card.objects.for_game("revolt-n-reign").prefetch_related("subtypes")
    }
    # when a page lists them
    body = api_client.get("/api/v1/cards/?game=revolt-n-reign&page_size=200").json()
    # then every row shows its card's subtypes, in slug order (the page query's subquery)
    shown = {row["id"]: row["subtypes"] for row in body["results"]}
    assert shown == {pk: expected[pk] for pk in shown}
    assert shown[card.pk][0] == "aa-first" and shown[card.pk][-1] == "zz-last"
    assert any(subtypes == [] for subtypes in shown.values())


def test_card_list_with_an_old_etag_shows_an_edited_card_at_once(api_client, mini_game):
    # given a list read once, and its ETag
    _game, cards = mini_game
    first = api_client.get("/api/v1/cards/?game=mini")
    # when a card on it changes (saved, as the admin and the loaders save: cards.signals; the
    # anonymous ETag follows the catalogue's generation, which that save moves)
    wall = cards["wall"]
    wall.rules_text = "Block two attacks."
    wall.save()
    again = api_client.get("/api/v1/cards/?game=mini", HTTP_IF_NONE_MATCH=first["ETag"])
    # then the old ETag gets the new list, not a 304
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    texts = {row["id"]: row["rules_text"] for row in again.json()["results"]}
    assert texts[cards["wall"].pk] == "Block two attacks."


def test_the_browsable_list_shows_each_request_its_own_filter_values(client, mini_game):
    # The filter forms share their fields (api.filters): what one request typed must not show
    # in the next request's form.
    first = client.get("/api/v1/cards/?game=mini&type=attack&cost_min=2", HTTP_ACCEPT="text/html")
    assert first.status_code == 200
    html = first.content.decode()
    assert re.search(r'<input[^>]*name="type"[^>]*value="attack"', html)
    assert re.search(r'<input[^>]*name="cost_min"[^>]*value="2"', html)
    second = client.get("/api/v1/cards/?game=mini", HTTP_ACCEPT="text/html")
    html = second.content.decode()
    assert re.search(r'<input[^>]*name="type"', html)
    assert not re.search(r'<input[^>]*name="type"[^>]*value=', html)
    assert not re.search(r'<input[^>]*name="cost_min"[^>]*value=', html)


@pytest.mark.parametrize("parameter", ["cost_max", "cost_min", "strength_min", "attack_max"])
def test_a_bad_number_filter_names_the_parameter_it_is_in(api_client, parameter):
    stem, other_end = parameter.rsplit("_", 1)[0], "min" if parameter.endswith("max") else "max"
    response = api_client.get("/api/v1/cards/", {f"{stem}_{other_end}": "1", parameter: "abc"})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["detail"] == f"{parameter}: Enter a whole number."
    assert error["field"] == parameter.rsplit("_", 1)[0] and error["code"] == "invalid"


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/cards/autocomplete/?q=sta&game=nope",
        "/api/v1/cards/named/?exact=Stamp+Act&game=nope",
    ],
)
def test_an_unknown_game_is_named_with_the_games_there_are(api_client, url):
    response = api_client.get(url)

    assert response.status_code == 400
    text = json.dumps(response.json())
    assert "There is no game 'nope': the games are" in text and "revolt-n-reign" in text
