"""common.inputs: ids in paths, bounded whole numbers, JSON read without recursion."""

from __future__ import annotations

import json

import pytest
from django.urls import Resolver404, resolve
from hypothesis import given
from hypothesis import strategies as st

from common.inputs import (
    MAX_ID,
    JSONInputError,
    ParameterError,
    bounded_int,
    json_depth_check,
    json_loads_bounded,
)


def test_bounded_int_reads_whole_numbers_in_range():
    assert bounded_int("42", "page", 1, 100) == 42
    assert bounded_int(" -3 ", "delta", -5, 5) == -3
    assert bounded_int("+7", "n", 0, 10) == 7


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("abc", "step must be a whole number from 1 to 10, not 'abc'"),
        ("1.5", "step must be a whole number"),
        ("1e3", "step must be a whole number"),
        ("", "step is missing: give a whole number from 1 to 10"),
        ("  ", "step is missing"),
        (None, "step is missing"),  # a form field left out: it said "not 'None'"
        ("\u0663", "step must be a whole number"),  # a digit to str.isdigit(), not to us
        ("9" * 5000, "step must be a whole number"),  # before int() could choke on it
        ("0", "step must be from 1 to 10, not '0'"),
        (str(2**63), "step must be from 1 to 10, not '9223372036854775808'"),
    ],
)
def test_bounded_int_names_the_parameter_and_the_range(text, words):
    with pytest.raises(ParameterError) as refused:
        bounded_int(text, "step", 1, 10)
    assert refused.value.name == "step"
    assert words in refused.value.message
    assert len(refused.value.message) < 150  # a 5,000-digit value is not echoed whole


@given(st.text(max_size=30))
def test_bounded_int_returns_a_number_in_range_or_refuses(text):
    try:
        number = bounded_int(text, "n", -1000, 1000)
    except ParameterError:
        return
    assert -1000 <= number <= 1000


def test_id_paths_take_up_to_18_digits():
    assert resolve(f"/decks/{MAX_ID}/").kwargs == {"pk": MAX_ID}
    assert resolve(f"/api/v1/decks/{MAX_ID}/").kwargs == {"pk": str(MAX_ID)}
    for path in (f"/decks/{MAX_ID + 1}/", f"/api/v1/events/{2**63}/", "/matchups/1/games/-1/"):
        with pytest.raises(Resolver404):
            resolve(path)


def test_depth_check_says_where_the_limit_was_passed():
    text = '{"cards": [\n  {"name": [[["x"]]]}\n]}'
    json_depth_check(text, 6)
    with pytest.raises(JSONInputError) as refused:
        json_depth_check(text, 5)
    error = refused.value
    assert (error.code, error.line, error.column, error.position) == ("json-too-deep", 2, 14, 25)
    assert "deeper than 5 levels at line 2, column 14" in error.message


def test_brackets_inside_strings_do_not_count():
    json_depth_check(json.dumps({"name": "[[[[{{{{" * 100, "escaped": '\\"[[[['}), 2)


def test_thousands_of_brackets_are_refused_without_recursing():
    for text, where in [
        ("[" * 100_000, 32),
        ("[" * 50_000 + "]" * 50_000, 32),
        ('{"a":' * 50_000, 32 * len('{"a":')),
    ]:
        with pytest.raises(JSONInputError) as refused:
            json_loads_bounded(text, 32)
        assert refused.value.code == "json-too-deep" and refused.value.position == where


# storable text: no NUL, no lone surrogate (both refused, see below)
storable = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=5)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | storable,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(storable, inner),
    max_leaves=20,
)


def _depth(value) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(json_values, st.integers(min_value=0, max_value=6))
def test_the_depth_check_agrees_with_the_parsed_depth(value, limit):
    text = json.dumps(value)
    if _depth(value) > limit:
        with pytest.raises(JSONInputError):
            json_loads_bounded(text, limit)
    else:
        assert json_loads_bounded(text, limit) == value


def test_lone_surrogates_and_nul_are_refused_and_pairs_read():
    assert json_loads_bounded('{"name": "\\ud83d\\ude00"}', 4) == {"name": "😀"}
    for text in ('{"name": "\\ud800"}', '["ok", {"\\udfff": 1}]', '"\\ud83d x"', '["a\\u0000"]'):
        with pytest.raises(JSONInputError) as refused:
            json_loads_bounded(text, 4)
        assert refused.value.code == "invalid-text"
        assert "unpaired surrogate" in refused.value.message or "NUL" in refused.value.message


def test_other_malformed_json_is_json_loads_own_error():
    with pytest.raises(json.JSONDecodeError):
        json_loads_bounded("[1,", 4)


@given(
    before=st.text(alphabet='9 ,\n"', max_size=40).filter(lambda t: t.count('"') % 2 == 0),
    extra=st.integers(min_value=1, max_value=50),
)
def test_a_number_too_long_for_int_is_refused_saying_where(before, extra):
    # Python reads at most sys.get_int_max_str_digits() digits (4,300 by default); json.loads
    # raised a bare ValueError, a 500 wherever a JSON decklist or body was read
    digits = 4300 + extra
    text = f'[{json.dumps(before)},\n "{"9" * 6000}", {"9" * digits}]'
    with pytest.raises(JSONInputError) as refused:
        json_loads_bounded(text, 4)
    error = refused.value
    assert error.code == "parse-error" and error.line == 2
    assert text[error.position :].startswith("9" * digits + "]")  # the number, not the string
    assert f"{digits:,} digits at line 2" in error.message
    assert json_loads_bounded(f'["{"9" * 6000}", {"9" * 4300}]', 4)[1] == int("9" * 4300)
