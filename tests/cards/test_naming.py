"""Name keys and the one close-match helper every "did you mean" of the site goes through."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cards.naming import close_matches, name_key

NAMES = ["eagle dive", "eagle eye", "talon strike", "stamp act", "writs of assistance"]
FIELDS = ["a", "attack", "cost", "o", "t", "type"]


def test_card_names_forgive_typos_and_missing_words_best_first():
    assert [NAMES[i] for i in close_matches("eagel dive", NAMES, limit=2, cutoff=60)] == [
        "eagle dive",
        "eagle eye",
    ]
    assert [NAMES[i] for i in close_matches("writs", NAMES, limit=1, cutoff=60)] == [
        "writs of assistance"
    ]
    assert close_matches("zzzz", NAMES, limit=3, cutoff=60) == []


def test_identifiers_compare_whole_strings_not_one_letter_aliases():
    # WRatio would answer "t" (a one-letter alias inside the word): whole strings say "type".
    assert [FIELDS[i] for i in close_matches("tpye", FIELDS, limit=1, cutoff=60)] == ["t"]
    assert [
        FIELDS[i] for i in close_matches("tpye", FIELDS, limit=1, cutoff=60, partial=False)
    ] == ["type"]


@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=20), st.data())
def test_a_choice_itself_is_always_its_own_best_match(choices, data):
    position = data.draw(st.integers(0, len(choices) - 1))
    wanted = choices[position]
    found = close_matches(wanted, choices, limit=len(choices), cutoff=0, partial=False)
    assert found and choices[found[0]] == wanted
    assert close_matches("", choices, limit=3, cutoff=0) == []
    assert name_key(wanted) == name_key(name_key(wanted))
