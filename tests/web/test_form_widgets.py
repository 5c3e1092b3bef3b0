"""Widgets and fields that make long selects cheap: the selects rendered in Python
(``ManyOptionsSelect``, ``ManyOptionsSelectMultiple``) write what Django's own write, and a form's deck selects share one query."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.db import connection
from django.http import QueryDict
from django.test.html import parse_html
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from decks.models import Deck
from tests.web.conftest import two_rnr_decks
from web.forms import EventForm, ManyOptionsSelect, ManyOptionsSelectMultiple, MatchupForm

# values and labels with the characters escaping is for, and a few plain ones
TEXT = st.text(alphabet=st.sampled_from("ab<>&\"' /é😀"), max_size=8)
CHOICES = st.lists(st.tuples(TEXT, TEXT), max_size=12, unique_by=lambda pair: pair[0])


def _both(choices: list[tuple[str, str]], value: object, attrs: dict[str, object]):
    ours = ManyOptionsSelect(attrs=attrs, choices=choices).render("zone", value, {"id": "id_z"})
    django = forms.Select(attrs=attrs, choices=choices).render("zone", value, {"id": "id_z"})
    return parse_html(ours), parse_html(django)


@given(
    choices=CHOICES,
    pick=st.integers(min_value=0, max_value=12),
    attrs=st.dictionaries(
        st.sampled_from(["data-detect", "required", "disabled", "class", "title"]),
        st.one_of(st.booleans(), TEXT),
        max_size=3,
    ),
)
def test_many_options_select_renders_the_markup_of_djangos_select(choices, pick, attrs):
    """Same options in the same order, the same one selected, the same attributes, the same
    escaping, for any choices and any value (one of them, or none)."""
    value = choices[pick][0] if pick < len(choices) else None
    ours, django = _both(choices, value, attrs)
    assert ours == django


@given(
    choices=CHOICES,
    picks=st.sets(st.integers(min_value=0, max_value=12), max_size=5),
    attrs=st.dictionaries(
        st.sampled_from(["size", "required", "class"]),
        st.one_of(st.booleans(), TEXT),
        max_size=2,
    ),
)
def test_many_options_select_multiple_renders_the_markup_of_djangos(choices, picks, attrs):
    """The multiple select: every chosen option marked (any number of them, none included),
    ``multiple`` set, and otherwise the same markup as Django's ``SelectMultiple``."""
    value = [choices[pick][0] for pick in sorted(picks) if pick < len(choices)]
    ours = ManyOptionsSelectMultiple(attrs=attrs, choices=choices).render("cards", value, {})
    django = forms.SelectMultiple(attrs=attrs, choices=choices).render("cards", value, {})
    assert parse_html(ours) == parse_html(django)
    assert ours.count(" selected") == len(value)


def test_many_options_select_multiple_reads_every_posted_value():
    """It reads a posted list as Django's ``SelectMultiple`` does: every value, not the last."""
    posted = QueryDict("cards=Tea+Act&cards=Stamp+Act&other=1")
    widget = ManyOptionsSelectMultiple(choices=[("Tea Act", "Tea Act"), ("Stamp Act", "x")])
    assert widget.value_from_datadict(posted, {}, "cards") == ["Tea Act", "Stamp Act"]
    assert widget.value_omitted_from_data(QueryDict("other=1"), {}, "cards") is False


@pytest.mark.django_db
def test_the_event_form_offers_every_zone_with_the_events_own_selected():
    form = EventForm(initial={"time_zone": "Asia/Tokyo"})
    html = str(form["time_zone"])
    assert html.count("<option ") > 400
    assert html.count(" selected") == 1
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in html
    assert 'name="time_zone"' in html and 'id="id_time_zone"' in html


@pytest.mark.django_db
def test_the_matchup_form_lists_every_deck_in_each_select_from_one_query(alice, user):
    """Its four deck selects offer the same decks; they are fetched once, not once a select."""
    eagles, bisons = two_rnr_decks(user)
    with CaptureQueriesContext(connection) as queries:
        page = alice.get("/matchups/").content.decode()
    deck_queries = [q["sql"] for q in queries if 'FROM "decks_deck"' in q["sql"]]
    assert len(deck_queries) == 1, deck_queries
    for name in MatchupForm.DECKS:
        select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
        assert select is not None, name
        assert f'value="{eagles.pk}"' in select.group(1), name
        assert f'value="{bisons.pk}"' in select.group(1), name


@pytest.mark.django_db
def test_a_posted_deck_is_checked_against_the_decks_the_user_may_pick(alice, user, other_user):
    """Shared rows list the decks; a posted deck id is still looked up in the queryset, so
    another player's private deck is refused."""
    mine, _ = two_rnr_decks(user)
    theirs, _ = two_rnr_decks(other_user)
    data = {"deck_a": theirs.pk, "deck_b": mine.pk, "agent_a": "random", "agent_b": "random"}
    response = alice.post("/matchups/", {**data, "games": 2, "seed": 1})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


@pytest.mark.django_db
def test_a_deck_select_given_another_queryset_lists_that_one_not_the_shared_rows(user):
    """Rows shared by ``share_rows`` serve only the queryset they were fetched for: a field
    narrowed afterwards lists its new queryset."""
    eagles, bisons = two_rnr_decks(user)
    form = MatchupForm(
        decks=Deck.objects.filter(pk__in=[eagles.pk, bisons.pk]).order_by("pk"),
        agents={"random": "Random"},
    )
    shared = [value for value, _ in form.fields["deck_b"].choices if value]
    assert [str(v) for v in shared] == [str(eagles.pk), str(bisons.pk)]
    form.fields["deck_a"].queryset = Deck.objects.filter(pk=bisons.pk)
    narrowed = [value for value, _ in form.fields["deck_a"].choices if value]
    assert [str(v) for v in narrowed] == [str(bisons.pk)]
    for name in ("deck_a", "deck_b"):  # the count agrees with the listing, shared or not
        choices = form.fields[name].choices
        assert len(choices) == len(list(choices))
