"""Decks, validation reports and formats over the API (events: ``api.serializers.events``)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils.encoding import smart_str
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.filters import GAME_PARAMETER_WORDS
from cards.models import Game
from cards.vocabulary import game_named, unknown_game_words
from common.inputs import MAX_INT32
from decks.models import Deck, Format, Visibility
from decks.selectors import MAX_BATCH_DECKS
from decks.services import CARD_CHANGE_OPS

KINDS = ["text", "json", "csv"]
MAX_DECKLIST = 200_000


def zone_field() -> serializers.CharField:
    """The optional zone of a card line (games with zones; empty: the game's first zone)."""
    return serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text="For games with zones; default: the game's first zone.",
    )


class DeckCardSerializer(serializers.Serializer):
    name = serializers.CharField()
    quantity = serializers.IntegerField()
    zone = serializers.CharField(allow_blank=True)
    card = serializers.IntegerField(help_text="Card id (GET /api/v1/cards/{id}/).")


class DeckSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField()
    game = serializers.CharField(source="game.slug")
    format = serializers.CharField(source="format.slug", allow_null=True, default=None)
    owner = serializers.CharField(source="owner.get_username")
    description = serializers.CharField(allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    variant = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    card_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    url = serializers.HyperlinkedIdentityField(view_name="api:deck-detail", read_only=True)


class DeckWithCardsSerializer(DeckSerializer):
    cards = serializers.SerializerMethodField()

    @extend_schema_field(DeckCardSerializer(many=True))
    def get_cards(self, deck: Deck) -> list[dict[str, Any]]:
        rows = sorted(deck.cards.all(), key=lambda row: (row.zone, row.card.name))
        return [
            {"name": row.card.name, "quantity": row.quantity, "zone": row.zone, "card": row.card_id}
            for row in rows
        ]


class DecklistInputMixin(serializers.Serializer):
    decklist = serializers.CharField(
        max_length=MAX_DECKLIST,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="The decklist in the given kind (docs/decklists.md).",
    )
    kind = serializers.ChoiceField(choices=KINDS, default="text")


class GameSlugField(serializers.SlugRelatedField):
    """A game by its slug (or short name, or name, as ``g:`` reads them), looked up in the games
    every process keeps in memory
    (``cards.vocabulary``, rebuilt when the catalogue's generation moves): no query. Answers
    and an unknown slug is refused naming the games there are."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", GAME_PARAMETER_WORDS)
        super().__init__(slug_field="slug", queryset=Game.objects.all(), **kwargs)

    def to_internal_value(self, data: Any) -> Game:
        # the database compared the value's text with the slug column, whatever its type
        game = game_named(smart_str(data))
        if game is None:
            raise serializers.ValidationError(unknown_game_words(smart_str(data)))
        return game


class DeckCreateSerializer(DecklistInputMixin):
    game = GameSlugField()
    name = serializers.CharField(max_length=120)
    format = serializers.SlugField(required=False, allow_null=True, help_text="Format slug.")
    description = serializers.CharField(required=False, allow_blank=True, default="")
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    variant = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)


MAX_CARD_CHANGES = 200


class DeckCardChangeItemSerializer(serializers.Serializer):
    """One change of a deck's card list, applied on the server under the deck's lock."""

    op = serializers.ChoiceField(
        choices=CARD_CHANGE_OPS,
        help_text="add: count more copies; remove: count fewer (the last one removes the line; "
        "more than the deck holds is a 400); set: exactly count copies (0 removes the line).",
    )
    name = serializers.CharField(max_length=200, help_text="The card's name, any case.")
    count = serializers.IntegerField(min_value=0, max_value=999, help_text="Copies (see op).")
    zone = zone_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["op"] != "set" and attrs["count"] == 0:
            raise serializers.ValidationError(
                {"count": f"{attrs['op']} needs a count of 1 or more."}
            )
        return attrs


class DeckUpdateSerializer(DecklistInputMixin):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    format = serializers.SlugField(required=False, allow_null=True, help_text="null clears it.")
    variant = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=40,
        help_text="One of the game's variants; empty clears it.",
    )
    changes = DeckCardChangeItemSerializer(  # type: ignore[call-arg]  # stubs: many=True hands it to the ListSerializer
        many=True,
        required=False,
        min_length=1,
        max_length=MAX_CARD_CHANGES,
        help_text="Card changes applied in order under the deck's lock, all or none: only the "
        "lines named change, so concurrent changes to other cards are kept. No If-Match needed.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "decklist" in attrs and "changes" in attrs:
            raise serializers.ValidationError(
                "Give either decklist (it replaces every card; needs If-Match) or changes, not both."
            )
        return attrs


class DeckCloneSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)


class DeckVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    note = serializers.CharField()
    entries = serializers.ListField(child=serializers.DictField())


class DiffRowSerializer(serializers.Serializer):
    name = serializers.CharField()
    zone = serializers.CharField(allow_blank=True)
    quantity = serializers.IntegerField(required=False)


class ChangedRowSerializer(serializers.Serializer):
    name = serializers.CharField()
    zone = serializers.CharField(allow_blank=True)
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class DeckDiffSerializer(serializers.Serializer):
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()
    added = DiffRowSerializer(many=True)
    removed = DiffRowSerializer(many=True)
    changed = ChangedRowSerializer(many=True)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class DiffQuerySerializer(serializers.Serializer):
    from_ = serializers.IntegerField(min_value=1, max_value=MAX_INT32)
    to = serializers.IntegerField(min_value=1, max_value=MAX_INT32)

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class ExportQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS, default="text")


class ViolationSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable code, e.g. deck-size, copy-limit.")
    message = serializers.CharField()
    rule = serializers.CharField(help_text="The rulebook section the rule comes from.")
    cards = serializers.ListField(child=serializers.CharField())
    details = serializers.DictField()


class ValidationReportSerializer(serializers.Serializer):
    game = serializers.CharField()
    format = serializers.CharField(allow_null=True)
    as_of = serializers.DateField(allow_null=True)
    variant = serializers.CharField(allow_null=True)
    legal = serializers.BooleanField()
    card_count = serializers.IntegerField()
    violations = ViolationSerializer(many=True)
    warnings = ViolationSerializer(many=True)


class CardCountSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    quantity = serializers.IntegerField(min_value=1, max_value=999)
    zone = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)


class DeckInputSerializer(DecklistInputMixin):
    """One deck to judge: decklist text (in ``kind``) or a list of cards."""

    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    cards = CardCountSerializer(many=True, required=False, max_length=2000)  # type: ignore[call-arg]  # stubs: many=True hands it to the ListSerializer

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("decklist" in attrs) == ("cards" in attrs):
            raise serializers.ValidationError("Give exactly one of decklist or cards.")
        return attrs


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class CalendarDateField(serializers.DateField):
    """A day written ``YYYY-MM-DD``. DRF calls a well-written day the calendar lacks
    (``2026-02-30``) a wrong format; this says the day does not exist."""

    def to_internal_value(self, value: Any) -> dt.date:
        if isinstance(value, str) and _ISO_DAY.fullmatch(value.strip()):
            try:
                dt.date.fromisoformat(value.strip())
            except ValueError as error:
                raise serializers.ValidationError(
                    f"{value.strip()} is written as a date but is no day of the calendar "
                    f"({error}).",
                    code="invalid",
                ) from None
        return super().to_internal_value(value)


class GameQuerySerializer(serializers.Serializer):
    """A list's ``?game=``: a game's slug, short name or name; any other value is a 400 naming
    it (the card, deck, format and event lists alike)."""

    game = GameSlugField(required=False)


class ValidateRequestSerializer(DeckInputSerializer):
    game = GameSlugField()
    format = serializers.SlugField(required=False, allow_null=True)
    as_of = CalendarDateField(required=False, allow_null=True)
    variant = serializers.CharField(required=False, allow_blank=True, max_length=40)


class ValidateQuerySerializer(serializers.Serializer):
    format = serializers.SlugField(required=False)
    as_of = CalendarDateField(required=False)


class FormatSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    game = serializers.CharField(source="game.slug")
    description = serializers.CharField()
    is_default = serializers.BooleanField()
    effective_from = serializers.DateField(allow_null=True)
    effective_until = serializers.DateField(allow_null=True)


class FormatCheckRequestSerializer(serializers.Serializer):
    game = GameSlugField(
        required=False,
        help_text="Needed only when several games have a format with this slug.",
    )
    as_of = CalendarDateField(
        required=False,
        allow_null=True,
        help_text="The day every deck is judged on; without it, each deck's own `# as_of:` "
        "line, else today.",
    )
    variant = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="The variant every deck is judged in; without it, each deck's own "
        "`# variant:` line, else the game's standard rules.",
    )
    decks = DeckInputSerializer(many=True, min_length=1, max_length=MAX_BATCH_DECKS)  # type: ignore[call-arg]  # stubs: many=True hands it to the ListSerializer


class FormatCheckResultSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    as_of = serializers.DateField(
        help_text="The day this deck was judged on: the request's as_of, else the date its own "
        "list names, else the response's as_of (today)."
    )
    legal = serializers.BooleanField()
    codes = serializers.ListField(child=serializers.CharField())
    report = ValidationReportSerializer(allow_null=True)
    errors = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]  # stubs: declared fields leave the class


class FormatCheckSummarySerializer(serializers.Serializer):
    decks = serializers.IntegerField()
    legal = serializers.IntegerField()
    illegal = serializers.IntegerField()
    unreadable = serializers.IntegerField()
    own_dates = serializers.IntegerField(
        help_text="Decks judged on the date their own list names, not the response's as_of."
    )
    by_code = serializers.DictField(child=serializers.IntegerField())


class FormatCheckResponseSerializer(serializers.Serializer):
    format = serializers.CharField()
    game = serializers.CharField()
    as_of = serializers.DateField(
        help_text="The request's as_of, or today: the day of every deck whose own as_of is "
        "not that of its result."
    )
    results = FormatCheckResultSerializer(many=True)
    summary = FormatCheckSummarySerializer()


def format_for(slug: str | None, game: Game) -> Format | None:
    """The game's format with this slug; ValidationError on ``format`` if there is none."""
    if not slug:
        return None
    found = Format.objects.filter(game=game, slug=slug).first()
    if found is None:
        known = ", ".join(Format.objects.filter(game=game).values_list("slug", flat=True))
        raise serializers.ValidationError(
            {"format": [f"{game.name} has no format {slug!r} (formats: {known or 'none'})."]}
        )
    return found
