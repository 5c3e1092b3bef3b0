"""The game-data loader: validation with clear messages, atomic writes, idempotence."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards import loaders
from cards.gamedata import (
    EngineFacts,
    GameDataError,
    register_engine_facts,
    unregister_engine_facts,
)
from cards.models import Card, Game
from cards.services import game_data_load
from tests.cards.rows import branch_slug

GAME_YAML = """
game:
  slug: mini
  name: Mini Game
  number_labels:
    cost: {name: mana, label: Mana}
    attack: {name: power, label: Power}
card_types:
  - {slug: unit, name: Unit}
  - {slug: spell, name: Spell}
branches:
  - {slug: red, name: Red, color: "#aa0000"}
rarities:
  - {slug: common, name: Common}
subtypes:
  - {slug: hero, name: Hero}
sets:
  - {code: M1, name: Mini One, release_date: 2026-01-01}
card_schema:
  type: object
  required: [type]
  properties:
    stats:
      type: object
      properties:
        speed: {type: integer, minimum: 0}
      additionalProperties: false
    effects:
      type: array
      items:
        type: object
        required: [op]
        properties:
          op: {enum: [draw, damage]}
          amount: {type: integer, minimum: 1}
        additionalProperties: false
  allOf:
    - if: {properties: {type: {const: unit}}}
      then: {properties: {attack: {type: integer}}, required: [attack]}
"""

CARDS_YAML = """
- name: Red Knight
  set: M1
  type: unit
  branch: red
  rarity: common
  subtypes: [hero]
  mana: 2
  power: 3
  stats: {speed: 1}
  rulings:
    - {date: 2026-02-02, text: The knight may attack the turn it arrives.}
- name: Quick Study
  set: M1
  type: spell
  mana: 1
  effects: [{op: draw, amount: 2}]
"""


def write_game(root: Path, cards: str = CARDS_YAML, game: str = GAME_YAML) -> Path:
    folder = root / "mini"
    (folder / "cards").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(game))
    (folder / "cards" / "main.yaml").write_text(textwrap.dedent(cards))
    return root


@pytest.mark.django_db
def test_load_creates_game_vocabulary_and_cards(tmp_path: Path) -> None:
    report = game_data_load(slug="mini", fixtures_dir=write_game(tmp_path))

    assert report.count("cards").created == 2
    knight = Card.objects.get(game__slug="mini", name="Red Knight")
    assert (knight.cost, knight.attack) == (2, 3)  # game-specific names map to columns
    assert branch_slug(knight) == "red"
    assert [s.slug for s in knight.subtypes.all()] == ["hero"]
    assert knight.rulings.get().text.startswith("The knight")
    assert Card.objects.get(name="Quick Study").effects == [{"op": "draw", "amount": 2}]


@pytest.mark.django_db
def test_loading_twice_changes_nothing(tmp_path: Path) -> None:
    root = write_game(tmp_path)
    game_data_load(slug="mini", fixtures_dir=root)
    before = list(Card.objects.filter(game__slug="mini").values().order_by("pk"))

    second = game_data_load(slug="mini", fixtures_dir=root)

    assert not second.changed, second.summary()
    assert second.count("cards").unchanged == 2
    assert list(Card.objects.filter(game__slug="mini").values().order_by("pk")) == before


@pytest.mark.django_db
def test_changed_card_is_updated_in_place(tmp_path: Path) -> None:
    root = write_game(tmp_path)
    game_data_load(slug="mini", fixtures_dir=root)
    pk = Card.objects.get(name="Red Knight").pk

    write_game(tmp_path, CARDS_YAML.replace("power: 3", "power: 4"))
    report = game_data_load(slug="mini", fixtures_dir=root)

    assert report.count("cards").updated == 1
    assert Card.objects.get(pk=pk).attack == 4


@pytest.mark.django_db
def test_schema_violation_names_file_card_and_field_and_writes_nothing(tmp_path: Path) -> None:
    bad = CARDS_YAML.replace("effects: [{op: draw, amount: 2}]", "effects: [{op: explode}]")
    with pytest.raises(GameDataError) as info:
        game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, bad))

    message = str(info.value)
    assert "main.yaml#1 (Quick Study)" in message
    assert "effects.0.op" in message and "explode" in message
    assert not Game.objects.filter(slug="mini").exists()  # atomic: nothing was written


@pytest.mark.django_db
def test_every_problem_is_reported_not_only_the_first(tmp_path: Path) -> None:
    bad = (
        CARDS_YAML.replace("power: 3", "power: many")
        .replace("branch: red", "branch: blue")
        .replace("{speed: 1}", "{speed: -1}")
    )
    bad += "\n- name: Red Knight\n  set: M1\n  type: spell\n"
    with pytest.raises(GameDataError) as info:
        game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, bad))

    problems = info.value.problems
    assert any("power must be a whole number" in p for p in problems)
    assert any("unknown branch 'blue' (known: red)" in p for p in problems)
    assert any("same name as" in p for p in problems)


@pytest.mark.django_db
def test_conditional_schema_rules_apply_per_type(tmp_path: Path) -> None:
    bad = CARDS_YAML.replace("  power: 3\n", "")
    with pytest.raises(GameDataError) as info:
        game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, bad))
    assert any("'attack' is a required property" in p for p in info.value.problems)


@pytest.mark.django_db
def test_stale_cards_are_reported_and_pruned_only_on_request(tmp_path: Path) -> None:
    root = write_game(tmp_path)
    game_data_load(slug="mini", fixtures_dir=root)
    write_game(tmp_path, CARDS_YAML.split("- name: Quick Study")[0])

    kept = game_data_load(slug="mini", fixtures_dir=root)
    assert kept.stale_cards == ["Quick Study"]
    assert Card.objects.filter(name="Quick Study").exists()

    pruned = game_data_load(slug="mini", fixtures_dir=root, prune=True)
    assert pruned.pruned == 1
    assert not Card.objects.filter(name="Quick Study").exists()


@pytest.mark.django_db
def test_unknown_game_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(GameDataError, match=r"no game data for 'nope'.*known: mini"):
        game_data_load(slug="nope", fixtures_dir=write_game(tmp_path))


@pytest.mark.django_db
def test_command_reports_problems_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = CARDS_YAML.replace("type: spell", "type: wizardry")
    with pytest.raises(CommandError):
        call_command("load_game_data", game=["mini"], fixtures=write_game(tmp_path, bad))
    assert "unknown type 'wizardry' (known: spell, unit)" in capsys.readouterr().err


@pytest.mark.django_db
def test_invalid_yaml_is_reported_with_its_file(tmp_path: Path) -> None:
    root = write_game(tmp_path, "- name: [unclosed\n")
    with pytest.raises(GameDataError, match=r"main\.yaml: not valid YAML"):
        game_data_load(slug="mini", fixtures_dir=root)


UNITS_NEED_A_SUBTYPE = GAME_YAML.replace(
    "      then: {properties: {attack: {type: integer}}, required: [attack]}",
    "      then: {properties: {subtypes: {minItems: 1}}, required: [attack]}",
)


@pytest.mark.django_db
def test_schema_sees_subtypes_of_cards_not_yet_saved(tmp_path: Path) -> None:
    root = write_game(tmp_path, game=UNITS_NEED_A_SUBTYPE)
    assert game_data_load(slug="mini", fixtures_dir=root).count("cards").created == 2

    write_game(
        tmp_path, CARDS_YAML.replace("subtypes: [hero]", "subtypes: []"), UNITS_NEED_A_SUBTYPE
    )
    with pytest.raises(GameDataError, match=r"Red Knight\): subtypes: \[\] should be non-empty"):
        game_data_load(slug="mini", fixtures_dir=root)


@pytest.mark.django_db
def test_command_runs_registered_loaders_after_the_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    # given: the registry holds only two loaders of this test (decks' formats loader set aside)
    monkeypatch.setattr(loaders, "_LOADERS", {})
    seen: list[tuple[str, int]] = []

    @loaders.register_game_data_loader("notes")
    def load_notes(*, slug: str, fixtures_dir: Path) -> str | None:
        seen.append((slug, Card.objects.filter(game__slug=slug).count()))
        return f"{slug} notes: 3 note(s)"

    @loaders.register_game_data_loader("puzzles")
    def load_puzzles(*, slug: str, fixtures_dir: Path) -> str | None:
        raise GameDataError([f"{fixtures_dir / slug}/puzzles.yaml: puzzle 1 has no answer"])

    # when
    with pytest.raises(CommandError, match="some game data is invalid"):
        call_command("load_game_data", game=["mini"], fixtures=write_game(tmp_path))

    # then: the cards were there for the loader, its summary printed, the failing one reported
    assert seen == [("mini", 2)]
    out, err = capsys.readouterr()
    assert "mini notes: 3 note(s)" in out
    assert "mini: puzzles not loaded, 1 problem(s):" in err
    assert "puzzle 1 has no answer" in err


@pytest.fixture
def mini_engine():
    """The mini game with an engine, as the rules app registers one: its name and player counts."""
    register_engine_facts("mini", EngineFacts("Mini Game: Engine Edition", 1, 3))
    yield
    unregister_engine_facts("mini")


WITHOUT_ENGINE_KEYS = GAME_YAML.replace("  name: Mini Game\n", "")


@pytest.mark.django_db
def test_a_game_with_an_engine_takes_its_name_and_player_counts_from_it(
    tmp_path: Path, mini_engine: None
) -> None:
    game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, game=WITHOUT_ENGINE_KEYS))

    game = Game.objects.get(slug="mini")
    assert (game.name, game.min_players, game.max_players) == ("Mini Game: Engine Edition", 1, 3)


@pytest.mark.django_db
def test_a_game_yaml_repeating_what_the_engine_says_is_refused(
    tmp_path: Path, mini_engine: None
) -> None:
    repeated = GAME_YAML.replace("  name: Mini Game\n", "  name: Mini Game\n  max_players: 3\n")
    with pytest.raises(GameDataError, match=r"name, max_players come from the game's engine"):
        game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, game=repeated))
    assert not Game.objects.filter(slug="mini").exists()


@pytest.mark.django_db
def test_a_short_name_another_game_has_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    Game.objects.create(slug="other", name="Other Game", short_name="MG")
    clashing = GAME_YAML.replace("  name: Mini Game", "  name: Mini Game\n  short_name: mg")
    with pytest.raises(GameDataError, match="short_name 'mg' is already the game 'other'"):
        game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, game=clashing))
    assert not Game.objects.filter(slug="mini").exists()
    fine = GAME_YAML.replace("  name: Mini Game", "  name: Mini Game\n  short_name: MNG")
    game_data_load(slug="mini", fixtures_dir=write_game(tmp_path, game=fine))
    assert Game.objects.get(slug="mini").short_name == "MNG"
