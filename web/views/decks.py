"""Deck pages: lists, create, the builder (live validation and statistics), import/export, clone,
settings and version history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST, require_safe

from accounts.users import signed_in
from cards.selectors import card_autocomplete
from common.inputs import ParameterError, bounded_int
from decks.decklist import EXPORT_TYPES, DecklistParseError, decklist_read, decklist_settings
from decks.models import Deck, DeckVersion
from decks.selectors import (
    CustomOdds,
    DeckChanges,
    DeckWorkspace,
    deck_changes_since,
    deck_custom_odds,
    deck_export,
    deck_for_change,
    deck_for_viewer,
    deck_list_owned,
    deck_list_public,
    deck_owned_by,
    deck_version_diff,
    deck_versions,
    deck_workspace,
    deck_zones,
)
from decks.services import (
    DeckBusyError,
    DeckError,
    DeckPermissionError,
    DeckVersionConflict,
    deck_card_add,
    deck_card_remove,
    deck_card_set,
    deck_cards_add,
    deck_cards_replace,
    deck_clone,
    deck_create,
    deck_delete,
    deck_details_update,
    deck_revert,
)
from decks.validation import rules_for
from web.charts import bar_chart, integer_points
from web.forms import (
    DeckCardAddForm,
    DeckCardSetForm,
    DeckCreateForm,
    DeckOddsForm,
    DeckPasteForm,
    DeckSettingsForm,
    DeckViewForm,
    VersionCompareForm,
)
from web.testhands import test_hands_available
from web.views import HtmxHttpRequest
from web.views.playtest import playtest_available

UNPROCESSABLE = 422
CONFLICT = 409
BUSY = 503


def _problems(error: Exception) -> list[str]:
    if isinstance(error, DecklistParseError):
        return [str(problem) for problem in error.problems]
    if isinstance(error, DeckError):
        return list(error.problems)
    return [str(error)]


def _owned_deck(request: HtmxHttpRequest, pk: int) -> Deck:
    """The deck the signed-in user is changing. A deck they may not see is a 404, so a private
    deck's existence stays hidden; one they may see but do not own (public, unlisted) is a 403
    saying so, as the API answers."""
    try:
        return deck_for_change(request.user, pk)
    except DeckPermissionError as error:
        raise PermissionDenied(str(error)) from None


def _changes_by_others(deck: Deck, opened: int | None) -> DeckChanges | None:
    """After a write that only added or removed copies: what others saved between the version the
    page showed and ours (our write is the deck's latest version), or None if nobody did."""
    if opened is None or opened >= deck.version - 1:
        return None
    return deck_changes_since(deck, opened, until=deck.version - 1)


def _view_form(request: HtmxHttpRequest, deck: Deck) -> DeckViewForm:
    """The list's grouping and order and the legality date: from the URL on a page, from the
    fields htmx sends along (``hx-include``) with a change."""
    data = request.GET if request.method == "GET" else request.POST
    return DeckViewForm(data, game=deck.game)


def _odds_form(
    deck: Deck, workspace: DeckWorkspace, data: Any = None
) -> tuple[DeckOddsForm, CustomOdds | None]:
    """The calculator's form over the deck's draw pile, and its answer when ``data`` is valid."""
    names = sorted({card.name for card, _ in workspace.stats.stats.draw_pile}, key=str.casefold)
    form = DeckOddsForm(data, names=names, game_slug=deck.game.slug)
    if data is None or not form.is_valid():
        return form, None
    answer = deck_custom_odds(
        workspace.stats.stats,
        names=form.cleaned_data["cards"],
        at_least=form.cleaned_data["at_least"],
        seen=form.cleaned_data["seen"],
    )
    return form, answer


def _workspace_context(
    request: HtmxHttpRequest,
    deck: Deck,
    *,
    errors: list[str] | None = None,
    conflict: DeckChanges | None = None,
    notice: DeckChanges | None = None,
    odds_data: Any = None,
) -> dict[str, Any]:
    view_form = _view_form(request, deck)
    workspace = deck_workspace(deck, **view_form.view())
    cost_label = workspace.stats.cost_label
    chart = (
        bar_chart(
            integer_points(dict(workspace.stats.curve)),
            title="Cost curve",
            x_label=cost_label,
            y_label="Cards",
            numeric=True,
        )
        if cost_label is not None
        else None
    )
    odds_form, odds_answer = _odds_form(deck, workspace, odds_data)
    return {
        "deck": deck,
        "workspace": workspace,
        "curve_chart": chart,
        "errors": errors or [],
        "conflict": conflict,
        "notice": notice,
        "zones": deck_zones(deck.game),
        "view_form": view_form,
        "odds_form": odds_form,
        "odds_answer": odds_answer,
    }


def _workspace_response(
    request: HtmxHttpRequest,
    deck: Deck,
    *,
    errors: list[str] | None = None,
    conflict: DeckChanges | None = None,
    notice: DeckChanges | None = None,
    status: int | None = None,
    **extra: Any,
) -> HttpResponse:
    """After a change: the live panels for htmx, else back to the deck page (or the page with
    the errors and the user's input when something was refused)."""
    if status is None:
        status = CONFLICT if conflict else UNPROCESSABLE if errors else 200
    if request.htmx:
        context = {
            **_workspace_context(request, deck, errors=errors, conflict=conflict, notice=notice),
            "is_owner": True,
        }
        response = render(request, "web/_deck_workspace.html", context, status=status)
        if status == 200:
            response["HX-Trigger"] = "deck-changed"
        return response
    if status != 200:
        return _deck_page(request, deck, errors=errors, conflict=conflict, status=status, **extra)
    if notice is not None:
        messages.info(request, _notice_text(notice))
    return redirect(reverse("deck-detail", args=[deck.pk]) + _view_form(request, deck).query())


def _notice_text(notice: DeckChanges) -> str:
    saves = len(notice.saves)
    return (
        f"This deck changed since you opened it (version {notice.since}): it was saved "
        f"{saves} more time{'s' if saves != 1 else ''} elsewhere. Your change was made on top "
        "of those; see the version history for what they were."
    )


def _refused(
    request: HtmxHttpRequest, pk: int, error: Exception, *, conflict_since: int | None, **extra: Any
) -> HttpResponse:
    """A write that changed nothing: a version conflict (409, with what changed since the version
    the page showed and the current list), a busy database (503) or an invalid change (422)."""
    deck = _owned_deck(request, pk)  # re-read: the deck may have changed under us
    if isinstance(error, DeckVersionConflict) and conflict_since is not None:
        conflict = deck_changes_since(deck, conflict_since)
        return _workspace_response(request, deck, conflict=conflict, status=CONFLICT, **extra)
    if isinstance(error, DeckBusyError):
        return _workspace_response(request, deck, errors=[str(error)], status=BUSY, **extra)
    return _workspace_response(request, deck, errors=_problems(error), **extra)


def _deck_page(
    request: HtmxHttpRequest,
    deck: Deck,
    *,
    errors: list[str] | None = None,
    conflict: DeckChanges | None = None,
    status: int = 200,
    paste_form: DeckPasteForm | None = None,
    add_form: DeckCardAddForm | None = None,
    settings_form: DeckSettingsForm | None = None,
    odds_data: Any = None,
) -> HttpResponse:
    context = _workspace_context(
        request, deck, errors=errors, conflict=conflict, odds_data=odds_data
    )
    if context["view_form"].errors or context["odds_form"].errors:
        status = max(status, 400)
    context.update(
        is_owner=deck_owned_by(deck, request.user),
        has_test_hands=test_hands_available(deck.game.slug),
        has_playtest=playtest_available(deck.game.slug),
        paste_form=paste_form or DeckPasteForm(),
        add_form=add_form or DeckCardAddForm(),
        settings_form=settings_form
        or DeckSettingsForm(
            game=deck.game,
            initial={
                "name": deck.name,
                "description": deck.description,
                "format": deck.format_id or "",
                "variant": deck.variant or rules_for(deck.game.slug).default_variant,
                "visibility": deck.visibility,
            },
        ),
    )
    return render(request, "web/deck_detail.html", context, status=status)


@require_safe
def deck_list_public_view(request: HtmxHttpRequest) -> HttpResponse:
    decks = deck_list_public()[:200]
    return render(request, "web/deck_list.html", {"decks": decks, "title": "Public decks"})


@login_required
@require_safe
def deck_list_mine(request: HtmxHttpRequest) -> HttpResponse:
    decks = deck_list_owned(signed_in(request.user))
    return render(
        request, "web/deck_list.html", {"decks": decks, "title": "My decks", "mine": True}
    )


@login_required
def deck_new(request: HtmxHttpRequest) -> HttpResponse:
    """Create a deck for a game and format, empty or from a decklist.

    ``?game=<slug>`` picks the game the form opens with; asked by htmx (the game select changed),
    the answer is only the fields that follow the game: its formats and variants."""
    form = DeckCreateForm(
        request.POST or None, request.FILES or None, game=request.GET.get("game", "")[:40]
    )
    if request.method == "GET" and request.htmx:
        return render(request, "web/_deck_game_fields.html", {"form": form})
    errors: list[str] = []
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        text, kind = form.decklist_text()
        game = form.cleaned_data["game"]
        fmt, variant = form.cleaned_data["format_obj"], form.cleaned_data["variant"]
        try:
            parsed = decklist_read(text, kind)  # type: ignore[arg-type]
            own = decklist_settings(parsed, game.slug)
            # a format or variant left as the form offered it gives way to the decklist's own
            # (# format:, # variant:), which deck_create reads when it is given none
            if own.format and "format" not in form.changed_data:
                fmt = None
            if own.variant and "variant" not in form.changed_data:
                variant = ""
            deck = deck_create(
                owner=request.user,
                game=game,
                name=form.cleaned_data["name"],
                decklist=parsed,
                format=fmt,
                description=form.cleaned_data.get("description") or "",
                visibility=form.cleaned_data["visibility"],
                variant=variant,
            )
        except DeckBusyError as error:
            errors, status = [str(error)], BUSY
        except (DecklistParseError, DeckError) as error:
            form.add_decklist_problems(_problems(error), getattr(error, "field_of", None))
        else:
            return redirect("deck-detail", pk=deck.pk)
    return render(
        request,
        "web/deck_new.html",
        {"form": form, "errors": errors},
        status=status,
    )


@require_safe
def deck_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The deck page: the builder for its owner, a read-only view for everyone else."""
    return _deck_page(request, deck_for_viewer(request.user, pk))


@require_safe
def deck_workspace_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The live panels alone (list, validation, statistics)."""
    deck = deck_for_viewer(request.user, pk)
    context = _workspace_context(request, deck)
    context["is_owner"] = deck_owned_by(deck, request.user)
    status = 400 if context["view_form"].errors else 200
    return render(request, "web/_deck_workspace.html", context, status=status)


@require_safe
def deck_odds_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The calculator: the chance of at least k of the chosen cards by a turn or in the first N
    cards; the answer alone for htmx, else the deck page with it."""
    deck = deck_for_viewer(request.user, pk)
    asked = any(key in request.GET for key in DeckOddsForm.base_fields)  # else nothing asked yet
    if not request.htmx:
        # without a question (a bookmark, a shared link) the page with the calculator to fill
        return _deck_page(request, deck, odds_data=request.GET if asked else None)
    context = _workspace_context(request, deck, odds_data=request.GET)
    status = 400 if context["odds_form"].errors else 200
    return render(request, "web/_deck_odds_answer.html", context, status=status)


@require_safe
def deck_card_suggest(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Autocomplete: cards of the deck's game whose names start with (then contain) the text."""
    deck = deck_for_viewer(request.user, pk)
    text = request.GET.get("name", "")[:200]
    cards = card_autocomplete(text, game=deck.game, limit=10) if text.strip() else []
    return render(request, "web/_card_suggestions.html", {"cards": cards, "text": text})


def _form_errors(form: Any) -> list[str]:
    """Each error of ``form`` after the words of its field (its label, "Quantity"), not the
    field's name in code; an error of the whole form alone."""

    def words(field: str) -> str:
        return str(form[field].label) if field in form.fields else ""

    return [
        f"{words(field)}: {message}" if words(field) else str(message)
        for field, messages in form.errors.items()
        for message in messages
    ]


@login_required
@require_POST
def deck_card_add_view(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    """Add copies of a card. Adds commute, so one made from an older page still counts; the
    answer then says the deck had changed meanwhile."""
    deck = _owned_deck(request, pk)
    form = DeckCardAddForm(request.POST)
    if not form.is_valid():
        return _workspace_response(request, deck, errors=_form_errors(form), add_form=form)
    try:
        deck = deck_card_add(
            deck=deck,
            card=form.cleaned_data["name"],
            quantity=form.cleaned_data.get("quantity") or 1,
            zone=form.cleaned_data.get("zone") or "",
            actor=request.user,
        )
    except (DeckError, DeckBusyError) as error:
        return _refused(request, pk, error, conflict_since=None, add_form=form)
    notice = _changes_by_others(deck, form.cleaned_data.get("version"))
    return _workspace_response(request, deck, notice=notice)


@login_required
@require_POST
def deck_card_set_view(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    """One line of the list: +1 / -1 (commute, like adds) or an absolute count (0 removes the
    card), which is refused with a 409 when the deck changed since the page was loaded."""
    deck = _owned_deck(request, pk)
    form = DeckCardSetForm(request.POST)
    if not form.is_valid():
        return _workspace_response(request, deck, errors=_form_errors(form))
    data = form.cleaned_data
    opened = data.get("version")
    change = data.get("change")
    arguments = {
        "deck": deck,
        "card": data["card"],
        "zone": data.get("zone") or "",
        "actor": request.user,
    }
    try:
        if change == 1:
            deck = deck_card_add(**arguments, quantity=1, fold_onto=opened)
        elif change == -1:
            deck = deck_card_remove(**arguments, quantity=1, fold_onto=opened)
        else:
            deck = deck_card_set(**arguments, quantity=data["quantity"], expected_version=opened)
    except (DeckError, DeckBusyError) as error:
        return _refused(request, pk, error, conflict_since=opened)
    notice = _changes_by_others(deck, opened) if change in (1, -1) else None
    return _workspace_response(request, deck, notice=notice)


#: why a replacement by a list without a card is refused (it would empty the deck)
EMPTY_REPLACEMENT = (
    "The list holds no card, only comments or blank lines: replacing the deck with it would "
    "empty it. Paste the cards, or remove cards one by one to empty the deck."
)


@login_required
@require_POST
def deck_paste(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    """Import a pasted or uploaded decklist: add it to the deck (commutes with other changes) or
    replace the deck with it (refused with a 409 when the deck changed since the page showed it)."""
    deck = _owned_deck(request, pk)
    form = DeckPasteForm(request.POST, request.FILES)
    if not form.is_valid():
        errors = [str(message) for ms in form.errors.values() for message in ms]
        return _workspace_response(request, deck, errors=errors, paste_form=form)
    text, kind = form.decklist_text()
    opened = form.cleaned_data.get("version")
    replace = form.cleaned_data["mode"] == "replace"
    try:
        if replace and not decklist_read(text, kind).entries:  # type: ignore[arg-type]
            # only comments or blank lines: as an empty box, it is no list to replace with
            return _workspace_response(request, deck, errors=[EMPTY_REPLACEMENT], paste_form=form)
        if replace:
            deck = deck_cards_replace(
                deck=deck,
                decklist=text,
                kind=kind,
                actor=signed_in(request.user),
                expected_version=opened,
            )
        else:
            deck = deck_cards_add(deck=deck, decklist=text, kind=kind, actor=request.user)
    except (DecklistParseError, DeckError, DeckBusyError) as error:
        return _refused(request, pk, error, conflict_since=opened, paste_form=form)
    notice = None if replace else _changes_by_others(deck, opened)
    return _workspace_response(request, deck, notice=notice)


@login_required
@require_POST
def deck_settings(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    deck = _owned_deck(request, pk)
    form = DeckSettingsForm(request.POST, game=deck.game)
    if not form.is_valid():
        return _deck_page(request, deck, settings_form=form, status=400)
    opened = form.cleaned_data.get("version")
    try:
        deck_details_update(
            deck=deck,
            actor=signed_in(request.user),
            name=form.cleaned_data["name"],
            description=form.cleaned_data.get("description") or "",
            visibility=form.cleaned_data["visibility"],
            format=form.cleaned_data["format"],
            clear_format=form.cleaned_data["format"] is None,
            variant=form.cleaned_data.get("variant"),
            expected_version=opened,
        )
    except DeckVersionConflict:
        deck = _owned_deck(request, pk)
        conflict = deck_changes_since(deck, opened or deck.version)
        return _deck_page(request, deck, settings_form=form, conflict=conflict, status=CONFLICT)
    except DeckBusyError as error:
        return _deck_page(request, deck, settings_form=form, errors=[str(error)], status=BUSY)
    except DeckError as error:
        return _deck_page(request, deck, settings_form=form, errors=_problems(error), status=400)
    messages.success(request, "Deck settings saved.")
    return redirect("deck-detail", pk=deck.pk)


@login_required
@require_POST
def deck_clone_view(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    deck = deck_for_viewer(request.user, pk)
    try:
        clone = deck_clone(deck=deck, owner=request.user)
    except DeckPermissionError:
        return render(request, "web/message.html", {"title": "Cannot clone"}, status=403)
    except DeckBusyError as error:
        return _deck_page(request, deck, errors=[str(error)], status=BUSY)
    messages.success(request, f"Cloned {deck.name}: this copy is private until you share it.")
    return redirect("deck-detail", pk=clone.pk)


@login_required
@require_POST
def deck_delete_view(request: HtmxHttpRequest, pk: int) -> HttpResponseBase:
    deck = _owned_deck(request, pk)
    name = deck.name
    try:
        deck_delete(deck=deck, actor=request.user)
    except DeckBusyError as error:
        return _deck_page(request, deck, errors=[str(error)], status=BUSY)
    messages.success(request, f"Deleted {name}.")
    return redirect("deck-list-mine")


@require_safe
def deck_export_view(request: HtmxHttpRequest, pk: int, kind: str) -> HttpResponse:
    """Download the deck as a canonical decklist (text, CSV or JSON)."""
    deck = deck_for_viewer(request.user, pk)
    content_type, suffix = EXPORT_TYPES[kind]
    response = HttpResponse(deck_export(deck, kind), content_type=content_type)
    filename = f"{slugify(deck.name) or 'deck'}.{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def deck_versions_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Every version of a deck, and the difference between two of them."""
    deck = deck_for_viewer(request.user, pk)
    versions = list(deck_versions(deck).only("number", "created_at", "note", "deck_id"))
    latest = versions[-1].number if versions else 1
    initial = {"a": max(1, latest - 1), "b": latest}
    # a comparison is asked for by either box; other parameters (a link's tracking, say) are not
    # one, and the page shows the last two versions as when none is given
    asked = "a" in request.GET or "b" in request.GET
    form = VersionCompareForm(request.GET if asked else initial)
    diff = None
    error = ""
    if form.is_valid():
        try:
            diff = deck_version_diff(deck, form.cleaned_data["a"], form.cleaned_data["b"])
        except DeckVersion.DoesNotExist as missing:
            error = str(missing)
    status = 400 if (asked and (error or form.errors)) else 200
    return render(
        request,
        "web/deck_versions.html",
        {
            "deck": deck,
            "versions": versions[::-1],
            "form": form,
            "diff": diff,
            "error": error,
            "is_owner": deck_owned_by(deck, request.user),
            "fold_seconds": settings.DECK_VERSION_FOLD_SECONDS,
        },
        status=status,
    )


@login_required
@require_POST
def deck_revert_view(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponseBase:
    """Make the deck's cards those of an earlier version again, as a new version. The form
    names the version the history page showed: a revert replaces the whole list, so one made
    from a page the deck has moved on from since is refused rather than undo changes unseen."""
    deck = _owned_deck(request, pk)
    try:
        shown = bounded_int(request.POST.get("version"), name="version", lo=1)
    except ParameterError:
        return render(
            request,
            "web/message.html",
            {
                "title": "Cannot revert",
                "text": "A revert needs the version the history page showed, and this request "
                "had none: open the history again and revert from there. Nothing was changed.",
            },
            status=400,
        )
    try:
        reverted = deck_revert(deck=deck, number=number, actor=request.user, expected_version=shown)
    except DeckBusyError as error:
        messages.error(request, str(error))
        return redirect("deck-versions", pk=pk)
    except DeckVersionConflict as error:
        messages.error(
            request,
            f"Nothing was reverted: the deck changed after this page was shown (it is now at "
            f"version {error.current}). Look at its history as it is now, then revert.",
        )
        return redirect("deck-versions", pk=pk)
    except DeckError as error:
        return render(
            request,
            "web/message.html",
            {"title": "Cannot revert", "text": " ".join(_problems(error))},
            status=400,
        )
    if reverted.version == deck.version:
        messages.info(request, f"The deck already holds the cards of version {number}.")
    else:
        messages.success(
            request, f"Reverted to version {number}: saved as version {reverted.version}."
        )
    return redirect("deck-detail", pk=pk)
