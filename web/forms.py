"""Forms of the pages. They parse and check input; the services do the writing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.files.uploadedfile import UploadedFile

from cards.models import Branch, CardSet, CardType, Game, Rarity
from decks.decklist import guess_kind
from decks.models import Format, Visibility
from decks.validation import rules_for
from deckwright.inputs import MAX_INT32

MAX_UPLOAD_BYTES = 512 * 1024
KIND_CHOICES = [
    ("auto", "Detect"),
    ("text", "Text"),
    ("json", "JSON"),
    ("csv", "CSV"),
]


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text="Used only to reset your password if you forget it."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _format_choices(empty: str | None) -> list[Any]:
    choices: list[Any] = [("", empty)] if empty is not None else []
    grouped: dict[str, list[tuple[int, str]]] = {}
    for fmt in Format.objects.select_related("game").order_by("game__sort_order", "-is_default"):
        grouped.setdefault(fmt.game.name, []).append((fmt.pk, fmt.name))
    choices.extend(grouped.items())
    return choices


class CardBrowserForm(forms.Form):
    """The card browser's search box, filters, sort and view (all optional, all GET)."""

    q = forms.CharField(
        required=False,
        max_length=1000,
        label="Search",
        help_text='Query language, e.g. t:attack b:eagle ip<=3 or "draw 1 card".',
    )
    game = forms.ModelChoiceField(
        Game.objects.order_by("sort_order", "name"),
        required=False,
        to_field_name="slug",
        empty_label="All games",
    )
    type = forms.ModelChoiceField(CardType.objects.all(), required=False, empty_label="Any type")
    branch = forms.ModelChoiceField(Branch.objects.all(), required=False, empty_label="Any")
    rarity = forms.ModelChoiceField(Rarity.objects.all(), required=False, empty_label="Any rarity")
    set = forms.ModelChoiceField(CardSet.objects.all(), required=False, empty_label="Any set")
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


class DecklistInputMixin(forms.Form):
    """A pasted decklist or an uploaded file, in text, JSON or CSV."""

    decklist = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        label="Decklist",
        help_text="One card a line, e.g. 2 Eagle Dive. JSON and CSV work too.",
    )
    file = forms.FileField(required=False, label="Or upload a file (.txt, .json, .csv)")
    kind = forms.ChoiceField(choices=KIND_CHOICES, required=False, initial="auto", label="Format")

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


class DeckCreateForm(DecklistInputMixin):
    name = forms.CharField(max_length=120)
    game = forms.ModelChoiceField(
        Game.objects.order_by("sort_order", "name"), to_field_name="slug", empty_label=None
    )
    format = forms.TypedChoiceField(
        choices=(), required=False, coerce=int, empty_value=None, label="Format"
    )
    variant = forms.CharField(
        required=False,
        max_length=40,
        help_text="Only for games with variants (Regality vs Religion).",
    )
    visibility = forms.ChoiceField(choices=Visibility.choices, initial=Visibility.PRIVATE)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    field_order = ["name", "game", "format", "variant", "visibility", "description"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = _format_choices("No format (construction rules only)")
        self.fields["decklist"].required = False
        self.fields["decklist"].label = "Start from a decklist (optional)"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game: Game | None = data.get("game")
        format_id = data.get("format")
        data["format_obj"] = None
        if game is not None and format_id:
            fmt = Format.objects.filter(pk=format_id).first()
            if fmt is None or fmt.game_id != game.pk:
                self.add_error("format", f"Choose a format of {game.name}.")
            else:
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


class DeckSettingsForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    format = forms.TypedChoiceField(choices=(), required=False, coerce=int, empty_value=None)
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        help_text="Public decks are listed; unlisted ones open only by link; private ones only for you.",
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["format"].choices = [("", "No format")] + [
            (f.pk, f.name) for f in Format.objects.filter(game=game).order_by("-is_default", "name")
        ]

    def clean_format(self) -> Format | None:
        format_id = self.cleaned_data.get("format")
        if not format_id:
            return None
        fmt = Format.objects.filter(pk=format_id, game=self.game).first()
        if fmt is None:
            raise forms.ValidationError(f"Choose a format of {self.game.name}.")
        return fmt


class DeckPasteForm(DecklistInputMixin):
    mode = forms.ChoiceField(
        choices=[("add", "Add to the deck"), ("replace", "Replace the deck")],
        initial="add",
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and not (data.get("decklist") or "").strip() and not data.get("file"):
            raise forms.ValidationError("Paste a decklist or choose a file.")
        return data


class DeckCardAddForm(forms.Form):
    name = forms.CharField(max_length=200, label="Card name")
    quantity = forms.IntegerField(min_value=1, max_value=999, initial=1, required=False)
    zone = forms.CharField(required=False, max_length=20)


class DeckCardSetForm(forms.Form):
    card = forms.CharField(max_length=200)
    quantity = forms.IntegerField(min_value=0, max_value=999)
    zone = forms.CharField(required=False, max_length=20)


class VersionCompareForm(forms.Form):
    a = forms.IntegerField(min_value=1, max_value=MAX_INT32, label="From version")
    b = forms.IntegerField(min_value=1, max_value=MAX_INT32, label="To version")


class TournamentCheckForm(forms.Form):
    format = forms.TypedChoiceField(choices=(), coerce=int, label="Format")
    as_of = forms.DateField(
        required=False,
        label="Judge on",
        help_text="The event date (default: today).",
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
        self.fields["format"].choices = _format_choices(None)

    def clean_format(self) -> Format:
        fmt = Format.objects.select_related("game").filter(pk=self.cleaned_data["format"]).first()
        if fmt is None:
            raise forms.ValidationError("Choose a format.")
        return fmt


class EventCreateForm(forms.Form):
    name = forms.CharField(max_length=160)
    format = forms.TypedChoiceField(choices=(), coerce=int)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    decklist_deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text="After this moment (UTC) decklists are locked.",
    )
    variant = forms.CharField(required=False, max_length=40)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = _format_choices(None)

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
        self.fields["deck"].choices = [("", "—")] + [(d.pk, d.name) for d in decks or []]
        self.fields["decklist"].label = "Decklist"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
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
    files = MultipleFileField(required=False, label="Or upload decklist files")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
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
        if not self.errors and not texts and not (data.get("decklists") or "").strip():
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
        self.fields["policy"].choices = policies
        self.fields["policy"].initial = policies[0][0] if policies else None


class MatchupForm(forms.Form):
    deck_a = forms.ModelChoiceField(
        queryset=None,
        label="Deck A (moves first)",
        help_text="For Reggae Revolution, the team's starting deck.",
    )
    agent_a = forms.ChoiceField(choices=(), label="Deck A played by")
    deck_b = forms.ModelChoiceField(
        queryset=None,
        label="Deck B",
        required=False,
        empty_label="None (Reggae Revolution)",
        help_text="The opponent's deck, of the same game. Not used for Reggae Revolution.",
    )
    agent_b = forms.ChoiceField(choices=(), label="Deck B played by")
    players = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in (1, 2, 3, 4)],
        coerce=int,
        initial=2,
        required=False,
        empty_value=2,
        label="Team size (Reggae Revolution)",
        help_text="Reggae Revolution is played together: every player of the team starts with "
        "deck A and is played by deck A's agent; the result is the team's win rate.",
    )
    games = forms.IntegerField(min_value=1, max_value=200, initial=20)
    seed = forms.IntegerField(min_value=0, max_value=2**31 - 1, initial=1)

    def __init__(self, *args: Any, decks: Any, agents: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("deck_a", "deck_b"):
            self.fields[name].queryset = decks
            self.fields[name].label_from_instance = lambda d: f"{d.name} ({d.game.name}, {d.owner})"
        for name in ("agent_a", "agent_b"):
            self.fields[name].choices = list(agents.items())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        a, b = data.get("deck_a"), data.get("deck_b")
        if a is None:
            return data
        if a.game.slug == "reggae-revolution":
            data["deck_b"] = None
            return data
        if b is None:
            self.add_error("deck_b", f"{a.game.name} is played by two decks: pick deck B.")
        elif a.game_id != b.game_id:
            raise forms.ValidationError("Both decks must be of the same game.")
        return data
