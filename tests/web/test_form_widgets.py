"""The select rendered in Python (``ManyOptionsSelect``) writes what Django's own writes."""

from __future__ import annotations

import pytest
from django import forms
from django.test.html import parse_html
from hypothesis import given
from hypothesis import strategies as st

from web.forms import EventForm, ManyOptionsSelect

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


@pytest.mark.django_db
def test_the_event_form_offers_every_zone_with_the_events_own_selected():
    form = EventForm(initial={"time_zone": "Asia/Tokyo"})
    html = str(form["time_zone"])
    assert html.count("<option ") > 400
    assert html.count(" selected") == 1
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in html
    assert 'name="time_zone"' in html and 'id="id_time_zone"' in html
