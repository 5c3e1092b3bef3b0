"""The one cache helper: values kept in this process's memory, dropped when another process says so.

Validation reads a game's cards and formats thousands of times a second, so each process keeps
what it built from the database in a ``GenerationMemo``. A write that changes what a memo holds
calls ``invalidate()``: this process forgets at once, and a generation counter in the Django cache
(shared by every process when ``REDIS_URL`` is set) tells the others, which look at the counter at
most once per ``RECHECK_SECONDS`` per entry and rebuild what they hold when it moved.

Memos on the same counter hold views of the same data (the card detail rows and the card
browser's row HTML): ``invalidate()`` or ``forget_local()`` of one drops all of them in this
process, so a write seen here is never served stale from a sibling.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Collection, Hashable
from typing import Any, Generic, TypeVar

from django.core.cache import cache

RECHECK_SECONDS = 1.0

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# generation key -> every memo of this process on it (see the module docstring)
_SIBLINGS: dict[str, weakref.WeakSet[GenerationMemo[Any, Any]]] = {}


def shared_generation(key: str) -> int:
    """Return the cross-process change counter behind ``key`` (0 when never bumped)."""
    return int(cache.get(key, 0))


def bump_generation(key: str) -> None:
    """Tell every process that what ``key`` guards has changed."""
    try:
        cache.incr(key)
    except ValueError:  # never bumped: the counter does not exist yet
        cache.set(key, 1, None)


class GenerationMemo(Generic[K, V]):
    """``build(key)`` results kept per key, rebuilt once ``generation_key`` has moved.

    An entry younger than ``recheck_seconds`` is returned without looking at the shared counter;
    an older one costs one cache read. Builds run one at a time (``build`` reads the database).
    """

    def __init__(
        self,
        generation_key: str,
        build: Callable[[K], V],
        *,
        max_entries: int | None = None,
        recheck_seconds: float = RECHECK_SECONDS,
    ) -> None:
        self.generation_key = generation_key
        self.build = build
        self.max_entries = max_entries
        self.recheck_seconds = recheck_seconds
        # key -> [value, generation it was built at, when it was last found current]
        self._entries: dict[K, list] = {}
        self._lock = threading.Lock()
        self._on_forget: list[Callable[[], None]] = []
        _SIBLINGS.setdefault(generation_key, weakref.WeakSet()).add(self)

    def get(self, key: K, *, recheck: bool = False) -> V:
        """Return the value for ``key``, built now if absent or out of date.

        ``recheck`` reads the shared counter now, however recently the entry was found current
        (a cache of values derived from this one renews them at its own pace).
        """
        entry = self._entries.get(key)
        now = time.monotonic()
        if entry is not None:
            if not recheck and now - entry[2] < self.recheck_seconds:
                return entry[0]
            if shared_generation(self.generation_key) == entry[1]:
                entry[2] = now
                return entry[0]
        with self._lock:
            generation = shared_generation(self.generation_key)
            value = self.build(key)
            if self.max_entries is not None and len(self._entries) >= self.max_entries:
                self._entries.clear()
            self._entries[key] = [value, generation, time.monotonic()]
            return value

    def get_many(
        self, keys: Collection[K], build_many: Callable[[list[K]], dict[K, V]]
    ) -> dict[K, V]:
        """The values for ``keys``: the missing or out-of-date ones built together by
        ``build_many(keys)`` (one database read for a page, not one per key), which may leave
        out a key that has no value (not remembered, not returned). The shared counter is read
        at most twice, however many keys are due a recheck."""
        found: dict[K, V] = {}
        missing: list[K] = []
        now = time.monotonic()
        generation: int | None = None
        for key in keys:
            entry = self._entries.get(key)
            if entry is not None and now - entry[2] >= self.recheck_seconds:
                if generation is None:
                    generation = shared_generation(self.generation_key)
                if generation == entry[1]:
                    entry[2] = now
                else:
                    entry = None
            if entry is None:
                missing.append(key)
            else:
                found[key] = entry[0]
        if missing:
            with self._lock:
                generation = shared_generation(self.generation_key)
                built = build_many(missing)
                if self.max_entries is not None and (
                    len(self._entries) + len(built) > self.max_entries
                ):
                    self._entries.clear()
                stamp = time.monotonic()
                for key, value in built.items():
                    self._entries[key] = [value, generation, stamp]
                found.update(built)
        return found

    def keys(self) -> list[K]:
        """The keys this process holds a value for (current or not)."""
        return list(self._entries)

    def on_forget(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever this process's entries are dropped (``forget_local``,
        ``invalidate``): a cache of values derived from them drops its own at the same moment."""
        self._on_forget.append(callback)

    def forget_local(self) -> None:
        """Drop this process's entries, and its siblings' (tests roll back writes that sent no
        signal); the callbacks given to ``on_forget`` of each run."""
        for memo in list(_SIBLINGS.get(self.generation_key, ())):
            memo._entries.clear()
            for callback in memo._on_forget:
                callback()

    def invalidate(self) -> None:
        """Drop the entries here (and the siblings') at once and, within ``recheck_seconds``,
        in every process."""
        self.forget_local()
        bump_generation(self.generation_key)
