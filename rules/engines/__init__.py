"""Game engines: pure Python, no Django. Each game is a package registering a ``Game`` by slug."""

from rules.engines.core import get_game, register_game, registered_games

__all__ = ["get_game", "register_game", "registered_games"]
