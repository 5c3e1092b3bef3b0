"""Card-face styles, one per game, registered by game slug.

A game's style lives in its own module (``cards/images/styles/<game>.py``, or wherever its
``GamePlugin.style_module`` says) and registers itself with ``@register_style`` when imported.
The rules app imports every game's style once, from the one loop that finds games (the engine
plugins, ``rules.plugins``), so a sixth game adds one file and touches nothing else. A game
without a style gets the plain ``CardStyle``.
"""

from __future__ import annotations

from typing import TypeVar

from cards.images.styles.base import CardStyle

StyleClass = TypeVar("StyleClass", bound=type[CardStyle])

_STYLES: dict[str, CardStyle] = {}
_DEFAULT = CardStyle()


def register_style(style_class: StyleClass) -> StyleClass:
    """Class decorator: make ``style_class`` the face style of its ``game_slug``."""
    if not style_class.game_slug:
        raise ValueError(f"{style_class.__name__} needs a game_slug to be registered")
    _STYLES[style_class.game_slug] = style_class()
    return style_class


def unregister_style(game_slug: str) -> None:
    """Forget a game's style (tests that plug a game in for a while)."""
    _STYLES.pop(game_slug, None)


def style_for(game_slug: str) -> CardStyle:
    """The registered style of ``game_slug``, or the plain default style."""
    return _STYLES.get(game_slug, _DEFAULT)


def registered_games() -> list[str]:
    """Slugs of the games that have their own face style."""
    return sorted(_STYLES)
