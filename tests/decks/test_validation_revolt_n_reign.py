"""Revolt N Reign construction rules: one test per rule and per code, plus combinations.

Each "smallest break" starts from the legal Eagle Control sample and changes as little as possible,
so the deck breaks exactly the rule under test and the report holds exactly its code.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.validation import validate
from tests.cards.rows import rarity_slug
from tests.decks.conftest import RNR, legal_rnr_deck

pytestmark = pytest.mark.django_db


def bend(add: dict[str, int] | None = None, remove: dict[str, int] | None = None) -> dict[str, int]:
    deck = legal_rnr_deck()
    for name, count in (remove or {}).items():
        deck[name] -= count
        if deck[name] == 0:
            del deck[name]
    for name, count in (add or {}).items():
        deck[name] = deck.get(name, 0) + count
    return deck


def codes(report) -> list[str]:
    return sorted(report.codes)


def test_the_legal_sample_is_legal_and_counts_its_sixty_cards():
    report = validate(RNR, legal_rnr_deck())

    assert report.legal
    assert report.card_count == 60
    assert report.violations == []


def test_deck_size_counts_the_uas():
    # given 59 cards
    report = validate(RNR, bend(remove={"Signal Ridge": 1}))

    # then
    assert codes(report) == ["deck-size"]
    violation = report.violations[0]
    assert violation.rule == "Components"
    assert "59 cards" in violation.message and "60" in violation.message


def test_sixty_one_cards_is_also_the_wrong_size():
    report = validate(RNR, bend(add={"Signal Ridge": 1}))

    assert codes(report) == ["deck-size"]


def test_ua_count_requires_exactly_three_acts():
    report = validate(RNR, bend(add={"Signal Ridge": 1}, remove={"Tea Act": 1}))

    assert codes(report) == ["ua-count"]
    assert report.violations[0].cards == ["Stamp Act", "Sugar Act"]
    assert report.violations[0].rule == "Unconstitutional Acts"


def test_four_acts_is_also_a_ua_count_violation():
    report = validate(RNR, bend(add={"Currency Act": 1}, remove={"Signal Ridge": 1}))

    assert codes(report) == ["ua-count"]


@pytest.mark.parametrize(
    ("doubled", "replaces", "rule"),
    [
        ("Right to Trade", "Signal Ridge", "Rights Cards"),
        ("Freedom of Movement", "Signal Ridge", "Freedom Cards"),
        ("Postal Roads Bill", "Signal Ridge", "Bills"),
    ],
)
def test_copy_limit_is_one_for_rights_freedom_and_bills(doubled, replaces, rule):
    report = validate(RNR, bend(add={doubled: 1}, remove={replaces: 1}))

    assert codes(report) == ["copy-limit"]
    assert report.violations[0].cards == [doubled]
    assert report.violations[0].rule == rule
    assert report.violations[0].details == {"count": 2, "limit": 1}


def test_rare_pillar_is_limited_to_one_copy():
    deck = bend(add={"High Aerie Citadel": 2}, remove={"Signal Ridge": 2})

    report = validate(RNR, deck)

    assert codes(report) == ["copy-limit"]
    assert report.violations[0].cards == ["High Aerie Citadel"]
    assert report.violations[0].rule == "Pillar Cards"
    assert validate(RNR, bend(add={"High Aerie Citadel": 1}, remove={"Signal Ridge": 1})).legal


def test_a_second_copy_of_an_act_is_a_copy_limit_not_a_ua_count_problem():
    report = validate(RNR, bend(add={"Stamp Act": 1}, remove={"Tea Act": 1}))

    assert codes(report) == ["copy-limit"]
    assert report.violations[0].rule == "Unconstitutional Acts"
    assert report.violations[0].message == (
        "Copy limit: 2 copies of Stamp Act, the rulebook allows 1 copy of an Unconstitutional "
        "Act card (Unconstitutional Acts)"
    )


def test_three_copies_of_an_attack_break_the_copy_limit_of_two():
    report = validate(RNR, bend(add={"Eagle Dive": 1}, remove={"Signal Ridge": 1}))

    assert codes(report) == ["copy-limit"]
    assert report.violations[0].details == {"count": 3, "limit": 2}
    assert "Eagle Dive" in report.violations[0].message


def test_a_tripled_name_counts_as_one_of_the_doubled_names():
    report = validate(RNR, bend(add={"Coastal Battery": 2}, remove={"Signal Ridge": 2}))

    assert codes(report) == ["copy-limit", "duplicate-names"]
    assert "Coastal Battery" in report.violations[-1].cards


def test_non_rare_pillars_are_unlimited():
    deck = bend(add={"Signal Ridge": 12}, remove={"Harbor Customs House": 6, "Watchtower Post": 6})

    report = validate(RNR, deck)

    assert deck["Signal Ridge"] == 18
    assert report.legal, report.to_dict()


def test_fifth_doubled_name_is_duplicate_names():
    report = validate(RNR, bend(add={"Coastal Battery": 1}, remove={"Signal Ridge": 1}))

    assert codes(report) == ["duplicate-names"]
    violation = report.violations[0]
    assert violation.cards == sorted(
        ["Coastal Battery", "Eagle Dive", "Night Ride Dispatch", "Privateer Raid", "Talon Strike"]
    )
    assert violation.rule == "Duplicates"


ATTACKS = ["Eagle Dive", "Talon Strike", "Privateer Raid", "Night Ride Dispatch"]
DEFENSES = ["Coastal Battery", "Customs Cordon", "Lookout Eyrie", "Picket Line"]


@pytest.mark.parametrize(
    ("attacks", "defenses"),
    [(a, d) for a in range(5) for d in range(5) if a + d <= 5],
)
def test_any_mix_of_up_to_four_doubled_names_is_legal(attacks, defenses):
    """Ruling (docs/rules/revolt-n-reign.md): any Attack/Defense mix totalling at most 4 names is
    lawful, including 1+1, 1+2 and 2+1, which the rulebook's list of configurations leaves out."""
    deck = legal_rnr_deck()
    for name in ATTACKS:
        deck[name] = 1
    for name in DEFENSES:
        deck[name] = 1
    extra_attacks = ["Skirmish at the Bridge"]
    doubled = ATTACKS[:attacks] + (extra_attacks if attacks > 4 else []) + DEFENSES[:defenses]
    for name in doubled:
        deck[name] = 2
    deck["Signal Ridge"] += 4 - len(doubled)

    report = validate(RNR, deck)

    assert report.card_count == 60
    if attacks + defenses <= 4:
        assert report.legal, report.to_dict()
    else:
        assert codes(report) == ["duplicate-names"]


def test_petitions_count_toward_rights_cap():
    deck = bend(add={"Grievance Roll": 1, "Petition for Redress": 1, "Olive Branch Petition": 1,
                     "Petition of the Townships": 1},
                remove={"Signal Ridge": 4})  # fmt: skip
    assert validate(RNR, deck).legal

    deck["Memorial of the Farmers"] = 1
    deck["Signal Ridge"] -= 1
    report = validate(RNR, deck)

    assert codes(report) == ["rights-cap"]
    assert report.violations[0].message == (
        "Rights cap: 13 Rights cards, the rulebook allows 12 (Rights Cards)"
    )
    assert "Grievance Roll" in report.violations[0].cards


def test_freedom_cap_is_three():
    deck = bend(add={"Freedom of Speech": 1}, remove={"Signal Ridge": 1})
    assert validate(RNR, deck).legal

    deck["Freedom of Worship"] = 1
    deck["Signal Ridge"] -= 1
    report = validate(RNR, deck)

    assert codes(report) == ["freedom-cap"]
    assert report.violations[0].rule == "Freedom Cards"


def test_bill_cap_is_three():
    deck = bend(add={"Census Bill": 1}, remove={"Signal Ridge": 1})
    assert validate(RNR, deck).legal

    deck["Judiciary Bill"] = 1
    deck["Signal Ridge"] -= 1
    report = validate(RNR, deck)

    assert codes(report) == ["bill-cap"]
    assert report.violations[0].rule == "Bills"


def test_unknown_card_suggests_the_closest_real_names():
    deck = bend(add={"Talon Strik": 2}, remove={"Talon Strike": 2})

    report = validate(RNR, deck)

    assert codes(report) == ["unknown-card"]
    violation = report.violations[0]
    assert violation.cards == ["Talon Strik"]
    assert violation.details["suggestions"][0] == "Talon Strike"
    assert "did you mean Talon Strike" in violation.message
    assert report.card_count == 60  # the unknown lines still count toward the deck's size


def test_names_match_ignoring_case_and_punctuation():
    deck = bend(add={"SAILORS PETITION": 1, "harbor-customs house": 6},
                remove={"Sailors' Petition": 1, "Harbor Customs House": 6})  # fmt: skip

    assert validate(RNR, deck).legal


def test_repeated_lines_of_one_card_are_added_up():
    entries = [(name, quantity) for name, quantity in legal_rnr_deck().items()]
    entries.remove(("Eagle Dive", 2))
    entries += [("Eagle Dive", 1), ("eagle dive", 1), ("Eagle Dive", 1), ("Signal Ridge", -0)]
    entries.remove(("Signal Ridge", 6))
    entries.append(("Signal Ridge", 5))

    report = validate(RNR, entries)

    assert codes(report) == ["copy-limit"]
    assert report.violations[0].details["count"] == 3


def test_a_quantity_that_is_not_a_positive_whole_number_is_reported():
    deck = bend()
    deck["Signal Ridge"] = "six"

    report = validate(RNR, deck)

    assert "invalid-quantity" in report.codes


def test_a_deck_breaking_several_rules_reports_every_one():
    # given: 2 UAs, a doubled Bill, 4 Freedoms, 13 Rights, 5 doubled names, a typo, 56 cards
    deck = bend(
        add={
            "Postal Roads Bill": 1,
            "Freedom of Speech": 1,
            "Freedom of Worship": 1,
            "Grievance Roll": 1,
            "Petition for Redress": 1,
            "Olive Branch Petition": 1,
            "Petition of the Townships": 1,
            "Memorial of the Farmers": 1,
            "Coastal Battery": 1,
            "Eagle Dive": 1,
            "Stamp Actt": 1,
        },
        remove={"Tea Act": 1, "Stamp Act": 1, "Signal Ridge": 6, "Watchtower Post": 6,
                "Harbor Customs House": 3},
    )  # fmt: skip

    report = validate(RNR, deck)

    assert codes(report) == sorted(
        [
            "deck-size",
            "ua-count",
            "copy-limit",
            "copy-limit",
            "duplicate-names",
            "rights-cap",
            "freedom-cap",
            "unknown-card",
        ]
    )
    assert {tuple(v.cards) for v in report.violations if v.code == "copy-limit"} == {
        ("Eagle Dive",),
        ("Postal Roads Bill",),
    }
    assert not report.legal


def test_the_report_is_json_serialisable_with_every_field():
    report = validate(RNR, bend(remove={"Tea Act": 1}))

    data = json.loads(json.dumps(report.to_dict()))

    assert data["legal"] is False
    assert data["card_count"] == 59
    assert {v["code"] for v in data["violations"]} == {"deck-size", "ua-count"}
    assert set(data["violations"][0]) == {"code", "message", "rule", "cards", "details"}


# -- random decks against an independent count ----------------------------------------------------


def _oracle(deck: dict[str, int]) -> set[str]:
    """Expected codes, counted straight from the database rows (not the validation index)."""
    cards = {
        c.name: c
        for c in Card.objects.filter(game__slug=RNR)
        .select_related("card_type", "rarity")
        .prefetch_related("subtypes")
    }
    expected: set[str] = set()
    if sum(deck.values()) != 60:
        expected.add("deck-size")

    def of_type(slug: str) -> int:
        return sum(n for name, n in deck.items() if cards[name].card_type.slug == slug)

    if of_type("unconstitutional-act") != 3:
        expected.add("ua-count")
    if of_type("rights") > 12:
        expected.add("rights-cap")
    if of_type("freedom") > 3:
        expected.add("freedom-cap")
    if of_type("bill") > 3:
        expected.add("bill-cap")
    doubled = 0
    for name, n in deck.items():
        card = cards[name]
        kind = card.card_type.slug
        petition = any(s.slug == "petition" for s in card.subtypes.all())
        if kind in ("attack", "defense"):
            allowed = 2
            doubled += n >= 2
        elif kind == "pillar" and rarity_slug(card) != "rare" and not petition:
            allowed = 10**9
        else:
            allowed = 1
        if n > allowed:
            expected.add("copy-limit")
    if doubled > 4:
        expected.add("duplicate-names")
    return expected


@st.composite
def random_decks(draw, names: list[str]) -> dict[str, int]:
    base = legal_rnr_deck()
    picks = draw(st.lists(st.sampled_from(names), max_size=8))
    deck = dict(base) if draw(st.booleans()) else {}
    for name in picks:
        deck[name] = deck.get(name, 0) + draw(st.integers(1, 3))
    for name in draw(st.lists(st.sampled_from(sorted(base)), max_size=4)):
        deck.pop(name, None)
    return deck


@pytest.fixture(scope="module")
def rnr_names(django_db_blocker) -> list[str]:
    with django_db_blocker.unblock():
        return sorted(Card.objects.filter(game__slug=RNR).values_list("name", flat=True))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_decks_agree_with_an_independent_count(rnr_names, data):
    deck = data.draw(random_decks(rnr_names))

    report = validate(RNR, deck)

    assert set(report.codes) == _oracle(deck)
    assert report.legal == (not _oracle(deck))
    assert report.card_count == sum(deck.values())


def test_all_pairs_of_rule_breaks_are_reported_together():
    breaks = {
        "deck-size": {"remove": {"Signal Ridge": 1}},
        "ua-count": {"remove": {"Tea Act": 1}, "add": {"Watchtower Post": 1}},
        "rights-cap": {"add": dict.fromkeys(["Grievance Roll", "Petition for Redress", "Olive Branch Petition", "Petition of the Townships", "Memorial of the Farmers"], 1), "remove": {"Harbor Customs House": 5}},
        "bill-cap": {"add": {"Census Bill": 1, "Judiciary Bill": 1},
                     "remove": {"Lighthouse Keep": 2}},
    }  # fmt: skip
    for first, second in itertools.combinations(breaks, 2):
        add: dict[str, int] = {}
        remove: dict[str, int] = {}
        for key in (first, second):
            for name, n in breaks[key].get("add", {}).items():
                add[name] = add.get(name, 0) + n
            for name, n in breaks[key].get("remove", {}).items():
                remove[name] = remove.get(name, 0) + n
        report = validate(RNR, bend(add=add, remove=remove))
        assert set(report.codes) == {first, second}, (first, second, report.codes)
