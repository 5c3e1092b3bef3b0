"""The one cache helper: a process-local memo that other processes' writes invalidate."""

from __future__ import annotations

import itertools
import uuid

from cards.caching import GenerationMemo, bump_generation, shared_generation


def _counting_build():
    calls = itertools.count(1)
    built: list[str] = []

    def build(key: str) -> str:
        built.append(key)
        return f"{key}#{next(calls)}"

    return build, built


def test_a_value_is_built_once_and_reused_until_the_generation_moves():
    # given: two memos on one generation key stand for two processes sharing the Django cache
    key = f"test:{uuid.uuid4()}"
    build, built = _counting_build()
    here = GenerationMemo(key, build, recheck_seconds=0)
    there = GenerationMemo(key, build, recheck_seconds=0)
    assert shared_generation(key) == 0

    # when / then
    assert here.get("a") == "a#1"
    assert there.get("a") == "a#2"
    assert (here.get("a"), there.get("a")) == ("a#1", "a#2")
    assert built == ["a", "a"]

    here.invalidate()  # a write in this process
    assert shared_generation(key) == 1
    assert there.get("a") == "a#3"  # the other process rebuilds at its next check
    assert here.get("a") == "a#4"
    assert there.get("a") == "a#3"


def test_within_the_recheck_window_the_shared_counter_is_not_read():
    key = f"test:{uuid.uuid4()}"
    build, built = _counting_build()
    memo = GenerationMemo(key, build, recheck_seconds=3600)
    memo.get("a")

    bump_generation(key)  # another process changed the data a moment ago

    assert memo.get("a") == "a#1"  # seen at the next check, not before
    memo.forget_local()
    assert memo.get("a") == "a#2"
    assert built == ["a", "a"]


def test_a_full_memo_starts_over_and_a_none_value_is_kept():
    key = f"test:{uuid.uuid4()}"
    built: list[int] = []

    def build(n: int) -> int | None:
        built.append(n)
        return None

    memo: GenerationMemo[int, int | None] = GenerationMemo(key, build, max_entries=2)
    for n in (1, 2, 1, 2, 3, 1):
        assert memo.get(n) is None
    assert built == [1, 2, 3, 1]


def test_a_recheck_reads_the_shared_counter_however_young_the_entry():
    key = f"test:{uuid.uuid4()}"
    build, built = _counting_build()
    memo = GenerationMemo(key, build, recheck_seconds=3600)
    memo.get("a")

    bump_generation(key)

    assert memo.get("a") == "a#1"
    assert memo.get("a", recheck=True) == "a#2"
    assert memo.get("a", recheck=True) == "a#2"  # current: kept
    assert built == ["a", "a"]


def test_what_is_derived_from_a_memo_is_dropped_with_its_entries():
    key = f"test:{uuid.uuid4()}"
    memo = GenerationMemo(key, _counting_build()[0])
    dropped: list[str] = []
    memo.on_forget(lambda: dropped.append("derived"))

    memo.forget_local()
    memo.invalidate()

    assert dropped == ["derived", "derived"]
    assert shared_generation(key) == 1
