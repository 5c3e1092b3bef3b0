"""Fixture YAML is parsed once per version of a file: an edited file is read again at once, and
what one caller does to its data never reaches the next caller."""

from __future__ import annotations

import os
from pathlib import Path

from rules.engines.core.records import read_yaml


def test_an_edited_file_is_read_again_and_callers_get_their_own_copy(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("- name: Stamp Act\n  stats: {drain: 1}\n", encoding="utf-8")

    first = read_yaml(path)
    first[0]["stats"]["drain"] = 99  # a caller changing its data
    assert read_yaml(path) == [{"name": "Stamp Act", "stats": {"drain": 1}}]

    path.write_text("- name: Stamp Act\n  stats: {drain: 2}\n", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a later write
    assert read_yaml(path)[0]["stats"]["drain"] == 2
