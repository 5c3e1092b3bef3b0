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


def test_memos_on_one_counter_are_dropped_together_in_this_process():
    # given: two views of the same data (the detail rows and the browser's row HTML)
    key = f"test:{uuid.uuid4()}"
    build, _built = _counting_build()
    rows = GenerationMemo(key, build, recheck_seconds=3600)
    html = GenerationMemo(key, build, recheck_seconds=3600)
    rows.get("a")
    html.get("a")

    # when: a write invalidates one of them
    rows.invalidate()

    # then: the other rebuilds at once too, not at its next recheck
    assert html.get("a") == "a#3"
    assert rows.get("a") == "a#4"
    assert html.get("b") == "b#5"
    rows.forget_local()
    assert html.get("b") == "b#6"


def test_get_many_builds_the_missing_keys_together_and_follows_the_counter():
    key = f"test:{uuid.uuid4()}"
    batches: list[list[str]] = []

    def build_many(keys: list[str]) -> dict[str, str]:
        batches.append(list(keys))
        return {k: f"{k}{len(batches)}" for k in keys if k != "gone"}

    here = GenerationMemo(key, lambda k: k, recheck_seconds=0)
    assert here.get_many(["a", "b"], build_many) == {"a": "a1", "b": "b1"}
    assert here.get_many(["b", "c", "gone"], build_many) == {"b": "b1", "c": "c2"}
    assert batches == [["a", "b"], ["c", "gone"]]

    bump_generation(key)  # another process wrote
    assert here.get_many(["a", "c"], build_many) == {"a": "a3", "c": "c3"}
    assert batches[-1] == ["a", "c"]


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
