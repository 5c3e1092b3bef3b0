"""Form-style filters of the card list (django-filter), sharing the query language's rules.

``?type=attack&branch=eagle&cost_max=3`` means the same as ``q=t:attack b:eagle cost<=3``; an
unknown vocabulary value is a 400 naming the parameter, as in the query language.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import django_filters
from django import forms
from django.db.models import F, OrderBy, QuerySet
from django_filters.fields import RangeField
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError

from api.errors import InvalidQuery
from cards.models import Card, CardSet, Game
from cards.schema import PRINTED_NUMBERS
from cards.search import QueryError, compile_query
from cards.search.compiler import field_q
from cards.vocabulary import game_named, unknown_game_words

ORDERINGS: dict[str, tuple[str, ...]] = {
    "name": ("name_key",),
    **{column: (column,) for column in PRINTED_NUMBERS},
    "rarity": ("rarity__sort_order",),
    "type": ("card_type__sort_order",),
    "branch": ("branch__sort_order",),
    "set": ("card_set__release_date", "card_set__code", "collector_number"),
    "number": ("collector_number",),
    "game": ("game__sort_order",),
    "updated": ("updated_at",),
}


INT_MIN, INT_MAX = -(2**31), 2**31 - 1


class IntegerRangeField(RangeField):
    """``<name>_min`` / ``<name>_max`` as whole numbers within the database's integer range.
    An error names the parameter it is about (``cost_max: Enter a whole number.``): the two
    share one field, so the message is all that tells them apart."""

    #: the filter's name, the parameters' stem (set by ``IntegerRangeFilter``)
    parameter = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = (
            forms.IntegerField(min_value=INT_MIN, max_value=INT_MAX),
            forms.IntegerField(min_value=INT_MIN, max_value=INT_MAX),
        )
        super().__init__(fields, *args, **kwargs)

    def clean(self, value: Any) -> Any:
        """Each end cleaned on its own, its errors prefixed with its parameter's name."""
        parts = list(value) if isinstance(value, list | tuple) else [None, None]
        problems = []
        for suffix, field, part in zip(("min", "max"), self.fields, parts, strict=False):
            try:
                field.clean(part)
            except forms.ValidationError as error:
                problems += [
                    forms.ValidationError(
                        "%(parameter)s_%(end)s: %(words)s",
                        code=each.code or "invalid",
                        params={
                            "parameter": self.parameter,
                            "end": suffix,
                            "words": " ".join(each.messages),
                        },
                    )
                    for each in error.error_list
                ]
        if problems:
            raise forms.ValidationError(problems)
        return super().clean(value)


class IntegerRangeFilter(django_filters.RangeFilter):
    field_class = IntegerRangeField

    @property
    def field(self) -> forms.Field:
        field = super().field
        if isinstance(field, IntegerRangeField):
            field.parameter = self.field_name or ""
        return field


class QueryField(forms.CharField):
    """The q text, passed whole to the query parser, which explains any problem with a position."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.validators = []


class QueryFilter(django_filters.CharFilter):
    field_class = QueryField


def ordering(order: str, direction: str) -> list[OrderBy]:
    """The ORDER BY of ``order=``/``dir=``: the chosen key (empty values last), then name, id."""
    descending = direction == "desc"
    keys = [
        F(column).desc(nulls_last=True) if descending else F(column).asc(nulls_last=True)
        for column in ORDERINGS[order]
    ]
    if order != "name":
        keys.append(F("name_key").asc())
    keys.append(F("id").desc() if descending and order == "name" else F("id").asc())
    return keys


class GameSlugField(forms.CharField):
    """A game's slug (or short name, or name, as ``g:`` reads them), resolved to the game from
    memory (``cards.vocabulary``: no query)."""

    # its cleaned value is the game, not the text (CharField's stubs say str)
    def to_python(self, value: Any) -> Game | None:  # type: ignore[override]
        slug = super().to_python(value)
        if not slug:
            return None
        game = game_named(slug)
        if game is None:
            # the value goes in as a parameter: DRF formats every form error's message with
            # its parameters (``message % params``), so a "%" typed into ?game= must not be in it
            raise forms.ValidationError(
                "%(words)s", code="invalid_choice", params={"words": unknown_game_words(slug)}
            )
        return game


#: what every ``?game=`` (and a body's ``game``) takes, as the schema describes it
GAME_PARAMETER_WORDS = "A game: its slug, short name or name, in any case (revolt-n-reign, RNR)."


# a string (the schema would say the integer of the foreign key), described as the others are
@extend_schema_field({"type": "string", "description": GAME_PARAMETER_WORDS})
class GameFilter(django_filters.Filter):
    field_class = GameSlugField


class _SharedFilters(dict[str, django_filters.Filter]):
    """A filter set's filters, copied shallowly for each instance.

    django-filter deep-copies every filter of the class per request, so that each may point
    to its own filter set (``parent``). A shallow copy with its own ``parent`` does that too:
    the filters' fields and options are read, never changed, per request. A filter with a
    ``method`` gets its method proxy bound to the copy (the proxy finds the method on the copy's
    parent)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, django_filters.Filter]:
        filters = {}
        for name, original in self.items():
            clone = copy.copy(original)
            clone.method = original.method
            filters[name] = clone
        return filters


class _SharedFields(dict[str, forms.Field]):
    """A filter form's fields, handed to each form instance as they are.

    A Django form deep-copies its class's fields on every instance so that one form may change
    its own (a label, a choice list) without touching the next. Filter forms never do: they
    read query parameters, and their fields hold no per-request state. With ``_SharedFilters``
    this halves the filtering of a card search (0.86 to 0.42 ms for a phrase, on the machine
    of ``docs/performance.md``, 2026-11-29).
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


class _GameScopedFilterSet(django_filters.FilterSet):
    game = GameFilter(help_text=GAME_PARAMETER_WORDS)

    _cached_form_class: ClassVar[type[forms.Form]]

    # django-filter returns a plain dict copy too; its stubs say OrderedDict
    @classmethod
    def get_filters(cls) -> dict[str, django_filters.Filter]:  # type: ignore[override]
        # django-filter's metaclass sets each class's base_filters from this, once
        return _SharedFilters(super().get_filters())

    def get_form_class(self) -> type[forms.Form]:
        # django-filter builds the form class on every request; its fields never change, so
        # build it once per FilterSet class, with fields its forms share (_SharedFields).
        cls = type(self)
        if "_cached_form_class" not in cls.__dict__:
            form_class = super().get_form_class()
            form_class.base_fields = _SharedFields(form_class.base_fields)
            cls._cached_form_class = form_class
        return cls._cached_form_class


def vocabulary_filterset(model: type[Any]) -> type[django_filters.FilterSet]:
    """A FilterSet with a ``game`` filter for a per-game vocabulary model."""
    meta = type("Meta", (), {"model": model, "fields": ["game"]})
    return type(f"{model.__name__}FilterSet", (_GameScopedFilterSet,), {"Meta": meta})


class CardSetFilterSet(_GameScopedFilterSet):
    class Meta:
        model = CardSet
        fields = ["game"]


class CardFilterSet(_GameScopedFilterSet):
    q = QueryFilter(
        method="filter_query",
        help_text='A query in the card query language, e.g. t:attack b:eagle ip<=3 "stamp act".',
    )
    type = django_filters.CharFilter(
        method="filter_vocabulary", help_text="Card type slug or name."
    )
    branch = django_filters.CharFilter(method="filter_vocabulary", help_text="Branch slug or name.")
    rarity = django_filters.CharFilter(method="filter_vocabulary", help_text="Rarity slug or name.")
    subtype = django_filters.CharFilter(
        method="filter_vocabulary", help_text="Subtype slug or name."
    )
    set = django_filters.CharFilter(method="filter_vocabulary", help_text="Set code or name.")
    cost = IntegerRangeFilter(help_text="cost_min / cost_max: printed cost range.")
    attack = IntegerRangeFilter(help_text="attack_min / attack_max.")
    defense = IntegerRangeFilter(help_text="defense_min / defense_max.")
    drain = IntegerRangeFilter(help_text="drain_min / drain_max.")
    generation = IntegerRangeFilter(help_text="generation_min / generation_max.")
    strength = IntegerRangeFilter(help_text="strength_min / strength_max.")
    order = django_filters.ChoiceFilter(
        choices=[(key, key) for key in ORDERINGS],
        method="filter_nothing",
        empty_label=None,
        help_text="Sort key (default name).",
    )
    dir = django_filters.ChoiceFilter(
        choices=[("asc", "asc"), ("desc", "desc")],
        method="filter_nothing",
        empty_label=None,
        help_text="Sort direction (default asc).",
    )

    class Meta:
        model = Card
        fields = ["game"]

    def _game(self) -> Game | None:
        return self.form.cleaned_data.get("game")

    def filter_query(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        try:
            return queryset.filter(compile_query(value, self._game()))
        except QueryError as error:
            raise InvalidQuery(error, parameter=name) from None

    def filter_vocabulary(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        try:
            return queryset.filter(field_q(name, value, game=self._game()))
        except QueryError as error:
            raise ValidationError({name: [error.message]}) from None

    def filter_nothing(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset

    def filter_queryset(self, queryset: QuerySet[Card]) -> QuerySet[Card]:
        queryset = super().filter_queryset(queryset)
        data = self.form.cleaned_data
        return queryset.order_by(*ordering(data.get("order") or "name", data.get("dir") or "asc"))
