"""The card query language: grammar, error positions, and what each kind of term selects."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from cards.search import QueryError, QuerySyntaxError, card_search, compile_query, parse_query
from cards.search.compiler import number_aliases
from cards.search.parser import And, Comparison, ExactName, MatchAll, Not, Or, Text
from tests import factories

# -- grammar ------------------------------------------------------------------------------------


def test_field_terms_become_comparisons_with_positions():
    tree = parse_query("t:attack  ip<=3")
    assert tree == And(
        position=0,
        items=(
            Comparison(position=0, field="t", operator=":", value="attack", value_position=2),
            Comparison(position=10, field="ip", operator="<=", value="3", value_position=14),
        ),
    )


def test_implicit_and_binds_tighter_than_or():
    tree = parse_query("a b OR c")
    assert isinstance(tree, Or)
    assert isinstance(tree.items[0], And)
    assert tree.items[1] == Text(position=7, text="c")


def test_lower_case_or_is_an_operator_between_terms_and_a_word_when_quoted():
    assert isinstance(parse_query("a or b"), Or)
    assert parse_query('"or"') == Text(position=0, text="or", quoted=True)
    assert parse_query("orange") == Text(position=0, text="orange")


@pytest.mark.parametrize(
    ("query", "column"),
    [
        ("or", 1),
        ("AND t:attack", 1),
        ("t:attack AND AND b:eagle", 14),
        ("a OR OR b", 6),
        ("(or b)", 2),
        ("NOT and", 5),
        ("a OR and b", 6),
    ],
)
def test_and_or_joining_nothing_is_a_syntax_error_not_a_word(query, column):
    """AND and OR join two terms; first, after "(", after another operator or after NOT they
    join nothing. They were searched as the words "and" and "or" there, so "AND t:attack"
    found 6 cards where "t:attack" finds 40; now the error says where, and how to search the
    word."""
    with pytest.raises(QuerySyntaxError, match=f"at column {column} joins two terms") as caught:
        parse_query(query)
    assert caught.value.column == column and "quote it" in caught.value.message


def test_and_between_terms_is_the_implicit_and_and_upper_case_not_is_minus():
    # both were words to match until 2026-12-07: "t:attack AND b:eagle" looked for "AND" too,
    # and "NOT t:attack" for cards holding "NOT"
    explicit = parse_query("t:attack AND b:eagle")
    assert isinstance(explicit, And)
    assert [(c.field, c.value) for c in explicit.items] == [("t", "attack"), ("b", "eagle")]
    tree = parse_query("a and b OR c")
    assert isinstance(tree, Or) and [item.text for item in tree.items[0].items] == ["a", "b"]
    assert parse_query("NOT t:attack") == Not(position=0, item=parse_query("    t:attack"))
    assert isinstance(parse_query("NOT (a OR b)").item, Or)
    # in lower case NOT stays a word (AND and OR joining nothing are errors: below)
    assert parse_query("not") == Text(position=0, text="not")
    assert parse_query("Notable android") == And(
        position=0, items=(Text(position=0, text="Notable"), Text(position=8, text="android"))
    )
    with pytest.raises(QuerySyntaxError, match="ended early"):
        parse_query("t:attack AND")


@pytest.mark.parametrize(("query", "column"), [('t:attack n:""', 12), ('o:"  "', 3)])
def test_a_field_given_quotes_holding_no_words_is_an_error(query, column):
    """A field's empty quoted value matched no card without a word; now it says where. (A bare
    ``""`` is in every card's text and narrows nothing: tests/api/test_card_queries_rnr.py.)"""
    with pytest.raises(QuerySyntaxError, match="hold no words") as caught:
        parse_query(query)
    assert caught.value.column == column


def test_any_unicode_space_separates_terms_and_positions_stay_the_querys():
    """A no-break space pasted from a page is a space (it was "Unexpected character '\\xa0'")."""
    assert parse_query("t:attack\u00a0b:eagle") == parse_query("t:attack b:eagle")
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query("a\u2003OR\u00a0OR b")
    assert caught.value.column == 6 and caught.value.query == "a\u2003OR\u00a0OR b"


def test_negation_parentheses_phrases_and_exact_names():
    tree = parse_query('-(b:eagle OR b:bison) "draw a card" !"Stamp Act"')
    first, phrase, exact = tree.items
    assert isinstance(first, Not) and isinstance(first.item, Or)
    assert phrase == Text(position=22, text="draw a card", quoted=True)
    assert exact == ExactName(position=36, name="Stamp Act")


def test_quoted_values_and_hyphenated_values():
    tree = parse_query('o:"draw a card" b:liberty-bell')
    assert tree.items[0].value == "draw a card" and tree.items[0].quoted
    assert tree.items[1].value == "liberty-bell"


def test_field_names_are_case_insensitive():
    assert parse_query("T:Attack").field == "t"


def test_empty_query_matches_everything():
    assert parse_query("   ") == MatchAll(position=0)


@pytest.mark.parametrize(
    ("query", "position", "expected_part"),
    [
        ("t:", 2, "a value"),
        ("(t:attack", 9, ")"),
        ("t:attack)", 8, None),
        ('"unterminated', 0, None),
        ("fire OR", 7, "a word"),
        ("a -", 3, "a word"),
        ("ip<=", 4, "a value"),
    ],
)
def test_syntax_errors_say_where_and_what_was_expected(query, position, expected_part):
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(query)
    error = caught.value
    assert error.position == position
    assert error.column == position + 1
    assert f"column {position + 1}" in error.message
    if expected_part:
        assert expected_part in error.expected


def test_unterminated_quote_is_named_as_such():
    with pytest.raises(QuerySyntaxError, match="Unterminated quoted phrase"):
        parse_query('fire "storm')


def test_overlong_and_overdeep_queries_are_refused_with_a_position():
    with pytest.raises(QuerySyntaxError) as long_query:
        parse_query("a" * 1001)
    assert long_query.value.position == 1000
    with pytest.raises(QuerySyntaxError) as deep:
        parse_query("(" * 40 + "a" + ")" * 40)
    assert deep.value.position == 32


QUERY_ALPHABET = st.sampled_from(
    [
        *list('abt:ipr<=>!-()" OR'),
        *("t:", "ip<=", "OR", " ", "-", '"', "!", "(", ")", "x:y", "é", "AND", "and", "NOT"),
    ]
)


@given(st.lists(QUERY_ALPHABET, max_size=30).map("".join) | st.text(max_size=40))
@settings(max_examples=400, deadline=None)
def test_any_text_either_parses_or_fails_with_a_position_inside_the_query(query):
    try:
        parse_query(query)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(query)
        assert error.message


# -- compiling against a small factory-built game -----------------------------------------------


@pytest.fixture
def mini(db):
    game = factories.GameFactory(
        slug="qlang",
        name="Query Game",
        short_name="QG",
        branch_label="Faction",
        number_labels={
            "cost": {"name": "ip_cost", "label": "IP cost"},
            "attack": {"name": "attack_damage", "label": "Attack damage"},
            "defense": {"name": "defense_points", "label": "Defense points"},
        },
    )
    core = factories.CardSetFactory(game=game, code="QG1", name="Core Set")
    attack = factories.CardTypeFactory(game=game, slug="attack", name="Attack")
    defense = factories.CardTypeFactory(game=game, slug="defense", name="Defense")
    red = factories.BranchFactory(game=game, slug="red", name="Red")
    common = factories.RarityFactory(game=game, slug="common", name="Common", sort_order=1)
    uncommon = factories.RarityFactory(game=game, slug="uncommon", name="Uncommon", sort_order=2)
    rare = factories.RarityFactory(game=game, slug="rare", name="Rare", sort_order=3)
    petition = factories.SubtypeFactory(game=game, slug="petition", name="Petition")

    def card(name, **fields):
        return factories.CardFactory(game=game, card_set=core, name=name, **fields)

    card(
        "Fire Storm",
        card_type=attack,
        branch=red,
        rarity=common,
        cost=3,
        attack=20,
        rules_text="Deal damage to every Pillar.",
    )
    card(
        "Ice Storm",
        card_type=attack,
        branch=None,
        rarity=uncommon,
        cost=5,
        attack=10,
        rules_text="Freeze a Pillar.",
    )
    card(
        "Stone Wall",
        card_type=defense,
        branch=red,
        rarity=rare,
        cost=1,
        defense=25,
        rules_text="Block one attack.",
    )
    card(
        "Humble Plea",
        card_type=defense,
        rarity=common,
        cost=0,
        defense=5,
        rules_text="Draw a card.",
        subtypes=[petition],
    )
    return game


def names(query, game):
    return sorted(card_search(query, game=game).values_list("name", flat=True))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("t:attack", ["Fire Storm", "Ice Storm"]),
        ("type:Defense", ["Humble Plea", "Stone Wall"]),
        ("b:red", ["Fire Storm", "Stone Wall"]),
        ("faction:red", ["Fire Storm", "Stone Wall"]),
        ("-b:red", ["Humble Plea", "Ice Storm"]),
        ("r>=uncommon", ["Ice Storm", "Stone Wall"]),
        ("r<uncommon", ["Fire Storm", "Humble Plea"]),
        ("st:petition", ["Humble Plea"]),
        ("s:qg1 cost=0", ["Humble Plea"]),
        ("ip<=1", ["Humble Plea", "Stone Wall"]),
        ("ip_cost>3", ["Ice Storm"]),
        ("ad>=20", ["Fire Storm"]),
        ("dp>5", ["Stone Wall"]),
        ("defense!=25", ["Humble Plea"]),
        ("storm", ["Fire Storm", "Ice Storm"]),
        ("pillar", ["Fire Storm", "Ice Storm"]),
        ('"draw a card"', ["Humble Plea"]),
        ("o:block", ["Stone Wall"]),
        ("n:storm -o:freeze", ["Fire Storm"]),
        ('!"fire storm"', ["Fire Storm"]),
        ("!FIRE-STORM", ["Fire Storm"]),
        ("t:attack OR st:petition", ["Fire Storm", "Humble Plea", "Ice Storm"]),
        ("t:attack AND b:red", ["Fire Storm"]),
        ("NOT t:attack", ["Humble Plea", "Stone Wall"]),
        ("storm and NOT b:red", ["Ice Storm"]),
        ("(b:red OR r:uncommon) t:attack", ["Fire Storm", "Ice Storm"]),
        ("g:QG t:defense -st:petition", ["Stone Wall"]),
        ("", ["Fire Storm", "Humble Plea", "Ice Storm", "Stone Wall"]),
    ],
)
def test_queries_select_the_cards_a_player_expects(mini, query, expected):
    assert names(query, mini) == expected


def test_game_aliases_follow_number_labels(mini):
    aliases = number_aliases(mini)
    assert aliases["ip"] == aliases["ip_cost"] == aliases["ic"] == "cost"
    assert aliases["ad"] == "attack" and aliases["dp"] == "defense"


def test_alias_of_one_game_does_not_select_cards_of_another(mini):
    other = factories.GameFactory(slug="other-qlang")
    factories.CardFactory(game=other, name="Other Storm", cost=1, attack=50)
    both = Card.objects.filter(game__in=[mini, other])
    found = set(both.filter(compile_query("ad>=20 storm")).values_list("name", flat=True))
    assert found == {"Fire Storm"}
    # ...while the column name itself applies to every game.
    found = set(both.filter(compile_query("attack>=20 storm")).values_list("name", flat=True))
    assert found == {"Fire Storm", "Other Storm"}


@pytest.mark.parametrize(
    ("query", "position", "length", "message"),
    [
        ("colr:red", 0, 4, "Unknown field 'colr'"),
        ("t:atack", 2, 5, "Did you mean 'attack'"),
        ("ip<=three", 4, 5, "needs a whole number"),
        ("ip>=1_0", 4, 3, "needs a whole number"),  # int() reads it as 10
        ("ip>=+5", 4, 2, "needs a whole number"),
        ("fire b:purple", 7, 6, "No branch is called 'purple'"),
        ("t>attack", 1, 1, "cannot be compared"),
        ("o>=x", 1, 2, "compares text"),
        ('!"!!"', 0, 3, "at least one letter"),
    ],
)
def test_unknown_fields_and_bad_values_are_positioned_errors(
    mini, query, position, length, message
):
    with pytest.raises(QueryError) as caught:
        compile_query(query, mini)
    assert caught.value.position == position
    assert caught.value.length == length
    assert message in caught.value.message


@given(st.lists(QUERY_ALPHABET, max_size=20).map("".join))
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_query_runs_or_is_a_positioned_error(mini, query):
    try:
        list(card_search(query, game=mini).values_list("pk", flat=True))
    except QueryError as error:
        assert 0 <= error.position <= len(query)


# -- the name index -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_sqlite_index_is_rebuilt_when_a_migration_dropped_its_triggers(mini):
    from django.db import connection

    from cards.apps import _ensure_card_search_index

    if connection.vendor != "sqlite":
        pytest.skip("the FTS5 index is SQLite's")
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER cards_card_search_ai")
    # a card written while the trigger is missing, as after a table rebuild
    factories.CardFactory(game=mini, name="Zephyr Quillon", rules_text="Unindexed for now.")
    assert names("zephyr", mini) == []
    _ensure_card_search_index(using="default")
    assert names("zephyr", mini) == ["Zephyr Quillon"]
    factories.CardFactory(game=mini, name="Zephyr Two")
    assert names("zephyr", mini) == ["Zephyr Quillon", "Zephyr Two"]


@pytest.mark.django_db
def test_index_and_scan_agree_on_every_fragment(mini):
    # fragments of 3+ characters use the index, shorter ones scan: both must give the same cards
    for fragment in ("sto", "stor", "st", "plea", "pl", "all", "wa"):
        via_query = names(fragment, mini)
        expected = sorted(
            card.name
            for card in Card.objects.filter(game=mini)
            if fragment in card.name_key or fragment in card.rules_text.lower()
        )
        assert via_query == expected, fragment


def test_every_field_the_docs_list_is_one_the_compiler_knows():
    from pathlib import Path

    from django.conf import settings

    from cards.search.compiler import NUMBER_FIELDS, TEXT_FIELDS, VOCABULARY_FIELDS

    doc = (Path(settings.BASE_DIR) / "docs" / "query-language.md").read_text()
    table = doc.split("## Fields", 1)[1].split("\n\n", 2)[1]
    documented = set()
    for row in table.splitlines()[2:]:
        first_cell = row.split("|")[1]
        documented |= set(re.findall(r"`([a-z_]+)`", first_cell))
    known = set(VOCABULARY_FIELDS) | set(TEXT_FIELDS) | set(NUMBER_FIELDS)
    assert {"t", "b", "r", "st", "s", "g", "o", "n", "cost"} <= documented
    assert documented <= known | {"colour", "faction", "alignment", "branch_label"}
    assert known <= documented
