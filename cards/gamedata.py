"""Reading a game's data files from ``fixtures/<game>/``.

Layout of one game's folder:

    game.yaml        game metadata, card types, branches, rarities, subtypes, sets, card schema
    cards/*.yaml     lists of cards (read in file-name order)

A card in a card file names its vocabulary by slug (``type: attack``, ``branch: eagle``) and its
printed numbers by the game's own names (``ip_cost``, ``attack_damage``) or by the column names.

Most games keep their folder under the project's ``fixtures/``; a game whose data lives elsewhere
(the contract test's toy game) registers its folder with ``register_fixtures_dir``, and
``load_game_data`` finds it there.

A game with an engine says its name and player counts once, in its engine's ``Game`` class: the
rules app registers them here (``register_engine_facts``; this app cannot import the engines),
``read_game`` fills them into the game's entry, and a ``game.yaml`` that repeats them is
refused. Only a game without an engine (data alone) gives them in its ``game.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

GAME_FILE = "game.yaml"
CARDS_DIR = "cards"


class GameDataError(Exception):
    """Game data that cannot be loaded; ``problems`` lists every problem found, with its place."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass
class GameData:
    """One game's data as read from disk, not yet validated against the database."""

    slug: str
    folder: Path
    game: dict[str, Any]
    card_types: list[dict[str, Any]]
    branches: list[dict[str, Any]]
    rarities: list[dict[str, Any]]
    subtypes: list[dict[str, Any]]
    sets: list[dict[str, Any]]
    card_schema: dict[str, Any]
    cards: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """(where, card) pairs; ``where`` is ``file.yaml#index`` for error messages."""


def _read_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except yaml.YAMLError as exc:
        raise GameDataError([f"{path}: not valid YAML: {exc}"]) from exc
    except OSError as exc:
        raise GameDataError([f"{path}: cannot be read: {exc.strerror}"]) from exc


_EXTRA_DIRS: dict[str, Path] = {}


@dataclass(frozen=True)
class EngineFacts:
    """What a game's engine says of the game, which its ``game.yaml`` leaves to the engine."""

    name: str
    min_players: int
    max_players: int


#: the keys of ``game.yaml``'s ``game`` entry that a game with an engine leaves to it
ENGINE_KEYS = ("name", "min_players", "max_players")
_ENGINE_FACTS: dict[str, EngineFacts] = {}


def register_engine_facts(slug: str, facts: EngineFacts) -> None:
    """Take ``slug``'s name and player counts from its engine (the rules app calls this)."""
    _ENGINE_FACTS[slug] = facts


def unregister_engine_facts(slug: str) -> None:
    """Forget what ``register_engine_facts`` registered for ``slug``."""
    _ENGINE_FACTS.pop(slug, None)


def engine_facts(slug: str) -> EngineFacts | None:
    """``slug``'s name and player counts as its engine says them; None for a game without one."""
    return _ENGINE_FACTS.get(slug)


def register_fixtures_dir(slug: str, fixtures_dir: Path) -> None:
    """Read ``slug``'s data from ``fixtures_dir/<slug>/`` instead of the project's fixtures."""
    _EXTRA_DIRS[slug] = Path(fixtures_dir)


def unregister_fixtures_dir(slug: str) -> None:
    """Forget a folder registered with ``register_fixtures_dir``."""
    _EXTRA_DIRS.pop(slug, None)


def fixtures_dir_for(slug: str, default: Path) -> Path:
    """The folder holding ``slug``'s data folder: its registered one, else ``default``."""
    return _EXTRA_DIRS.get(slug, default)


def registered_fixtures_games() -> list[str]:
    """The slugs of games whose data lives in a registered folder, sorted."""
    return sorted(
        slug for slug, folder in _EXTRA_DIRS.items() if (folder / slug / GAME_FILE).is_file()
    )


def available_games(fixtures_dir: Path) -> list[str]:
    """Return the slugs of every game folder under ``fixtures_dir``, sorted."""
    return sorted(p.parent.name for p in fixtures_dir.glob(f"*/{GAME_FILE}"))


def read_game(fixtures_dir: Path, slug: str) -> GameData:
    """Read and shape-check one game's folder; raise GameDataError listing every problem."""
    folder = fixtures_dir / slug
    game_file = folder / GAME_FILE
    if not game_file.is_file():
        known = ", ".join(available_games(fixtures_dir)) or "none"
        raise GameDataError([f"no game data for {slug!r} (looked for {game_file}; known: {known})"])
    raw = _read_yaml(game_file)
    problems: list[str] = []
    if not isinstance(raw, dict):
        raise GameDataError([f"{game_file}: the top level must be a mapping"])
    game = raw.get("game")
    if not isinstance(game, dict) or game.get("slug") != slug:
        problems.append(f"{game_file}: 'game' must be a mapping whose slug is {slug!r}")
    facts = engine_facts(slug)
    if facts is not None and isinstance(game, dict):
        repeated = [key for key in ENGINE_KEYS if key in game]
        if repeated:
            problems.append(
                f"{game_file}: {', '.join(repeated)} come from the game's engine (its Game class);"
                " remove them from game.yaml"
            )
        game = {**game, **{key: getattr(facts, key) for key in ENGINE_KEYS}}
    lists = {}
    for key in ("card_types", "branches", "rarities", "subtypes", "sets"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            problems.append(f"{game_file}: {key!r} must be a list of mappings")
            value = []
        lists[key] = value
    schema = raw.get("card_schema", {})
    if not isinstance(schema, dict):
        problems.append(f"{game_file}: 'card_schema' must be a mapping (a JSON Schema)")
        schema = {}
    cards: list[tuple[str, dict[str, Any]]] = []
    for path in sorted((folder / CARDS_DIR).glob("*.yaml")):
        entries = _read_yaml(path)
        if entries is None:
            continue
        if not isinstance(entries, list):
            problems.append(f"{path.name}: a card file must hold a list of cards")
            continue
        for index, entry in enumerate(entries):
            where = f"{path.name}#{index}"
            if not isinstance(entry, dict):
                problems.append(f"{where}: a card must be a mapping, got {type(entry).__name__}")
                continue
            cards.append((f"{where} ({entry.get('name', '?')})", entry))
    if problems:
        raise GameDataError(problems)
    assert isinstance(game, dict)  # else a problem above was raised
    return GameData(
        slug=slug,
        folder=folder,
        game=game,
        card_schema=schema,
        cards=cards,
        **lists,
    )
