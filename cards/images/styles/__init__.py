"""Card-face styles, one per game, registered by game slug.

A game's style lives in its own module in this package and registers itself with
``@register_style``; every module here is imported on first lookup, so a sixth game adds one file
and touches nothing else. A game without a style gets the plain ``CardStyle``.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar

from cards.images.styles.base import CardStyle

StyleClass = TypeVar("StyleClass", bound=type[CardStyle])

_STYLES: dict[str, CardStyle] = {}
_DEFAULT = CardStyle()
_discovered = False


def register_style(style_class: StyleClass) -> StyleClass:
    """Class decorator: make ``style_class`` the face style of its ``game_slug``."""
    if not style_class.game_slug:
        raise ValueError(f"{style_class.__name__} needs a game_slug to be registered")
    _STYLES[style_class.game_slug] = style_class()
    return style_class


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")
    _discovered = True


def style_for(game_slug: str) -> CardStyle:
    """The registered style of ``game_slug``, or the plain default style."""
    _discover()
    return _STYLES.get(game_slug, _DEFAULT)


def registered_games() -> list[str]:
    """Slugs of the games that have their own face style."""
    _discover()
    return sorted(_STYLES)
