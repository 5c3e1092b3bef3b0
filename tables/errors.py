"""What a friend table refuses: the one exception its services and its clocks raise, with a
message for the player, before anything is stored."""

from __future__ import annotations


class TableRefused(ValueError):
    """A table, a chair, a setting or a move refused; the message says why, for the player."""


class StaleMove(TableRefused):
    """A move chosen at another move count than the table's (sent twice, or the page was behind)."""
