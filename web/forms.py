"""Forms of the pages. They parse and check input; the services do the writing."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.forms.models import ModelChoiceIterator
from django.forms.utils import flatatt
from django.http import QueryDict
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from cards.models import Branch, CardSet, CardType, Game, Rarity
from cards.vocabulary import game_named, vocabularies
from common.inputs import MAX_ID, MAX_INT32
from decks.decklist import guess_kind
from decks.events.services import DEFAULT_TIME_ZONE, time_zone_names
from decks.models import Event, Format, Visibility
from decks.selectors import format_default, formats_with_games
from decks.validation import rules_for
from rules.engines.core import find_plugin, plugins

MAX_UPLOAD_BYTES = 512 * 1024
KIND_CHOICES = [
    ("auto", "Detect"),
    ("text", "Text"),
    ("json", "JSON"),
    ("csv", "CSV"),
]


def _choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, declared as a choice field (its choices are set per request)."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField), name
    return field


def _model_field(form: forms.BaseForm, name: str) -> forms.ModelChoiceField[Any]:
    """The form's field ``name``, declared as a model choice field (its queryset is per request)."""
    field = form.fields[name]
    assert isinstance(field, forms.ModelChoiceField), name
    return field


#: an option's mark of being chosen, as Django's own option template writes it
SELECTED = mark_safe(" selected")


class ManyOptionsSelect(forms.Select):
    """A select of many flat options (the event form's 599 time zones), rendered in Python.

    Django renders every option through its own template and a second one for its attributes:
    about 75 us an option, 45 ms for the zone list, most of the event form's time. This joins
    the same markup directly: the value, its label (both escaped), ``selected`` on the chosen
    ones and the select's own attributes. Option groups and per-option attributes are not
    supported (a subclass that adds them uses ``forms.Select``).
    """

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        chosen = set(self.format_value(value))
        options = "".join(
            f'<option value="{escape(choice)}"{SELECTED if str(choice) in chosen else ""}>'
            f"{escape(label)}</option>"
            for choice, label in self.choices
        )
        final = self.build_attrs(self.attrs, attrs)
        final["name"] = name
        if self.allow_multiple_selected:
            final["multiple"] = True
        return format_html("<select{}>{}</select>", flatatt(final), mark_safe(options))


class ManyOptionsSelectMultiple(ManyOptionsSelect, forms.SelectMultiple):
    """``ManyOptionsSelect`` for a multiple select (the deck page's odds calculator lists every
    card of the deck): the same markup as Django's ``SelectMultiple``, each chosen option marked,
    and its way of reading the posted values (``getlist``)."""


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text="Used only to reset your password if you forget it."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _variant_choices() -> list[Any]:
    """The variants of every game that has some, grouped by game, after "the game's default"
    (the event services refuse a variant of another game than the format's)."""
    choices: list[Any] = [("", "None: the game's default")]
    for game in Game.objects.order_by("sort_order", "name"):
        variants = rules_for(game.slug).variants
        if variants:
            choices.append((game.name, [(v, variant_label(v)) for v in variants]))
    return choices


def _format_choices(empty: str | None) -> list[Any]:
    choices: list[Any] = [("", empty)] if empty is not None else []
    grouped: dict[str, list[tuple[int, str]]] = {}
    for fmt in formats_with_games().order_by("game__sort_order", "-is_default"):
        grouped.setdefault(fmt.game.name, []).append((fmt.pk, fmt.name))
    choices.extend(grouped.items())
    return choices


class VocabularyChoiceField(forms.ModelChoiceField):
    """A game (by slug) or a vocabulary row (by id) found in the vocabularies every process keeps
    in memory (``cards.vocabulary``): checking a choice costs no query. It accepts and refuses
    what ``ModelChoiceField`` over its queryset did (``game``: only rows of that game)."""

    def __init__(self, kind: str, *args: Any, **kwargs: Any) -> None:
        self.kind = kind
        self.game: Game | None = None
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        self.validate_no_null_characters(value)
        row = self._find(value)
        if row is None:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": value},
            )
        return row

    def _find(self, value: Any) -> Any:
        known = vocabularies()
        if self.kind == "game":
            return game_named(str(value))
        try:
            pk = int(str(value))
        except ValueError:
            return None
        row = known.by_id[self.kind].get(pk)
        if row is not None and self.game is not None and row.game_id != self.game.pk:
            return None
        return row


class CardBrowserForm(forms.Form):
    """The card browser's search box, filters, sort and view (all optional, all GET)."""

    q = forms.CharField(
        required=False,
        max_length=1000,
        label="Search",
        help_text='Query language, e.g. t:attack b:eagle ip<=3 or "draw 1 card".',
    )
    game = VocabularyChoiceField(
        "game",
        Game.objects.order_by("sort_order", "name"),
        required=False,
        to_field_name="slug",
        empty_label="All games",
    )
    type = VocabularyChoiceField(
        "type", CardType.objects.all(), required=False, empty_label="Any type"
    )
    branch = VocabularyChoiceField(
        "branch", Branch.objects.all(), required=False, empty_label="Any"
    )
    rarity = VocabularyChoiceField(
        "rarity", Rarity.objects.all(), required=False, empty_label="Any rarity"
    )
    set = VocabularyChoiceField("set", CardSet.objects.all(), required=False, empty_label="Any set")
    sort = forms.ChoiceField(
        choices=[
            ("name", "Name"),
            ("cost", "Cost"),
            ("rarity", "Rarity"),
            ("type", "Type"),
            ("set", "Set"),
            ("game", "Game"),
        ],
        required=False,
    )
    dir = forms.ChoiceField(
        choices=[("asc", "Ascending"), ("desc", "Descending")], required=False, label="Order"
    )
    view = forms.ChoiceField(choices=[("grid", "Images"), ("list", "List")], required=False)

    # the filters whose choices follow the game, and the vocabulary each names
    GAME_FILTERS = {"type": "type", "branch": "branch", "rarity": "rarity", "set": "set"}

    def __init__(self, data: QueryDict | None = None, **kwargs: Any) -> None:
        self.chosen_game = game_named(str(data.get("game") or "")) if data is not None else None
        if data is not None and self.chosen_game is not None:
            data = self._without_other_games_choices(data, self.chosen_game)
        super().__init__(data, **kwargs)
        if self.chosen_game is not None:
            for name in self.GAME_FILTERS:
                field = self.fields[name]
                assert isinstance(field, VocabularyChoiceField)
                assert field.queryset is not None  # declared with one
                field.queryset = field.queryset.filter(game=self.chosen_game)
                field.game = self.chosen_game

    def _without_other_games_choices(self, data: QueryDict, game: Game) -> QueryDict:
        """``data`` less the filters chosen for another game (left from before the game changed):
        they are cleared, not refused, so choosing a game never answers with an error. A game
        named by its short name or name (``?game=RNR``, as ``g:`` reads it) becomes its slug,
        the value of its choice."""
        data = data.copy()
        data["game"] = game.slug
        known = vocabularies()
        for name, kind in self.GAME_FILTERS.items():
            value = str(data.get(name) or "")
            digits = value.isascii() and value.isdigit() and len(value) < 10
            row = known.by_id[kind].get(int(value)) if digits else None
            if row is not None and row.game_id != game.pk:
                del data[name]
        return data


class DecklistInputMixin(forms.Form):
    """A pasted decklist or an uploaded file, in text, JSON or CSV."""

    decklist = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label="Decklist",
        help_text="One card a line, e.g. 2 Eagle Dive. JSON and CSV work too.",
    )
    file = forms.FileField(required=False, label="Or upload a file (.txt, .json, .csv)")
    kind = forms.ChoiceField(
        choices=KIND_CHOICES,
        required=False,
        initial="auto",
        label="File format",
        help_text="How the decklist or file is written (not the game format).",
    )

    def add_decklist_problems(
        self, problems: Iterable[str], fields: Mapping[str, str] | None = None, source: str = ""
    ) -> None:
        """Say each problem of a refused list beside its field (so the box is marked invalid
        and names the problems): the field ``fields`` names for it where this form has that
        field, else the one the list came from (``source``, by default the file where one was
        uploaded, else the text box)."""
        source = source or ("file" if self.cleaned_data.get("file") else "decklist")
        for problem in problems:
            field = (fields or {}).get(problem, source)
            self.add_error(field if field in self.fields else source, problem)

    def decklist_text(self) -> tuple[str, str]:
        """``(text, kind)`` of the decklist given, the upload winning over the text box."""
        upload: UploadedFile | None = self.cleaned_data.get("file")
        text = self.cleaned_data.get("decklist") or ""
        filename = ""
        if upload is not None:
            text = self.cleaned_data["file_text"]
            filename = upload.name or ""
        kind = self.cleaned_data.get("kind") or "auto"
        if kind == "auto":
            kind = guess_kind(filename, text)
        return text, kind

    def clean(self) -> dict[str, Any]:
        """Text and a file at once is refused: one of them would be dropped without a word."""
        super().clean()
        data = self.cleaned_data
        if data.get("file") and (data.get("decklist") or "").strip():
            self.add_error(
                "decklist",
                "Paste a decklist or upload a file, not both: clear the text box or the file.",
            )
        return data

    def clean_file(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("file")
        if not upload:  # None, or False when a "file-clear" box was sent
            return None
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError("A decklist file may be at most 512 KB.")
        try:
            self.cleaned_data["file_text"] = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise forms.ValidationError("The file is not UTF-8 text.") from error
        return upload


class ScopedChoiceField(forms.ChoiceField):
    """A select whose offered choices depend on another field (the game): any posted value
    reaches the form's ``clean``, which says in words why a value of another game is refused
    (rather than Django's "Select a valid choice")."""

    def valid_value(self, value: Any) -> bool:
        return True


def variant_label(variant: str) -> str:
    """A variant's slug in words (``secret-random`` -> ``Secret random``)."""
    return variant.replace("-", " ").capitalize()


def game_format_choices(game: Game | None) -> list[tuple[Any, str]]:
    """The formats of ``game`` (its default first), after the choice of none."""
    choices: list[tuple[Any, str]] = [("", "No format (construction rules only)")]
    if game is not None:
        formats = Format.objects.filter(game=game).order_by("-is_default", "name")
        choices.extend((fmt.pk, fmt.name) for fmt in formats)
    return choices


def clean_game_format(game: Game, value: Any) -> tuple[Format | None, str | None]:
    """``(format, error)``: the posted format id if it is one of ``game``'s, else a message."""
    if value in (None, ""):
        return None, None
    try:
        format_id = int(value)
    except (TypeError, ValueError):
        return None, f"Choose a format of {game.name}."
    fmt = Format.objects.select_related("game").filter(pk=format_id).first()
    if fmt is None:
        return None, f"There is no format {format_id}. Choose a format of {game.name}."
    if fmt.game_id != game.pk:
        return None, (
            f"{fmt.name} is a format of {fmt.game.name}, not of {game.name}. "
            f"Choose a format of {game.name}."
        )
    return fmt, None


class DeckCreateForm(DecklistInputMixin):
    """A new deck. The game format and variant selects offer the chosen game's only (the game
    select reloads them with htmx); a format or variant of another game posted anyway is refused
    here with a message, so the form works without JavaScript too."""

    name = forms.CharField(max_length=120)
    game = forms.ModelChoiceField(
        Game.objects.order_by("sort_order", "name"), to_field_name="slug", empty_label=None
    )
    format = ScopedChoiceField(choices=(), required=False, label="Game format")
    variant = ScopedChoiceField(choices=(), required=False, label="Variant")
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PRIVATE)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    field_order = ["name", "game", "format", "variant", "visibility", "description"]
    GAME_FIELDS = ("format", "variant")
    """The fields that depend on the game (re-rendered when it changes)."""

    def __init__(self, *args: Any, game: str = "", **kwargs: Any) -> None:
        """``game``: the slug of the game the page opens with (``?game=``), if any."""
        super().__init__(*args, **kwargs)
        self.fields["decklist"].required = False
        self.fields["decklist"].label = "Start from a decklist (optional)"
        self.chosen_game = self._chosen_game(game)
        chosen = self.chosen_game
        self.fields["game"].initial = chosen.slug if chosen is not None else None
        # the formats and variants follow the game: htmx fetches them when it changes
        self.fields["game"].widget.attrs.update(
            {
                "hx-get": reverse("deck-new"),
                "hx-trigger": "change",
                "hx-target": "#game-fields",
                "hx-swap": "outerHTML",
            }
        )
        self.fields["game"].help_text = "The game format and variant below follow the game."
        fmt_field = _choice_field(self, "format")
        fmt_field.choices = game_format_choices(chosen)
        default = format_default(chosen) if chosen is not None else None
        fmt_field.initial = default.pk if default is not None else ""
        fmt_field.help_text = (
            "Which sets are legal and which cards are banned or restricted; the default format "
            "is chosen for you, so ban lists are checked."
        )
        variant_field = _choice_field(self, "variant")
        rules = rules_for(chosen.slug) if chosen is not None else None
        variants = rules.variants if rules is not None else ()
        variant_field.choices = [(v, variant_label(v)) for v in variants]
        if variants and chosen is not None:
            variant_field.initial = rules.default_variant if rules is not None else variants[0]
            variant_field.help_text = f"How {chosen.name} is set up (its rulebook's variants)."
        else:
            variant_field.widget = forms.HiddenInput()
            variant_field.choices = [("", "")]

    def _chosen_game(self, slug: str) -> Game | None:
        """The game posted (if it is one), else the one asked for, else the first."""
        games = _model_field(self, "game").queryset
        assert games is not None  # declared with one
        if self.is_bound:
            slug = self.data.get(self.add_prefix("game")) or slug
        # ``?game=`` names a game as the API and the query language do: slug, short name or name
        named = game_named(slug)
        found = games.filter(pk=named.pk).first() if named is not None else None
        return found or games.first()

    def _offer_default_format(self, game: Game) -> None:
        """Show the refused form again with the game's default format selected in place of the
        format of another game (the error beside it says what was wrong)."""
        default = format_default(game)
        data = self.data.copy() if isinstance(self.data, QueryDict) else dict(self.data)
        self.data = data
        data[self.add_prefix("format")] = str(default.pk) if default is not None else ""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        game: Game | None = data.get("game")
        data["format_obj"] = None
        if game is not None:
            fmt, error = clean_game_format(game, data.get("format"))
            if error:
                self.add_error("format", error)
                self._offer_default_format(game)
            data["format_obj"] = fmt
        variant = (data.get("variant") or "").strip()
        if game is not None and variant:
            variants = rules_for(game.slug).variants
            if variant not in variants:
                known = ", ".join(variants) if variants else "none"
                self.add_error(
                    "variant", f"{game.name} has no variant {variant!r} (known: {known})."
                )
        data["variant"] = variant
        return data


class DeckVersionMixin(forms.Form):
    """The deck version the page showed when the form was filled in (a hidden field the builder
    keeps current): a write that would overwrite changes made since is refused, and one that
    only adds is applied with a note of what else changed."""

    version = forms.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )


class DeckSettingsForm(DeckVersionMixin):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    format = ScopedChoiceField(choices=(), required=False, label="Game format")
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        help_text="Public decks are listed; unlisted ones open only by link; private ones only for you.",
    )

    variant = ScopedChoiceField(choices=(), required=False, label="Variant")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        _choice_field(self, "format").choices = game_format_choices(game)
        self.fields["format"].help_text = f"The formats of {game.name}."
        variants = rules_for(game.slug).variants
        if variants:
            _choice_field(self, "variant").choices = [(v, variant_label(v)) for v in variants]
            self.fields["variant"].help_text = f"How {game.name} is set up."
        else:  # nothing to choose: the field is not shown and the deck's variant stays
            del self.fields["variant"]

    def clean_variant(self) -> str | None:
        """The variant chosen; None (no change) when none was sent."""
        variant = (self.cleaned_data.get("variant") or "").strip()
        if not variant:
            return None
        variants = rules_for(self.game.slug).variants
        if variant not in variants:
            known = ", ".join(variants)
            raise forms.ValidationError(
                f"{self.game.name} has no variant {variant!r} (known: {known})."
            )
        return variant

    def clean_format(self) -> Format | None:
        fmt, error = clean_game_format(self.game, self.cleaned_data.get("format"))
        if error:
            raise forms.ValidationError(error)
        return fmt


class DeckPasteForm(DecklistInputMixin, DeckVersionMixin):
    mode = forms.ChoiceField(
        choices=[("add", "Add to the deck"), ("replace", "Replace the deck")],
        initial="add",
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and not (data.get("decklist") or "").strip() and not data.get("file"):
            raise forms.ValidationError("Paste a decklist or choose a file.")
        if data.get("mode") == "replace" and data.get("version") is None and not self.errors:
            # as the API's 428: a whole-list replacement names the version it replaces, so
            # changes made since (another tab, a co-owner) are never overwritten unseen
            raise forms.ValidationError(
                "Replacing the deck needs the version the page showed, and this request had "
                "none: reload the deck and paste again. Nothing was changed."
            )
        return data


class DeckCardAddForm(DeckVersionMixin):
    name = forms.CharField(max_length=200, label="Card name")
    quantity = forms.IntegerField(min_value=1, max_value=999, initial=1, required=False)
    zone = forms.CharField(required=False, max_length=20)


class DeckCardSetForm(DeckVersionMixin):
    """One line of the builder's list: ``change`` (+1 or -1, which commute with other writers'
    changes) or an absolute ``quantity`` (0 removes the card)."""

    card = forms.CharField(max_length=200)
    quantity = forms.IntegerField(min_value=0, max_value=999, required=False)
    change = forms.TypedChoiceField(
        choices=[("1", "one more"), ("-1", "one fewer")], coerce=int, required=False
    )
    zone = forms.CharField(required=False, max_length=20)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and (data.get("quantity") is None) == (data.get("change") in (None, "")):
            raise forms.ValidationError("Give either a quantity or a change of one copy.")
        return data


class DeckViewForm(forms.Form):
    """How the builder shows a deck: the list's grouping and order, and the day its legality is
    judged on. Carried in the page's URL (a plain GET) and sent along with every change."""

    group = forms.ChoiceField(required=False, label="Group by")
    sort = forms.ChoiceField(
        required=False, label="Sort by", choices=[("name", "Name"), ("cost", "Cost")]
    )
    as_of = forms.DateField(
        required=False,
        label="Legal on",
        help_text="Judge the deck against the format's lists of that day (default: today).",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own = "Zone" if rules_for(game.slug).zones else "Type"
        _choice_field(self, "group").choices = [
            ("", f"{own} (the game's own)"),
            *([("type", "Type")] if own == "Zone" else []),
            ("cost", "Cost"),
            ("branch", game.branch_label or "Branch"),
        ]

    def view(self) -> dict[str, Any]:
        """``group``, ``sort`` and ``as_of`` as the workspace takes them (defaults when invalid)."""
        data = self.cleaned_data if self.is_valid() else {}
        return {
            "group": data.get("group") or "",
            "sort": data.get("sort") or "name",
            "as_of": data.get("as_of"),
        }

    def query(self) -> str:
        """The choices as a query string (``?group=cost&sort=name``), empty when all are default."""
        view = self.view()
        query = QueryDict(mutable=True)
        if view["group"]:
            query["group"] = view["group"]
        if view["sort"] != "name":
            query["sort"] = view["sort"]
        if view["as_of"]:
            query["as_of"] = view["as_of"].isoformat()
        return f"?{query.urlencode()}" if query else ""


class DeckOddsForm(forms.Form):
    """The builder's calculator: at least ``at_least`` of the chosen cards by a turn, or in the
    first ``draws`` cards."""

    cards = forms.MultipleChoiceField(
        label="Any of these cards",
        widget=ManyOptionsSelectMultiple(attrs={"size": 6}),
        error_messages={"required": "Choose at least one card of the draw pile."},
    )
    at_least = forms.IntegerField(min_value=1, max_value=999, initial=1, label="At least")
    by = forms.ChoiceField(
        choices=[("turn", "by turn"), ("draws", "in the first N cards")],
        initial="turn",
        label="When",
        widget=forms.RadioSelect,
    )
    turn = forms.IntegerField(
        min_value=0, max_value=99, required=False, initial=3, label="Turn (0: opening hand)"
    )
    draws = forms.IntegerField(
        min_value=1, max_value=999, required=False, initial=10, label="Cards drawn (N)"
    )

    def __init__(self, *args: Any, names: list[str], game_slug: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_slug = game_slug
        _choice_field(self, "cards").choices = [(name, name) for name in names]
        if rules_for(game_slug).cards_seen(1) is None:
            _choice_field(self, "by").choices = [("draws", "in the first N cards")]
            self.fields["by"].initial = "draws"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        if data.get("by") == "turn":
            if data.get("turn") is None:
                raise forms.ValidationError("Give the turn.")
            seen = rules_for(self.game_slug).cards_seen(data["turn"])
            if seen is None:
                raise forms.ValidationError("This game has no fixed draws by turn: give N cards.")
        else:
            if data.get("draws") is None:
                raise forms.ValidationError("Give how many cards are drawn.")
            seen = data["draws"]
        data["seen"] = seen
        return data


class VersionCompareForm(forms.Form):
    a = forms.IntegerField(min_value=1, max_value=MAX_INT32, label="From version")
    b = forms.IntegerField(min_value=1, max_value=MAX_INT32, label="To version")


class TournamentCheckForm(forms.Form):
    format = forms.TypedChoiceField(choices=(), coerce=int, label="Format")
    as_of = forms.DateField(
        required=False,
        label="Judge on",
        help_text="The event date: every deck is judged on it. Left empty, a list with its own "
        "'# as_of:' line is judged on that date (marked in the results), the others today.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    decklists = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        label="Paste decklists",
        help_text="Separate decks with a line of three dashes (---). A '# name:' line names a deck.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "format").choices = _format_choices(None)

    def clean_format(self) -> Format:
        fmt = Format.objects.select_related("game").filter(pk=self.cleaned_data["format"]).first()
        if fmt is None:
            raise forms.ValidationError("Choose a format.")
        return fmt


class WallClockDateTimeField(forms.DateTimeField):
    """A date and time as typed, with no zone attached: the form's time zone says where it is."""

    def to_python(self, value: Any) -> dt.datetime | None:
        result = super().to_python(value)  # aware in UTC, the server's zone: the same wall clock
        return result.replace(tzinfo=None) if result is not None else None


class EventForm(forms.Form):
    """Create or change an event; the event services judge it (dates, format, what may change).

    The deadline is a wall-clock time in the chosen time zone, shown beside the box; on a new
    event ``static/js/event-time-zone.js`` preselects the browser's zone. Editing, ``event`` fills
    the form and fields outside ``changeable`` are disabled (their posted values are ignored).
    """

    name = forms.CharField(max_length=160)
    format = forms.TypedChoiceField(choices=(), coerce=int)
    date = forms.DateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The event day in its time zone; decks are judged on this day.",
    )
    time_zone = forms.ChoiceField(
        choices=(),
        widget=ManyOptionsSelect,
        required=False,  # a client that sends none gets UTC, as before zones existed
        initial=DEFAULT_TIME_ZONE,
        help_text="Where the event takes place: the day and the deadline are read in this zone.",
    )
    decklist_deadline = WallClockDateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    variant = forms.ChoiceField(
        choices=(),
        required=False,
        help_text="How the game is set up, where its rulebook has variants: one of the "
        "format's game.",
    )

    def __init__(
        self,
        *args: Any,
        event: Event | None = None,
        changeable: frozenset[str] | None = None,
        **kwargs: Any,
    ) -> None:
        if event is not None:
            zone = zoneinfo.ZoneInfo(event.time_zone)
            kwargs.setdefault(
                "initial",
                {
                    "name": event.name,
                    "format": event.format_id,
                    "date": event.date,
                    "time_zone": event.time_zone,
                    # to the minute, as the box shows it: an untouched box is no change
                    "decklist_deadline": event.decklist_deadline.astimezone(zone).replace(
                        tzinfo=None, second=0, microsecond=0
                    ),
                    "variant": event.variant,
                },
            )
        super().__init__(*args, **kwargs)
        _choice_field(self, "format").choices = _format_choices(None)
        _choice_field(self, "variant").choices = _variant_choices()
        _choice_field(self, "time_zone").choices = [(name, name) for name in time_zone_names()]
        for name, field in self.fields.items():
            if changeable is not None and name not in changeable:
                field.disabled = True
        zone_field = self.fields["time_zone"]
        zone_field.widget.attrs["data-time-zone"] = ""
        if not self.is_bound and event is None:
            zone_field.widget.attrs["data-detect"] = "1"
        self.fields["decklist_deadline"].help_text = format_html(
            "In <strong data-time-zone-label>{}</strong> time (the time zone above), stored in "
            "UTC. After this moment decklists are locked; it must be in the future and at the "
            "latest on the event day.",
            self.chosen_time_zone,
        )

    @property
    def chosen_time_zone(self) -> str:
        """The zone the deadline box is read in: as posted (if it is a known one), else the
        event's or the default."""
        field = self.fields["time_zone"]
        if self.is_bound and not field.disabled:
            posted = self.data.get(self.add_prefix("time_zone"), "")
            if posted in time_zone_names():
                return posted
        return self.get_initial_for_field(field, "time_zone") or DEFAULT_TIME_ZONE

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or DEFAULT_TIME_ZONE

    def clean_variant(self) -> str:
        return (self.cleaned_data.get("variant") or "").strip()

    def changes(self) -> dict[str, Any]:
        """What the organiser changed, as ``event_update`` arguments. The deadline box is
        wall-clock time in the zone beside it, so a new zone re-reads the box."""
        changed = set(self.changed_data)
        if "time_zone" in changed and not self.fields["decklist_deadline"].disabled:
            changed.add("decklist_deadline")
        return {name: self.cleaned_data[name] for name in self.fields if name in changed}

    def clean_format(self) -> Format:
        fmt = Format.objects.select_related("game").filter(pk=self.cleaned_data["format"]).first()
        if fmt is None:
            raise forms.ValidationError("Choose a format.")
        return fmt


class RegistrationForm(DecklistInputMixin):
    deck = forms.TypedChoiceField(
        choices=(),
        coerce=int,
        required=False,
        empty_value=None,
        label="Or submit one of your decks",
    )

    def __init__(self, *args: Any, decks: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice_field(self, "deck").choices = [("", "—")] + [(d.pk, d.name) for d in decks or []]
        self.fields["decklist"].label = "Decklist"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        has_text = (data.get("decklist") or "").strip() or data.get("file")
        if not self.errors and not has_text and not data.get("deck"):
            raise forms.ValidationError(
                "Paste a decklist, upload a file or choose one of your decks."
            )
        return data


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several uploaded files at once (Django's documented pattern)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data if item]
        return [single(data, initial)] if data else []


class TournamentFilesForm(TournamentCheckForm):
    # the form's metaclass moves declared fields out of the class, so this one never shadows
    # BaseForm.files (the uploads); django-stubs cannot tell
    files = MultipleFileField(  # type: ignore[assignment]
        required=False, label="Or upload decklist files"
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        texts = []
        for upload in data.get("files") or []:
            if upload.size > MAX_UPLOAD_BYTES:
                self.add_error("files", f"{upload.name} is larger than 512 KB.")
                continue
            try:
                texts.append((upload.name, upload.read().decode("utf-8-sig")))
            except UnicodeDecodeError:
                self.add_error("files", f"{upload.name} is not UTF-8 text.")
        data["file_texts"] = texts
        pasted = (data.get("decklists") or "").replace("-", "").strip()  # separators alone: none
        if not self.errors and not texts and not pasted:
            raise forms.ValidationError("Paste at least one decklist or upload files.")
        return data


class GoldfishForm(forms.Form):
    """Where a sample-hand walk stands (all in the URL, so a walk can be shared and replayed)."""

    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    mulligans = forms.IntegerField(min_value=0, max_value=6, required=False)
    kept = forms.BooleanField(required=False)
    turns = forms.IntegerField(min_value=0, max_value=40, required=False)


class TestHandsForm(forms.Form):
    """How many goldfish games to deal, from which seed, and the game's mulligan policy."""

    hands = forms.IntegerField(min_value=1, max_value=500, initial=100, label="Hands to deal")
    deal_seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1, label="Seed")
    policy = forms.ChoiceField(choices=(), label="Mulligan when")

    def __init__(self, *args: Any, policies: list[tuple[str, str]], **kwargs: Any) -> None:
        """``policies``: the game's (name, words) pairs, its default first."""
        super().__init__(*args, **kwargs)
        _choice_field(self, "policy").choices = policies
        self.fields["policy"].initial = policies[0][0] if policies else None


def _team_games() -> str:
    """The names of the co-operative games (a team plays one deck), for the form's words."""
    return " and ".join(plugin.name for plugin in plugins() if plugin.team_sizes) or "none"


def _many_deck_games() -> str:
    """The names of the games a matchup seats more than two decks in."""
    return " and ".join(plugin.name for plugin in plugins() if plugin.max_decks > 2) or "none"


def _team_sizes() -> list[int]:
    """Every team size a co-operative game offers."""
    return sorted({size for plugin in plugins() for size in plugin.team_sizes}) or [2]


def deck_label(deck: Any) -> str:
    """A deck in a list of choices: its name, its game and its owner."""
    return f"{deck.name} ({deck.game.name}, {deck.owner})"


class SharedRowsIterator(ModelChoiceIterator):
    """A model select's choices from rows its form fetched once for all its selects (the matchup
    form's four deck selects list the same decks: one query rather than four), or from the
    field's own queryset where the form shared none or gave the field another queryset since."""

    def _rows(self) -> Callable[[], list[Any]] | None:
        shared = getattr(self.field, "shared_rows", None)
        if shared is None or shared[0] is not self.field.queryset:
            return None
        rows: Callable[[], list[Any]] = shared[1]
        return rows

    def __iter__(self) -> Iterator[Any]:
        rows = self._rows()
        if rows is None:
            yield from super().__iter__()
            return
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        for row in rows():
            yield self.choice(row)

    def __len__(self) -> int:
        rows = self._rows()
        if rows is None:
            return super().__len__()
        return len(rows()) + (self.field.empty_label is not None)


def share_rows(form: forms.BaseForm, names: Iterable[str], queryset: QuerySet[Any]) -> None:
    """Give the form's model choice fields ``names`` the ``queryset``, its rows fetched once (at
    the first select rendered) for all of them. A posted value is still checked against the
    queryset itself; a field given another queryset afterwards lists that one."""
    rows = cache(lambda: list(queryset))
    for name in names:
        field = _model_field(form, name)
        field.queryset = queryset
        # with the field's own copy of the queryset: a later assignment replaces that copy
        setattr(field, "shared_rows", (field.queryset, rows))  # noqa: B010 (SharedRowsIterator)


class DeckChoiceField(forms.ModelChoiceField):
    """One deck, labelled with :func:`deck_label`."""

    iterator = SharedRowsIterator

    def label_from_instance(self, obj: Any) -> str:
        return deck_label(obj)


class GameDeckSelect(forms.Select):
    """A deck select whose options carry their deck's game (``data-game``), so the page's script
    can offer only the agents of that game."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        deck = getattr(value, "instance", None)
        if deck is not None:
            option["attrs"]["data-game"] = deck.game.slug
        return option


class AgentSelect(forms.Select):
    """An agent select whose options carry the games that offer them (``data-games``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games: dict[str, list[str]] = {}

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        option["attrs"]["data-games"] = " ".join(self.games.get(str(value), []))
        return option


class MatchupForm(forms.Form):
    deck_a = DeckChoiceField(queryset=None, label="Deck A", widget=GameDeckSelect)
    agent_a = forms.ChoiceField(choices=(), label="Deck A played by", widget=AgentSelect)
    deck_b = DeckChoiceField(queryset=None, label="Deck B", required=False, widget=GameDeckSelect)
    agent_b = forms.ChoiceField(
        choices=(), label="Deck B played by", widget=AgentSelect, required=False
    )
    deck_c = DeckChoiceField(queryset=None, label="Deck C", required=False, widget=GameDeckSelect)
    agent_c = forms.ChoiceField(
        choices=(), label="Deck C played by", widget=AgentSelect, required=False
    )
    deck_d = DeckChoiceField(queryset=None, label="Deck D", required=False, widget=GameDeckSelect)
    agent_d = forms.ChoiceField(
        choices=(), label="Deck D played by", widget=AgentSelect, required=False
    )
    players = forms.TypedChoiceField(
        choices=(),
        coerce=int,
        initial=2,
        required=False,
        # Django takes any empty value; django-stubs type it as str | None
        empty_value=2,  # type: ignore[arg-type]
    )
    fixed_seats = forms.BooleanField(
        required=False,
        label="Fixed seats",
        help_text="Keep deck A in the first seat (moving first) in every game. By default the "
        "seats rotate: game k puts the deck k places on in the first seat, so every deck sits in "
        "every seat, and moves first, equally often.",
    )
    games = forms.IntegerField(min_value=1, max_value=200, initial=20)
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1)

    DECKS = ("deck_a", "deck_b", "deck_c", "deck_d")
    AGENTS = ("agent_a", "agent_b", "agent_c", "agent_d")

    def __init__(
        self,
        *args: Any,
        decks: Any,
        agents: dict[str, str],
        offers: dict[str, list[str]] | None = None,
        **kwargs: Any,
    ) -> None:
        """``agents``: every agent any game offers, with its label; ``offers``: per game slug,
        the agents its plugin offers (its default first). An agent the chosen deck's game does
        not offer is a form error."""
        super().__init__(*args, **kwargs)
        self.offers = offers or {}
        # the co-operative games are named from their plugins, so a new one needs no edit here
        team = _team_games()
        many = _many_deck_games()
        self.fields["deck_a"].help_text = (
            f"For {team}, the team's starting deck (every player's, unless you pick decks B to "
            "D for the others)."
        )
        deck_b = _model_field(self, "deck_b")
        deck_b.empty_label = f"None ({team} with one deck)"
        deck_b.help_text = f"The opponent's deck, of the same game; for {team}, a second player."
        for name in ("deck_c", "deck_d"):
            _model_field(self, name).empty_label = "None"
            self.fields[name].help_text = f"Only for {many}: one more player."
        _choice_field(self, "players").choices = [(n, str(n)) for n in _team_sizes()]
        self.fields["players"].label = f"Team size ({team})"
        self.fields["players"].help_text = (
            f"{team} is played together: with deck A alone, every player of the team starts "
            "with deck A and is played by deck A's agent; with more decks, the team is one "
            "player per deck, each played by its deck's agent. The result is the team's win rate."
        )
        share_rows(self, self.DECKS, decks)
        games: dict[str, list[str]] = {}
        for slug, names in self.offers.items():
            for agent in names:
                games.setdefault(agent, []).append(slug)
        for name in self.AGENTS:
            _choice_field(self, name).choices = list(agents.items())
            self.fields[name].widget.games = games
            self.fields[name].help_text = "Each game offers its own agents (listed above)."

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        a = data.get("deck_a")
        if a is None:
            return data
        plugin = find_plugin(a.game.slug)
        picked = [field for field in self.DECKS if data.get(field) is not None]
        if picked != list(self.DECKS[: len(picked)]):
            raise forms.ValidationError("Pick the decks in order: deck B before C, C before D.")
        decks = [data[field] for field in picked]
        if any(deck.game_id != a.game_id for deck in decks):
            raise forms.ValidationError("All the decks must be of the same game.")
        if plugin is None:
            return data
        if len(decks) > plugin.max_decks:
            most = "one deck" if plugin.max_decks == 1 else f"at most {plugin.max_decks} decks"
            raise forms.ValidationError(f"{plugin.name} is played by {most}, not {len(decks)}.")
        if len(decks) < plugin.min_decks:
            self.add_error("deck_b", f"{a.game.name} is played by two decks: pick deck B.")
        for field in self.AGENTS[: len(decks)]:
            if not data.get(field):
                data[field] = plugin.matchup_agents[0]
        agents = [data.get(field, "") for field in self.AGENTS[: len(decks)]]
        self._check_agents(plugin, data, len(decks))  # an agent refused leaves cleaned_data
        data["decks"] = decks
        data["agents"] = agents
        return data

    def _check_agents(self, plugin: Any, data: dict[str, Any], decks: int) -> None:
        """Refuse an agent the game's plugin does not offer (the agents of the decks picked)."""
        from rules.matchups import agents_refused

        for field in self.AGENTS[:decks]:
            name = data.get(field)
            if name and name not in plugin.matchup_agents:
                self.add_error(field, agents_refused(plugin, name))


class GameDeckCheckboxes(forms.CheckboxSelectMultiple):
    """Deck checkboxes whose options carry their deck's game (``data-game``), so the page's
    script can show only the decks of the game chosen."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        deck = getattr(value, "instance", None)
        if deck is not None:
            option["attrs"]["data-game"] = deck.game.slug
        return option


class DeckIdsField(forms.ModelMultipleChoiceField):
    """Decks by id; an id that is not a whole number from 1 to ``MAX_ID`` is refused before the
    database is asked (SQLite cannot hold a larger integer). Each deck is labelled with its name,
    its game (unless ``with_game`` is false) and its owner."""

    iterator = SharedRowsIterator

    def __init__(self, *args: Any, with_game: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.with_game = with_game

    def label_from_instance(self, obj: Any) -> str:
        return deck_label(obj) if self.with_game else f"{obj.name} ({obj.owner})"

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            text = str(pk).strip()
            digits = text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ID))
            if not digits or not 1 <= int(text) <= MAX_ID:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": text[:40]},
                )
        # django-stubs leave out ModelMultipleChoiceField's private _check_values
        return super()._check_values(value)  # type: ignore[misc]


#: the planner's parameter names (``SimulationJobError.field``) that this form calls otherwise
JOB_FIELDS = {"agents": "agent", "games": "games_per_pairing", "chunk_size": "games_per_pairing"}


class SimulationForm(forms.Form):
    """A simulation job: its kind (metagame, gauntlet or matchup), a game, its decks (and a
    gauntlet's own deck), one agent for every deck, games a pairing, a seed, the meta shares
    and a co-operative game's team size (the last three optional)."""

    KINDS = (
        ("metagame", "Metagame: every pair of the decks"),
        ("gauntlet", "Gauntlet: one deck against each of the decks"),
        ("matchup", "Matchup: the decks at one table"),
    )

    kind = forms.ChoiceField(
        choices=KINDS,
        required=False,
        label="Kind of job",
        help_text="Empty means a metagame.",
    )
    hero = DeckChoiceField(
        queryset=None,
        required=False,
        label="Gauntlet: your deck",
        widget=GameDeckSelect,
        help_text="The deck a gauntlet plays against each deck ticked below.",
    )
    game = forms.ChoiceField(choices=(), label="Game")
    decks = DeckIdsField(
        queryset=None,
        label="Decks",
        widget=GameDeckCheckboxes,
        help_text="Yours and public ones. A metagame: 2 to 16, every pair of them plays; a "
        "gauntlet: its opponents (its partners in a co-operative game); a matchup: one table.",
    )
    agent = forms.ChoiceField(
        choices=(),
        label="Every deck played by",
        widget=AgentSelect,
        help_text="Each game offers its own agents; random agents play many games a second.",
    )
    games_per_pairing = forms.IntegerField(
        min_value=1,
        max_value=1000,
        initial=10,
        label="Games a pairing",
        help_text="Even for a metagame and a gauntlet: each deck of a pair sits in each seat "
        "equally often. A matchup plays this many games.",
    )
    seed = forms.IntegerField(
        min_value=0,
        max_value=MAX_INT32,
        required=False,
        label="Seed (optional)",
        help_text="The same seed plays the same games again; empty picks one at random.",
    )
    meta_shares = forms.CharField(
        required=False,
        max_length=400,
        label="Meta shares (optional)",
        help_text="How common each deck is in the field, one number per deck in the order the "
        "decks are listed above, separated by commas (e.g. 30, 50, 20); for a gauntlet one per "
        "opponent; empty weighs every deck the same.",
    )
    players = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=8,
        label="Co-operative games: team size (optional)",
        help_text="A co-operative metagame plays each deck's own team of this many (default 2); "
        "a one-deck matchup seats this many.",
    )

    def __init__(self, *args: Any, decks: Any, games: list[tuple[str, str]], **kwargs: Any) -> None:
        """``decks``: the decks the visitor may pick; ``games``: (slug, name) of every game
        with a metagame."""
        super().__init__(*args, **kwargs)
        _choice_field(self, "game").choices = games
        share_rows(self, ("decks", "hero"), decks)
        offers = {plugin.slug: list(plugin.matchup_agents) for plugin in plugins()}
        wanted = {slug for slug, _ in games}
        from rules.matchups import agent_label

        names = dict.fromkeys(n for slug, ns in offers.items() if slug in wanted for n in ns)
        _choice_field(self, "agent").choices = [(name, agent_label(name)) for name in names]
        by_agent: dict[str, list[str]] = {}
        for slug, agents in offers.items():
            for agent in agents:
                by_agent.setdefault(agent, []).append(slug)
        self.fields["agent"].widget.games = by_agent
        self.offers = offers

    def clean_kind(self) -> str:
        return self.cleaned_data.get("kind") or "metagame"

    def clean_meta_shares(self) -> list[float]:
        text = self.cleaned_data.get("meta_shares", "").strip()
        if not text:
            return []
        try:
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError as error:
            raise forms.ValidationError(
                "Write the meta shares as numbers separated by commas, e.g. 30, 50, 20."
            ) from error

    def clean(self) -> dict[str, Any]:
        """What only this form knows: the decks are of the game picked, and a gauntlet's own
        deck. Every rule of the job itself (how many decks, even games, agents, meta shares) is
        the planner's and ``simulation_job_start``'s: the view puts their refusals beside the
        field they name (``SimulationJobError.field``)."""
        super().clean()
        data = self.cleaned_data
        slug = data.get("game")
        plugin = find_plugin(slug) if slug else None
        decks = list(data.get("decks") or [])
        if plugin is None:
            return data
        others = [deck for deck in decks if deck.game.slug != slug]
        if others:
            self.add_error(
                "decks",
                f"Pick decks of {plugin.name} only: {others[0].name} is a "
                f"{others[0].game.name} deck.",
            )
        if (data.get("kind") or "metagame") == "gauntlet":
            hero = data.get("hero")
            if hero is None:
                self.add_error("hero", "Pick the deck the gauntlet plays against the others.")
            elif hero.game.slug != slug:
                self.add_error("hero", f"Pick a deck of {plugin.name}: {hero.name} is not one.")
            else:
                data["decks"] = [hero, *(deck for deck in decks if deck.pk != hero.pk)]
        return data

    def job_error(self, error: Exception) -> None:
        """Put a refusal of the planner or of ``simulation_job_start`` beside the field it names
        (its ``field``, in this form's names), else beside the decks."""
        field = JOB_FIELDS.get(getattr(error, "field", ""), getattr(error, "field", ""))
        self.add_error(field if field in self.fields else "decks", str(error))


class DoctorForm(forms.Form):
    """A deck doctor job for one deck: its gauntlet (decks of its game), the agent of every
    seat, the first round's games, the swaps raced and a seed."""

    gauntlet = DeckIdsField(
        queryset=None,
        with_game=False,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Gauntlet",
        help_text="Up to 8 decks of the game to beat (yours and public ones); in a co-operative "
        "game, team-mates (none: the deck plays alone with a team of two).",
    )
    agent = forms.ChoiceField(choices=(), label="Every seat played by")
    games = forms.IntegerField(
        min_value=1,
        max_value=100,
        initial=4,
        label="Games in the first round",
        help_text="Games each swap plays against each gauntlet deck in the first round; each "
        "round doubles them for the better half of the swaps.",
    )
    swaps = forms.IntegerField(min_value=1, max_value=64, initial=16, label="Swaps raced at most")
    seed = forms.IntegerField(
        min_value=0,
        max_value=MAX_INT32,
        required=False,
        label="Seed (optional)",
        help_text="The same seed picks and plays the same swaps again.",
    )

    def __init__(self, *args: Any, gauntlet: Any, agents: list[tuple[str, str]], **kwargs: Any):
        """``gauntlet``: the decks the visitor may pick; ``agents``: the game's (name, label)."""
        super().__init__(*args, **kwargs)
        _model_field(self, "gauntlet").queryset = gauntlet
        _choice_field(self, "agent").choices = agents
