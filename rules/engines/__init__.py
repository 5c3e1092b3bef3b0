"""Game engines: pure Python, no Django. Each game is a package registering its ``GamePlugin``
(and with it its ``Game``) by slug."""

from rules.engines.core import get_game, registered_games

__all__ = ["get_game", "registered_games"]
