"""Table-driven card queries against the real Revolt N Reign fixtures.

Each row is a query and either the exact names a player expects or a predicate over the plain
card records (``cards.selectors.card_export``): a second, independent statement of what the query
means, so the table stays right when cards are added to the fixtures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cards.models import Game
from cards.naming import name_key
from cards.selectors import card_export

GAME = "revolt-n-reign"
Record = dict[str, Any]

pytestmark = pytest.mark.django_db


def num(record: Record, name: str) -> int | None:
    return record["numbers"].get(name)


def num_of(record: Record, name: str) -> int:
    """A number the record has (the test fails on a record without it)."""
    value = num(record, name)
    assert value is not None, (record["name"], name)
    return value


def has_text(record: Record, word: str) -> bool:
    return (
        name_key(word) in name_key(record["name"]) or word.lower() in record["rules_text"].lower()
    )


def rules(record: Record, text: str) -> bool:
    return text.lower() in record["rules_text"].lower()


def cmp(name: str, test: Callable[[int], bool]) -> Callable[[Record], bool]:
    return lambda r: num(r, name) is not None and test(num_of(r, name))


UA = "unconstitutional-act"
RARITY = {"common": 1, "uncommon": 2, "rare": 3}

QUERIES: list[tuple[str, list[str] | Callable[[Record], bool]]] = [
    ("t:unconstitutional-act", lambda r: r["type"] == UA),
    ('t:"Unconstitutional Act"', lambda r: r["type"] == UA),
    ("t:pillar b:bison", lambda r: r["type"] == "pillar" and r["branch"] == "bison"),
    ("b:liberty-bell t:attack r:rare", ["Bell Tower Barrage", "Overthrow the Governor"]),
    ('b:"Liberty Bell" t:attack r:rare', ["Bell Tower Barrage", "Overthrow the Governor"]),
    ("st:petition b:eagle", ["Petition of the Merchants", "Sailors' Petition"]),
    ("s:RNR2 t:defense", ["Gazette Office Guard", "Prairie Fort", "Signal Fire Guard"]),
    ("ip<=1 t:attack", lambda r: r["type"] == "attack" and num_of(r, "ip_cost") <= 1),
    ("ip=0", cmp("ip_cost", lambda v: v == 0)),
    ("cost:0", cmp("ip_cost", lambda v: v == 0)),
    ("cost>=6", cmp("ip_cost", lambda v: v >= 6)),
    ("ad>25", cmp("attack_damage", lambda v: v > 25)),
    ("dp>=30", cmp("defense_points", lambda v: v >= 30)),
    ("ld=2", ["Intolerable Acts", "Proclamation Line", "Writs of Assistance"]),
    ("lp_drain>1", cmp("lp_drain", lambda v: v > 1)),
    ("ig>=2", ["Continental Treasury", "Mountain Pass Fort"]),
    ("ip_generation=2", cmp("ip_generation", lambda v: v == 2)),
    ("attack_damage=30", cmp("attack_damage", lambda v: v == 30)),
    ("defense_points<10 t:defense", ["Ox-Cart Barricade", "Parchment Screen"]),
    (
        "-t:pillar -t:attack -t:defense -t:rights -t:freedom -t:bill",
        lambda r: r["type"] == UA,
    ),
    ("t:attack OR t:defense", lambda r: r["type"] in ("attack", "defense")),
    ("(b:bison OR b:eagle) t:bill r:rare", ["Assumption Bill"]),
    (
        "t:freedom -b:scroll -b:liberty-bell -b:bison",
        lambda r: r["type"] == "freedom" and r["branch"] == "eagle",
    ),
    ("storm", lambda r: has_text(r, "storm")),
    ('!"Stamp Act"', ["Stamp Act"]),
    ("!stamp-act", ["Stamp Act"]),
    ('"customs house"', lambda r: has_text(r, "customs house")),
    ('o:"draw 2 cards"', lambda r: rules(r, "draw 2 cards")),
    ("o:mill t:bill", lambda r: r["type"] == "bill" and rules(r, "mill")),
    ("o:exile -t:freedom", lambda r: rules(r, "exile") and r["type"] != "freedom"),
    (
        "n:petition -st:petition",
        lambda r: "petition" in name_key(r["name"]) and "petition" not in r["subtypes"],
    ),
    ("petition r:rare", lambda r: has_text(r, "petition") and r["rarity"] == "rare"),
    (
        "r>=uncommon t:pillar b:scroll",
        lambda r: (
            r["type"] == "pillar"
            and r["branch"] == "scroll"
            and RARITY[r["rarity"]] >= RARITY["uncommon"]
        ),
    ),
    ("t:unconstitutional-act r<uncommon", lambda r: r["type"] == UA and r["rarity"] == "common"),
    ('rarity:rare set:"Frontier Charters"', lambda r: r["rarity"] == "rare" and r["set"] == "RNR2"),
    ("g:RNR t:bill ip>=6", ["Impeachment Bill", "Repeal Bill"]),
    ("b!=scroll t:bill", lambda r: r["type"] == "bill" and r["branch"] != "scroll"),
    (
        "ip!=2 t:rights b:scroll",
        lambda r: r["type"] == "rights" and r["branch"] == "scroll" and num(r, "ip_cost") != 2,
    ),
    ("e:rnr2 OR ld=2", lambda r: r["set"] == "RNR2" or num(r, "lp_drain") == 2),
    ("bell -t:pillar", lambda r: has_text(r, "bell") and r["type"] != "pillar"),
    ('"LP drain" t:bill', ["Repeal Bill"]),
    ("right to", lambda r: has_text(r, "right") and has_text(r, "to")),
    ('-o:"On play" t:rights', lambda r: r["type"] == "rights" and not rules(r, "on play")),
    (
        "cost>=5 (t:attack OR t:bill) b:eagle",
        lambda r: (
            (num(r, "ip_cost") or 0) >= 5
            and r["type"] in ("attack", "bill")
            and r["branch"] == "eagle"
        ),
    ),
    ("act", lambda r: has_text(r, "act")),
    (
        "t:pillar ig=1 r:rare",
        lambda r: r["type"] == "pillar" and r["rarity"] == "rare" and num(r, "ip_generation") == 1,
    ),
    ('"" t:bill', lambda r: r["type"] == "bill"),
    (
        "-(t:pillar OR t:attack OR t:defense OR t:rights OR t:freedom) -t:unconstitutional-act",
        lambda r: r["type"] == "bill",
    ),
    ("ad>=20 dp>=20", []),
    ("fortress", ["Fortress of the Heights"]),
    ("r>uncommon OR r<uncommon", lambda r: r["rarity"] != "uncommon"),
    (
        "branch:Eagle type:Rights cost<2",
        lambda r: r["type"] == "rights" and r["branch"] == "eagle" and num_of(r, "ip_cost") < 2,
    ),
]


@pytest.fixture(scope="module")
def records(django_db_blocker) -> list[Record]:
    with django_db_blocker.unblock():
        game = Game.objects.filter(slug=GAME).first()
        if game is None:
            pytest.skip("the Revolt N Reign fixtures are not there yet")
        return card_export(game)


def test_the_table_is_big_enough():
    assert len(QUERIES) >= 40


@pytest.mark.parametrize(("query", "expected"), QUERIES, ids=[q for q, _ in QUERIES])
def test_query_against_the_fixtures(api_client, records, query, expected):
    response = api_client.get(
        "/api/v1/cards/", {"game": GAME, "q": query, "page_size": 200, "order": "name"}
    )
    assert response.status_code == 200, response.json()
    found = sorted(card["name"] for card in response.json()["results"])
    assert response.json()["count"] == len(found)
    if callable(expected):
        wanted = sorted(r["name"] for r in records if expected(r))
        assert wanted, f"the oracle for {query!r} selects nothing: a useless row"
    else:
        wanted = sorted(expected)
    assert found == wanted


@pytest.mark.parametrize(
    ("query", "position"),
    [
        ("t:atack", 2),
        ("b:eagle ip<=x", 12),
        ("b:eagle (t:attack", 17),
        ("mana>=3", 0),
        ("r>=mythic", 3),
        ('o:"unclosed', 2),
        ("t:attack OR", 11),
    ],
)
def test_bad_queries_against_the_fixtures_are_positioned_400s(api_client, records, query, position):
    response = api_client.get("/api/v1/cards/", {"game": GAME, "q": query})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid-query"
    assert body["position"] == position, body
