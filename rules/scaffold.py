"""A new game's skeleton: every piece a game needs, written from the template game.

``manage.py startgame <slug>`` calls ``game_skeleton_write``. The template
(``rules/game_template/``) is a whole small game laid out at the conventional paths (engine
package, plugin, test-hands model, narrator, validation module, card-face style, card data,
formats, sample decks, rulings page, a test file), with ``__SLUG__``, ``__MODULE__``,
``__NAME__``, ``__CLASS__``, ``__SHORT__`` and ``__SET__`` in place of its names. The written
skeleton passes ``check_game`` and ``check_game_wiring`` as it stands, so a new game starts
from passing tests; the contract test plays its toy game from this same template.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from rules.engines.core import registered_games
from rules.engines.core.contract import SLUG_PATTERN

TEMPLATE = Path(__file__).resolve().parent / "game_template"
SUFFIX = ".tmpl"
#: the longest slug a game row takes (``cards.models.Game.slug``)
MAX_SLUG = 40
#: characters a game's name may hold (it is written into Python strings and YAML)
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 :'&.,!-]*")


class SkeletonError(ValueError):
    """A slug or name ``startgame`` refuses; the message says why."""


@dataclass(frozen=True)
class GameNames:
    """The names a skeleton is written with, all derived from the slug (and the display name)."""

    slug: str
    name: str

    @property
    def module(self) -> str:
        return self.slug.replace("-", "_")

    @property
    def class_name(self) -> str:
        return "".join(word.capitalize() for word in self.slug.split("-"))

    @property
    def short(self) -> str:
        return "".join(word[0] for word in self.slug.split("-")).upper()

    def fill(self, text: str) -> str:
        """``text`` with every placeholder replaced."""
        for placeholder, value in (
            ("__SLUG__", self.slug),
            ("__MODULE__", self.module),
            ("__NAME__", self.name),
            ("__CLASS__", self.class_name),
            ("__SHORT__", self.short),
            ("__SET__", f"{self.short}1"),
        ):
            text = text.replace(placeholder, value)
        return text


def game_names(slug: str, name: str | None = None) -> GameNames:
    """The checked names of a new game; ``SkeletonError`` for a slug or name it cannot take."""
    if not SLUG_PATTERN.fullmatch(slug) or len(slug) > MAX_SLUG:
        raise SkeletonError(
            f"{slug!r} is not a game slug: lower-case letters and digits in words joined by "
            f"single hyphens, starting with a letter, at most {MAX_SLUG} characters "
            "(e.g. 'star-duel')"
        )
    module = slug.replace("-", "_")
    if keyword.iskeyword(module) or module in {"core", "test", "tests"}:
        raise SkeletonError(f"{slug!r} cannot be a game slug: {module!r} is a reserved name")
    name = name or slug.replace("-", " ").title()
    if not NAME_PATTERN.fullmatch(name):
        raise SkeletonError(
            f"{name!r} is not a game name: letters, digits, spaces and : ' & . , ! - only"
        )
    return GameNames(slug, name)


def skeleton_paths(names: GameNames, root: Path) -> list[tuple[Path, Path]]:
    """(template file, file to write under ``root``) for every piece, in order."""
    pairs = []
    for source in sorted(TEMPLATE.rglob(f"*{SUFFIX}")):
        relative = source.relative_to(TEMPLATE).as_posix().removesuffix(SUFFIX)
        pairs.append((source, root / names.fill(relative)))
    return pairs


def game_skeleton_write(*, slug: str, name: str | None = None, root: Path) -> list[Path]:
    """Write a new game's every piece under ``root`` (the project folder); returns the files.

    Refuses (``SkeletonError``, nothing written) a bad slug or name, a slug a registered game
    has, and a skeleton that would overwrite any file or the game's data folder.
    """
    names = game_names(slug, name)
    if slug in registered_games():
        raise SkeletonError(f"a game {slug!r} exists already (rules/engines/{names.module}/)")
    pairs = skeleton_paths(names, root)
    taken = [target for _, target in pairs if target.exists()]
    for folder in (root / "rules" / "engines" / names.module, root / "fixtures" / slug):
        if folder.exists():
            taken.append(folder)
    if taken:
        shown = ", ".join(str(path.relative_to(root)) for path in taken[:3])
        raise SkeletonError(f"the game {slug!r} has pieces already: {shown}; nothing written")
    written = []
    for source, target in pairs:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(names.fill(source.read_text(encoding="utf-8")), encoding="utf-8")
        written.append(target)
    return written
