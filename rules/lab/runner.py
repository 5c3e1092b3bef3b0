"""The process's one background runner: where simulation jobs and matchup runs play when no
broker is configured.

Work is handed over by a key (``("job", 12)``, ``("matchup", 7)``) and a function that plays it
to its end. One thread plays the work of the whole process, one item after another, under a
lock, so however many requests ask for work, poll it or reload its page, each item is played
once: handing over a key the runner already holds does nothing. While an item waits or plays,
a second thread calls its ``beat`` every ``SIMULATION_HEARTBEAT_SECONDS``, so the sweep for work
whose process stopped (``rules.lab.jobs.simulation_jobs_stale``) leaves work waiting here alone.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

Key = tuple[str, int]


@dataclass
class _Item:
    key: Key
    play: Callable[[], object]
    beat: Callable[[], object] | None
    ended: threading.Event = field(default_factory=threading.Event)


_LOCK = threading.Lock()
_QUEUE: queue.Queue[_Item] = queue.Queue()
#: every item handed over and not ended yet, waiting or playing
_HELD: dict[Key, _Item] = {}
_THREADS: dict[str, threading.Thread] = {}


def background_play(
    key: Key, play: Callable[[], object], *, beat: Callable[[], object] | None = None
) -> bool:
    """Hand ``play`` to the runner (started on first use); False when it holds ``key`` already."""
    with _LOCK:
        if key in _HELD:
            return False
        item = _Item(key, play, beat)
        _HELD[key] = item
        _start("runner", _run_forever)
        if beat is not None:
            _start("heartbeat", _beat_forever)
        _QUEUE.put(item)
        return True


def held(key: Key) -> bool:
    """Whether this process's runner holds ``key`` (waiting or playing)."""
    with _LOCK:
        return key in _HELD


def held_ids(kind: str) -> set[int]:
    """The ids of the work of ``kind`` this process's runner holds."""
    with _LOCK:
        return {number for what, number in _HELD if what == kind}


def background_wait(key: Key, timeout: float | None = None) -> bool:
    """Wait for the runner to end ``key``; True once it has (or if it never held it)."""
    with _LOCK:
        item = _HELD.get(key)
    return item is None or item.ended.wait(timeout)


def _start(name: str, target: Callable[[], None]) -> None:
    thread = _THREADS.get(name)
    if thread is None or not thread.is_alive():
        thread = threading.Thread(target=target, name=f"simulation-{name}", daemon=True)
        _THREADS[name] = thread
        thread.start()


def _run_forever() -> None:
    while True:
        item = _QUEUE.get()
        try:
            item.play()
        except Exception:  # the item's own code reports its failure; the runner carries on
            logger.exception("background work %s stopped", item.key)
        finally:
            with _LOCK:
                _HELD.pop(item.key, None)
            item.ended.set()
            connections.close_all()


def _beat_forever() -> None:
    while True:
        time.sleep(settings.SIMULATION_HEARTBEAT_SECONDS)
        with _LOCK:
            beats = [item.beat for item in _HELD.values() if item.beat is not None]
        for beat in beats:
            try:
                beat()
            except Exception:  # a busy or closed database: the next beat comes soon enough
                logger.warning("a background heartbeat failed", exc_info=True)
        connections.close_all()


@contextmanager
def beating(beat: Callable[[], object], what: str) -> Iterator[None]:
    """Call ``beat`` every ``SIMULATION_HEARTBEAT_SECONDS`` from a thread of its own while the
    block runs (a chunk of games, however long they last), so that work whose process dies
    stops beating and the sweep plays it again; a failed beat is logged and tried next time."""
    stop = threading.Event()

    def beat_until_stopped() -> None:
        try:
            while not stop.wait(settings.SIMULATION_HEARTBEAT_SECONDS):
                try:
                    beat()
                except Exception:  # a busy database: the next beat comes soon enough
                    logger.warning("a heartbeat of %s failed", what, exc_info=True)
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat_until_stopped, name=f"beat {what}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
