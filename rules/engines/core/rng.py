"""A small seeded random number generator owned by each game state.

The engines never use the ``random`` module's global generator: every state carries one of these,
seeded per game, so the same seed and the same actions replay the same game. Its whole state is one
integer, which makes ``clone()`` cheap (the standard ``random.Random`` drags 625 words along).
The algorithm is SplitMix64; it is stable across Python versions and platforms.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64: a seeded, cloneable source of randomness."""

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        self._state = (seed * 0xD1B54A32D192ED03 + 0x2545F4914F6CDD1D) & _MASK

    def next_u64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self._state = z = (self._state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Return a float in [0, 1)."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def randrange(self, n: int) -> int:
        """Return an integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("randrange needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        return items[self.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Return ``k`` distinct elements in random order."""
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def spawn(self) -> Rng:
        """Return an independent generator derived from this one (advances this one)."""
        return Rng(self.next_u64())

    def clone(self) -> Rng:
        """Return a generator in exactly this state."""
        other = Rng(0)
        other._state = self._state
        return other

    def getstate(self) -> int:
        """Return the whole internal state (an integer)."""
        return self._state

    def setstate(self, state: int) -> None:
        """Restore a state returned by ``getstate``."""
        self._state = state & _MASK
