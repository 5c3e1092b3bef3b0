"""Golden playthroughs: seeded games written out as readable text, checked in and compared.

After OpenSpiel's ``integration_tests/playthroughs``: each file in this folder is one complete
game of one engine, played from one of the game's ``example_setups()`` with a seed and seeded
random agents, and written as text: a header (game, seed, setup, agents), then every decision
(the seat to act, what that seat observes, its legal actions, the action taken and the events
logged until the next decision), then the result. ``tests/rules/test_golden_playthroughs.py``
plays each file's game again and compares; any change of an engine's behaviour shows up as a
readable diff, and a file is rewritten on purpose only:

    .venv/bin/python -m tests.rules.playthroughs            # check, print the diffs
    .venv/bin/python -m tests.rules.playthroughs --write    # rewrite the files

A file's name holds its case, ``<slug>-setup<i>-seed<s>.txt``: the game, the index of the setup
in ``example_setups()`` and the seed. Rewriting keeps the cases; a game without files gets new
ones (``pick_cases``: spread over its example setups, the first seeds whose text stays small).

The text is a pure function of the case: the engine draws from the state's own ``Rng``, agent
``s`` is a ``RandomAgent`` seeded with ``agent_seed(seed, s)``, and observations and events are
written as sorted-key JSON with sets sorted. Nothing here imports Django.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, Action, Event, Game, State, get_game

FOLDER = Path(__file__).resolve().parent
REGENERATE = ".venv/bin/python -m tests.rules.playthroughs --write"
#: a seat's observation is written in full at its first decision and at every decision whose
#: number is 1 modulo this; otherwise as the changes since that seat's previous decision
FULL_EVERY = 25
#: a game still playing after this many decisions is cut off (and says so)
MAX_DECISIONS = 5_000
#: new cases: playthroughs per game, and the size a new case's text should stay under
CASES_PER_GAME = 3
TARGET_BYTES = 120_000
SEEDS_TRIED = 40
WIDTH = 100
_NAME = re.compile(r"^(?P<slug>[a-z0-9][a-z0-9-]*?)-setup(?P<setup>\d+)-seed(?P<seed>\d+)\.txt$")


@dataclass(frozen=True, order=True)
class Case:
    """One golden playthrough: a game, the index of its example setup and the seed."""

    slug: str
    setup: int
    seed: int

    @property
    def filename(self) -> str:
        """The file the playthrough is kept in."""
        return f"{self.slug}-setup{self.setup}-seed{self.seed}.txt"

    @classmethod
    def from_filename(cls, name: str) -> Case | None:
        """The case a file name holds, or None for a name that is not a playthrough's."""
        match = _NAME.match(name)
        if match is None:
            return None
        return cls(match["slug"], int(match["setup"]), int(match["seed"]))


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the random agent in ``seat`` of the game played with ``seed``."""
    return 1000 * seed + seat + 1


# --- stable rendering ------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """``value`` as JSON data whose text does not depend on hashing or insertion order: mapping
    keys as strings, tuples as lists, sets sorted, anything else unknown as its ``str``."""
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=_dumps)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _holds_mapping(value: Any) -> bool:
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and any(_holds_mapping(item) for item in value)


def _is_record(value: Any) -> bool:
    """A mapping whose values hold no mapping (a board cell, a card in play ...), or a list of
    plain values (a seat's pile in a list of piles)."""
    if isinstance(value, list):
        return not _holds_mapping(value)
    return isinstance(value, dict) and not any(_holds_mapping(item) for item in value.values())


#: a flat observation: leaf path -> JSON text, or record-list path -> one JSON text per record
Flat = dict[str, str | tuple[str, ...]]


def flatten(value: Any, path: str = "") -> Flat:
    """Plain JSON data as ``{path: JSON text}``, one entry per leaf: mappings by key
    (``players[1].hand``), lists holding mappings by index, except a list of records (all
    mappings of plain values, or all lists of them), kept as a tuple of one JSON text per
    record; a list of plain values stays whole."""
    out: Flat = {}
    if isinstance(value, dict) and value:
        for key in sorted(value):
            out.update(flatten(value[key], f"{path}.{key}" if path else key))
    elif (
        isinstance(value, list)
        and value
        and (
            all(isinstance(item, dict) for item in value)
            or all(isinstance(item, list) for item in value)
        )
        and all(_is_record(item) for item in value)
    ):
        out[path or "."] = tuple(_dumps(item) for item in value)
    elif isinstance(value, list) and value and _holds_mapping(value):
        for index, item in enumerate(value):
            out.update(flatten(item, f"{path}[{index}]"))
    else:
        out[path or "."] = _dumps(value)
    return out


def _full(flat: Flat) -> Iterator[str]:
    for path, text in flat.items():
        if isinstance(text, tuple):
            yield from (f"{path}[{index}] = {item}" for index, item in enumerate(text))
        else:
            yield f"{path} = {text}"


def _set(path: str, old: str | None, new: str) -> str:
    """``path = new``, or ``path += [...]`` when a list only grew at its end."""
    if old is not None and old.startswith("[") and new.startswith("[") and old != "[]":
        before, after = json.loads(old), json.loads(new)
        if len(after) > len(before) and after[: len(before)] == before:
            return f"{path} += {_dumps(after[len(before) :])}"
    return f"{path} = {new}"


def changes(before: Flat, after: Flat) -> Iterator[str]:
    """What changed from ``before`` to ``after``: ``path = value`` for a leaf set (``path +=
    [...]`` for a list that only grew at its end), ``- path`` for a leaf gone; in a list of
    records ``path[j] = record`` (or ``+=``) for a record replaced in place, ``path -[i] record``
    for one gone from index ``i`` of the old list and ``path +[j] record`` for one new at index
    ``j`` of the new list."""
    for path, text in after.items():
        old = before.get(path)
        if old == text:
            continue
        if isinstance(text, str):
            yield _set(path, old if isinstance(old, str) else None, text)
            continue
        old_records = old if isinstance(old, tuple) else ()
        if old is not None and old != "[]" and not isinstance(old, tuple):
            yield f"- {path}"
        matcher = difflib.SequenceMatcher(None, old_records, text, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            if tag == "replace" and i2 - i1 == j2 - j1:
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                    yield _set(f"{path}[{j}]", old_records[i], text[j])
                continue
            yield from (f"{path} -[{i}] {old_records[i]}" for i in range(i1, i2))
            yield from (f"{path} +[{j}] {text[j]}" for j in range(j1, j2))
    yield from (f"- {path}" for path in before if path not in after)


def _summary(value: Any) -> Any:
    """Setup data made short for the header: a list of card records becomes their names."""
    if isinstance(value, dict):
        return {key: _summary(item) for key, item in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(item, dict) and "name" in item for item in value):
            return [item["name"] for item in value]
        return [_summary(item) for item in value]
    return value


def _setup_lines(value: Any, path: str) -> Iterator[str]:
    """The setup for the header: ``path = value`` lines; a long list of names (a deck) packed
    over lines, a run of equal names as ``3x name``, and so a long mapping of names to counts."""
    if (
        isinstance(value, dict)
        and all(type(count) is int for count in value.values())
        and len(_dumps(value)) > WIDTH
    ):
        names = [f"{value[name]}x {name}" for name in sorted(value)]
        yield from _packed(f"{path} ({sum(value.values())}): ", names)
    elif isinstance(value, dict) and value:
        for key in sorted(value):
            yield from _setup_lines(value[key], f"{path}.{key}" if path.strip() else f"{path}{key}")
    elif isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        for index, item in enumerate(value):
            yield from _setup_lines(item, f"{path}[{index}]")
    elif (
        isinstance(value, list)
        and all(isinstance(item, str) for item in value)
        and len(_dumps(value)) > WIDTH
    ):
        runs: list[list[Any]] = []
        for item in value:
            if runs and runs[-1][1] == item:
                runs[-1][0] += 1
            else:
                runs.append([1, item])
        names = [name if count == 1 else f"{count}x {name}" for count, name in runs]
        yield from _packed(f"{path} ({len(value)}): ", names)
    else:
        yield f"{path} = {_dumps(value)}"


def _packed(head: str, items: list[str], indent: str = "    ") -> Iterator[str]:
    """``head`` and ``items`` joined by `` | `` over lines of at most ``WIDTH`` characters."""
    line = head
    first = True
    for item in items:
        piece = item if first else f" | {item}"
        if not first and len(line) + len(piece) > WIDTH:
            yield line + " |"
            line, piece = indent + item, ""
        line += piece
        first = False
    yield line


def _event(event: Event) -> str:
    detail = plain(dict(event.detail))
    return f"{event.kind} p{event.player}" + (f" {_dumps(detail)}" if detail else "")


def _seat(game: Game, seat: int) -> str:
    names = game.player_names
    return f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}"


# --- playing -----------------------------------------------------------------------------------
def play(case: Case, *, max_decisions: int = MAX_DECISIONS) -> str:
    """Play ``case``'s game with seeded random agents and return its playthrough text."""
    game = get_game(case.slug)
    setups = game.example_setups()
    if not 0 <= case.setup < len(setups):
        raise ValueError(
            f"{case.slug} has {len(setups)} example setups; there is no setup {case.setup}"
        )
    setup = setups[case.setup]
    players = game.num_players(setup)
    state = game.new_initial_state(case.seed, setup)
    agents = [RandomAgent(agent_seed(case.seed, seat)) for seat in range(players)]
    lines = _header(game, case, setup, players)
    seen = 0  # events written so far

    def flush(label: str) -> None:
        nonlocal seen
        events = state.event_log()[seen:]
        seen += len(events)
        lines.append(f"  {label}:" + ("" if events else " none"))
        lines.extend(f"    {_event(event)}" for event in events)

    def chance() -> None:
        while state.current_player() == CHANCE:
            outcome = state.sample_chance()
            lines.append(f"  chance: {outcome}")
            state.apply(outcome)

    lines.append("start")
    chance()
    flush("events")
    last: dict[int, tuple[int, Flat]] = {}  # seat -> (decision, flat observation)
    decision = 0
    while state.current_player() != TERMINAL and decision < max_decisions:
        decision += 1
        seat = state.current_player()
        lines.append("")
        lines.append(f"decision {decision}: {_seat(game, seat)}")
        lines.extend(_observation(state, seat, decision, last))
        legal = state.legal_actions()
        lines.extend(_packed(f"  legal ({len(legal)}): ", [str(a) for a in legal]))
        action: Action = agents[seat].act(state)
        lines.append(f"  action: {action}")
        state.apply(action)
        chance()
        flush("events")
    lines.append("")
    lines.extend(_result(game, state, decision))
    return "\n".join(lines) + "\n"


def _header(game: Game, case: Case, setup: Mapping[str, Any], players: int) -> list[str]:
    digest = hashlib.sha256(_dumps(plain(setup)).encode()).hexdigest()[:16]
    summary = plain(_summary(setup))
    note = "; card records shown by name" if summary != plain(setup) else ""
    lines = [
        "# Golden playthrough, compared by tests/rules/test_golden_playthroughs.py.",
        f"# Do not edit: regenerate on purpose with `{REGENERATE} --game {case.slug}`",
        f"game: {game.slug} ({game.name})",
        f"seed: {case.seed}",
        f"setup: example_setups()[{case.setup}] (sha256 {digest}{note})",
    ]
    lines.extend(_setup_lines(summary, "  "))
    lines.append(f"players: {players}")
    lines.append("agents:")
    lines.extend(
        f"  {_seat(game, seat)}: random, seed {agent_seed(case.seed, seat)}"
        for seat in range(players)
    )
    lines += [
        "observations: the acting seat's own (what observation() shows that seat), in full at",
        f"  its first decision and at decisions 1, {FULL_EVERY + 1}, {2 * FULL_EVERY + 1} ...; "
        "otherwise the changes since",
        '  its previous decision: "path = value" (set), "path += [...]" (appended to a list),',
        '  "- path" (gone); in a list of records "path[j] = {...}" (replaced), "path -[i] {...}"',
        '  (gone from the old index i) and "path +[j] {...}" (new at the new index j)',
    ]
    lines.append("")
    return lines


def _observation(
    state: State, seat: int, decision: int, last: dict[int, tuple[int, Flat]]
) -> list[str]:
    flat = flatten(plain(state.observation(seat)))
    previous = last.get(seat)
    last[seat] = (decision, flat)
    if previous is None or decision % FULL_EVERY == 1:
        return ["  observation:", *(f"    {line}" for line in _full(flat))]
    since, before = previous
    lines = [f"    {line}" for line in changes(before, flat)]
    if not lines:
        return [f"  observation: unchanged since decision {since}"]
    return [f"  observation (changes since decision {since}):", *lines]


def _result(game: Game, state: State, decisions: int) -> list[str]:
    if not state.is_terminal():
        return [f"stopped: no end after {decisions} decisions"]
    winner, results = state.winner(), state.returns()
    if winner is not None:
        result = f"{_seat(game, winner)} wins"
    elif all(value > 0 for value in results):
        result = "every seat wins"
    elif all(value < 0 for value in results):
        result = "every seat loses"
    else:
        result = "no single winner (a draw)"
    return [
        f"end after {decisions} decisions",
        f"  result: {result}",
        f"  returns: {_dumps(plain(state.returns()))}",
        f"  end reason: {state.end_reason()}",
    ]


# --- the files ---------------------------------------------------------------------------------
def cases(slug: str | None = None, folder: Path = FOLDER) -> list[Case]:
    """The cases kept in ``folder`` (of one game, or of every game), sorted."""
    found = (Case.from_filename(path.name) for path in folder.glob("*.txt"))
    return sorted(case for case in found if case and (slug is None or case.slug == slug))


def stray_files(slugs: list[str], folder: Path = FOLDER) -> list[Path]:
    """Text files in ``folder`` that are no playthrough of a game in ``slugs``."""
    stray = []
    for path in sorted(folder.glob("*.txt")):
        case = Case.from_filename(path.name)
        if case is None or case.slug not in slugs:
            stray.append(path)
    return stray


def diff(case: Case, folder: Path = FOLDER, *, limit: int | None = None) -> str:
    """A unified diff from the kept text of ``case`` to the text played now ('' when equal);
    at most ``limit`` lines of it, with a line saying how many were left out."""
    path = folder / case.filename
    kept = path.read_text(encoding="utf-8") if path.exists() else ""
    fresh = play(case)
    if kept == fresh:
        return ""
    lines = list(
        difflib.unified_diff(
            kept.splitlines(keepends=True),
            fresh.splitlines(keepends=True),
            f"{case.filename} (kept)",
            f"{case.filename} (played now)",
            n=2,
        )
    )
    if limit is not None and len(lines) > limit:
        lines = [*lines[:limit], f"... {len(lines) - limit} more diff lines\n"]
    return "".join(lines)


def _spread(count: int, wanted: int) -> list[int]:
    if wanted <= 1 or count <= 1:
        return [0] * max(wanted, 1)
    return [round(i * (count - 1) / (wanted - 1)) for i in range(wanted)]


def pick_cases(slug: str, wanted: int = CASES_PER_GAME) -> list[tuple[Case, str]]:
    """New cases for a game with none: ``wanted`` setups spread over its example setups, each
    with the first seed (from 0) whose text stays under ``TARGET_BYTES`` (else the smallest
    tried), distinct seeds where a setup repeats. Returns each case with its text."""
    count = len(get_game(slug).example_setups())
    picked: list[tuple[Case, str]] = []
    for setup in _spread(count, wanted):
        taken = {case.seed for case, _ in picked if case.setup == setup}
        best: tuple[int, Case, str] | None = None
        for seed in (s for s in range(SEEDS_TRIED + len(taken)) if s not in taken):
            case = Case(slug, setup, seed)
            text = play(case)
            size = len(text.encode())
            if best is None or size < best[0]:
                best = (size, case, text)
            if size <= TARGET_BYTES:
                break
        assert best is not None
        picked.append((best[1], best[2]))
    return picked


def write(case: Case, text: str, folder: Path = FOLDER) -> Path:
    """Write ``text`` as the kept playthrough of ``case``."""
    path = folder / case.filename
    path.write_text(text, encoding="utf-8", newline="\n")
    return path
