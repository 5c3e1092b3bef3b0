"""Regality vs Religion tile data: the fixture is the tile list, the engine reads it ("Tile list")."""

from __future__ import annotations

import copy

import pytest

from cards.models import Game
from cards.schema import record_errors
from rules.adapters import engine_for, game_records
from rules.engines.core import engine_records, thaw
from rules.engines.regality_vs_religion.powers import power_problems
from rules.engines.regality_vs_religion.tiles import builtin_records

SLUG = "regality-vs-religion"
pytestmark = pytest.mark.django_db


def test_the_fixture_holds_exactly_the_tiles_of_the_tile_list():
    records = game_records(SLUG)
    by_branch: dict[str, list[str]] = {}
    for record in records:
        by_branch.setdefault(record["branch"], []).append(record["name"])
    assert len(by_branch["regality"]) == len(by_branch["religion"]) == 7
    assert len(by_branch["neutral"]) == 17 and "Citizen" in by_branch["neutral"]
    game = Game.objects.get(slug=SLUG)
    assert (game.name, game.branch_label, game.sort_order) == (
        "Regality vs Religion: Revolution",
        "Alignment",
        4,
    )


def test_each_side_has_the_same_powers_pairwise():
    records = {r["name"]: r for r in game_records(SLUG)}
    for record in records.values():
        if record["branch"] in ("regality", "religion"):
            other = records[record["stats"]["counterpart"]]
            assert other["branch"] != record["branch"]
            assert other["effects"] == record["effects"]


def test_the_built_in_copy_agrees_with_the_database():
    from_db = {r.name: r.as_record() for r in engine_records(game_records(SLUG))}
    built_in = {r.name: r.as_record() for r in engine_records(builtin_records())}
    assert from_db == built_in


def test_the_engine_plays_with_the_database_records():
    game = engine_for(SLUG)
    state = game.new_initial_state(0, {"variant": "old-style"})
    assert len(game.tables.specs) == 31
    assert state.legal_actions()[0].args[0] == "citizen"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r["effects"][0].update(kind="explode"), "effects"),
        (lambda r: r["effects"][0]["target"]["groups"].append(["UP"]), "groups"),
        (lambda r: r["stats"].update(power_type="sometimes"), "power_type"),
        (lambda r: r["stats"].pop("counterpart"), "counterpart"),
    ],
)
def test_the_card_schema_refuses_malformed_powers(change, field):
    schema = Game.objects.get(slug=SLUG).card_schema
    king = copy.deepcopy(next(r for r in game_records(SLUG) if r["name"] == "King"))
    assert record_errors(schema, king) == []
    change(king)
    assert record_errors(schema, king)


def test_the_engine_names_tiles_it_cannot_execute():
    queen = thaw(next(r for r in builtin_records() if r["name"] == "Queen"))
    assert power_problems(queen) == []
    queen["effects"][0]["timing"] = "end"
    assert power_problems(queen) and "cannot execute" in power_problems(queen)[0]
