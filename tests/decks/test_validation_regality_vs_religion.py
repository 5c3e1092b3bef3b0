"""Regality vs Religion: a side's 7 tiles plus the neutral tiles of the chosen variant."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.validation import UnknownVariantError, card_index, validate

pytestmark = pytest.mark.django_db
GAME = "regality-vs-religion"
NEUTRALS = ["Samurai", "Ninja", "Bard", "Performer", "Sage", "Fairy", "Dragon"]


def side(branch: str, citizen: bool = False) -> list[tuple[str, int, str]]:
    names = [c.name for c in card_index(GAME).cards if c.branch == branch]
    return [(n, 1, "side") for n in names + (["Citizen"] if citizen else [])]


def neutral(count: int) -> list[tuple[str, int, str]]:
    return [(n, 1, "neutral") for n in NEUTRALS[:count]]


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("standard", (5,)),
        ("old-style", (0,)),
        ("random", (2,)),
        ("secret-random", (2,)),
        ("draft", (2, 3)),
        ("secret-draft", (2,)),
    ],
)
@pytest.mark.parametrize("branch", ["regality", "religion"])
def test_each_variant_allows_exactly_its_neutral_tiles(variant, counts, branch):
    for count in range(7):
        report = validate(GAME, side(branch) + neutral(count), variant=variant)
        if count in counts:
            assert report.legal, (variant, count, report.to_dict())
        else:
            assert report.codes == ["neutral-count"], (variant, count)
            assert report.violations[0].details["variant"] == variant


def test_the_default_variant_is_the_standard_neutral_area_of_five():
    report = validate(GAME, side("religion") + neutral(5))

    assert report.legal
    assert report.variant == "standard"


def test_the_starting_player_may_hold_the_citizen():
    assert validate(GAME, side("regality", citizen=True) + neutral(5)).legal


def test_draft_the_starting_player_holding_the_citizen_drafts_two_neutral_tiles_not_three():
    # Draft: the starting player picks two tiles, the second player ends with three.
    starting = side("religion", citizen=True)
    assert validate(GAME, starting + neutral(2), variant="draft").legal
    report = validate(GAME, starting + neutral(3), variant="draft")
    assert report.codes == ["neutral-count"]
    assert report.violations[0].details["allowed"] == [2]
    assert validate(GAME, side("religion") + neutral(3), variant="draft").legal


def test_the_citizen_is_never_one_of_the_drawn_neutral_tiles():
    report = validate(GAME, side("regality") + neutral(5) + [("Citizen", 1, "neutral")])

    assert report.codes == ["wrong-zone"]
    assert report.violations[0].cards == ["Citizen"]


def test_a_side_is_all_seven_tiles_of_one_alignment():
    missing = side("regality")[1:]
    report = validate(GAME, missing + neutral(5))

    assert report.codes == ["side-tiles"]
    assert report.violations[0].details["count"] == 6


def test_alignments_do_not_mix():
    report = validate(GAME, [*side("regality"), ("Temple", 1, "side"), *neutral(5)])

    assert report.codes == ["mixed-alignment"]


def test_a_neutral_tile_on_the_side_is_in_the_wrong_zone():
    report = validate(GAME, [*side("religion"), ("Dragon", 1, "side"), *neutral(5)])

    assert report.codes == ["wrong-zone"]
    assert report.violations[0].cards == ["Dragon"]


def test_each_tile_exists_once():
    report = validate(GAME, [*side("religion"), ("Samurai", 2, "neutral")], variant="random")

    assert report.codes == ["copy-limit"]


def test_an_unknown_variant_is_an_error_naming_the_variants():
    with pytest.raises(UnknownVariantError, match="old-style"):
        validate(GAME, side("religion"), variant="blitz")


def test_every_break_at_once():
    entries = [*side("regality")[1:], ("Temple", 1, "side"), ("Bard", 2, "neutral")]
    entries += [("Citizen", 1, "neutral"), ("Dragon", 1, "side"), ("Kingg", 1, "side")]

    report = validate(GAME, entries, variant="draft")

    assert set(report.codes) == {
        "side-tiles",
        "mixed-alignment",
        "wrong-zone",
        "copy-limit",
        "unknown-card",
    }


VARIANT_COUNTS = {
    "standard": (5,),
    "old-style": (0,),
    "random": (2,),
    "secret-random": (2,),
    "draft": (2, 3),
    "secret-draft": (2,),
}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_random_setups_agree_with_an_independent_count(data):
    tiles = list(Card.objects.filter(game__slug=GAME).values_list("name", "branch__slug"))
    variant = data.draw(st.sampled_from(sorted(VARIANT_COUNTS)))
    entries = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(tiles), st.integers(1, 2), st.sampled_from(["side", "neutral"])
            ),
            max_size=14,
        )
    )
    if data.draw(st.booleans()):
        branch = data.draw(st.sampled_from(["regality", "religion"]))
        entries += [((n, b), 1, "side") for n, b in tiles if b == branch]
    deck = [(name, q, zone) for (name, _), q, zone in entries]

    report = validate(GAME, deck, variant=variant)

    branch_of = dict(tiles)
    totals: dict[str, int] = {}
    for name, q, _ in deck:
        totals[name] = totals.get(name, 0) + q
    side = {n: 0 for n, _, z in deck if z == "side"}
    for n, q, z in deck:
        if z == "side":
            side[n] += q
    neutral_drawn = sum(
        q for n, q, z in deck if z == "neutral" and branch_of[n] == "neutral" and n != "Citizen"
    )
    expected = set()
    if any(q > 1 for q in totals.values()):
        expected.add("copy-limit")
    if any(z == "side" and branch_of[n] == "neutral" and n != "Citizen" for n, _, z in deck) or any(
        z == "neutral" and (branch_of[n] != "neutral" or n == "Citizen") for n, _, z in deck
    ):
        expected.add("wrong-zone")
    sided = {branch_of[n] for n in side if branch_of[n] in ("regality", "religion")}
    if len(sided) > 1:
        expected.add("mixed-alignment")
    if not sided:
        expected.add("side-tiles")
    else:
        counts = {b: sum(q for n, q in side.items() if branch_of[n] == b) for b in sided}
        home = max(sorted(sided), key=lambda b: sum(1 for n in side if branch_of[n] == b))
        own = [n for n, b in tiles if b == home]
        if any(n not in side for n in own) or counts[home] != 7:
            expected.add("side-tiles")
    allowed = VARIANT_COUNTS[variant]
    if variant == "draft" and "Citizen" in side:
        allowed = (2,)  # Draft: the starting player, who holds the Citizen, picks two
    if neutral_drawn not in allowed:
        expected.add("neutral-count")
    assert set(report.codes) == expected, deck
