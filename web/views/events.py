"""Tournament pages: the organiser's batch legality check (with a CSV report) and events with
registration, a decklist deadline, the lock and the deck hash shown to the player; the event's
organiser edits, deletes and reads the submitted decklists. The rules are in ``decks.events``."""

from __future__ import annotations

import io
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from accounts.users import signed_in
from common.csvcells import csv_writer
from decks.decklist import DecklistParseError
from decks.events.errors import (
    EventConflictError,
    EventError,
    EventPermissionError,
    OrganiserRequiredError,
    RegistrationLockedError,
)
from decks.events.selectors import (
    REGISTRATION_COLUMNS,
    event_changeable_fields,
    event_check_organiser,
    event_deletion_refusal,
    event_is_locked,
    event_is_organised_by,
    event_registration_count,
    registration_csv_rows,
    registration_of,
    registrations_visible_to,
)
from decks.events.selectors import event_list as event_list_query
from decks.events.services import (
    event_close_registrations,
    event_create,
    event_delete,
    event_update,
    registration_submit,
    registration_withdraw,
)
from decks.models import Event, Registration
from decks.selectors import (
    MAX_BATCH_DECKS,
    batch_read,
    deck_export,
    deck_list_owned,
    format_check,
    user_is_organiser,
)
from decks.validation.report import legality_csv_rows, legality_csv_write
from web.forms import EventForm, RegistrationForm, TournamentFilesForm

SESSION_REPORTS = "web:tournament-reports"
KEPT_REPORTS = 5


def _csv_rows(check: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The legality CSV rows of a batch check (kept in the session for the download)."""
    return [
        row
        for result in check["results"]
        for row in legality_csv_rows(result["name"], result["report"], result["errors"])
    ]


def tournament_check(request: HttpRequest) -> HttpResponse:
    """Check many decklists against one format: one row per deck, the report as CSV."""
    form = TournamentFilesForm(request.POST or None, request.FILES or None)
    check = None
    token = ""
    if request.method == "POST" and form.is_valid():
        fmt = form.cleaned_data["format"]
        decks = batch_read(
            fmt.game,
            pasted=form.cleaned_data.get("decklists") or "",
            files=form.cleaned_data["file_texts"],
        )
        if len(decks) > MAX_BATCH_DECKS:  # as the API's format check
            form.add_error(
                None,
                f"A check takes at most {MAX_BATCH_DECKS} decks, and these are {len(decks)}: "
                "split them into several checks.",
            )
    if request.method == "POST" and form.is_valid():
        fmt = form.cleaned_data["format"]
        check = format_check(fmt, decks, as_of=form.cleaned_data.get("as_of"))
        token = secrets.token_urlsafe(12)
        reports = request.session.get(SESSION_REPORTS, {})
        reports[token] = {
            "format": fmt.slug,
            "game": fmt.game.slug,
            "as_of": check["as_of"],
            "rows": _csv_rows(check),
        }
        request.session[SESSION_REPORTS] = dict(list(reports.items())[-KEPT_REPORTS:])
    status = 400 if request.method == "POST" and not form.is_valid() else 200
    return render(
        request,
        "web/tournament_check.html",
        {"form": form, "check": check, "token": token},
        status=status,
    )


@require_safe
def tournament_report_csv(request: HttpRequest, token: str) -> HttpResponse:
    """The last batch checks of this browser session, as CSV downloads."""
    report = request.session.get(SESSION_REPORTS, {}).get(token)
    if report is None:
        raise Http404("That report has expired; run the check again.")
    buffer = io.StringIO()
    legality_csv_write(buffer, report["rows"], name_column="deck")
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    filename = f"legality-{report['game']}-{report['format']}-{report['as_of']}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def event_list(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    events = [(event, event_is_locked(event, now=now)) for event in event_list_query()[:200]]
    context = {"events": events, "can_organise": user_is_organiser(request.user)}
    return render(request, "web/event_list.html", context)


def _organiser_required(request: HttpRequest) -> HttpResponse:
    return render(request, "web/organiser_required.html", status=403)


def _event_organiser_only(request: HttpRequest, event: Event, error: Exception) -> HttpResponse:
    """403 for anyone but the event's organiser, saying who that is."""
    organiser = event.organiser.get_username() if event.organiser else "nobody"
    context = {"title": str(error), "text": f"{event.name} is organised by {organiser}."}
    return render(request, "web/message.html", context, status=403)


def _form_errors(form: EventForm, error: EventError) -> None:
    """Each problem under its field (non-field errors for the rest)."""
    for field, text in error.fields.items():
        form.add_error(field if field in form.fields else None, f"{text[:1].upper()}{text[1:]}.")


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """Organisers create an event; anyone else gets a 403 page saying how to become one.

    ``event_create`` enforces the rule; asking first spares a non-organiser the form (and a 400
    for a form they may not send).
    """
    if not user_is_organiser(request.user):
        return _organiser_required(request)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = event_create(
                game=data["format"].game,
                format=data["format"],
                name=data["name"],
                date=data["date"],
                decklist_deadline=data["decklist_deadline"],
                time_zone=data["time_zone"],
                organiser=signed_in(request.user),
                variant=data["variant"],
            )
        except OrganiserRequiredError:
            return _organiser_required(request)
        except EventError as error:
            _form_errors(form, error)
        else:
            return redirect("event-detail", pk=event.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "web/event_form.html", {"form": form, "event": None}, status=status)


def _event_page(
    request: HttpRequest,
    event: Event,
    *,
    form: RegistrationForm | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    decks: list[Any] = []
    if user.is_authenticated:
        decks = list(deck_list_owned(user, game=event.game))
    is_organiser = event_is_organised_by(event, user)
    context = {
        "event": event,
        "locked": event_is_locked(event),
        "mine": registration_of(event, user),
        "form": form or RegistrationForm(decks=decks),
        "errors": errors or [],
        "is_organiser": is_organiser,
        "registrations": registrations_visible_to(event, user) if is_organiser else None,
        "can_delete": is_organiser and event_deletion_refusal(event) is None,
    }
    return render(request, "web/event_detail.html", context, status=status)


def _event(pk: int) -> Event:
    return get_object_or_404(event_list_query(), pk=pk)


@require_safe
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _event_page(request, _event(pk))


@login_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser changes their event; fields its state no longer lets change are disabled."""
    event = _event(pk)
    try:
        event_check_organiser(event, request.user, "changes the event")
    except EventPermissionError as error:
        return _event_organiser_only(request, event, error)
    form = EventForm(request.POST or None, event=event, changeable=event_changeable_fields(event))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            changes = form.changes()
            try:
                event_update(event=event, actor=signed_in(request.user), **changes)
            except EventPermissionError as error:
                return _event_organiser_only(request, event, error)
            except EventConflictError as error:
                _form_errors(form, error)
                status = 409
            except EventError as error:
                _form_errors(form, error)
            else:
                rejudged = event_registration_count(event) if "date" in changes else 0
                again = (
                    f" The {rejudged} registered list{'s were' if rejudged != 1 else ' was'} "
                    "judged again on the new date."
                    if rejudged
                    else ""
                )
                messages.success(request, f"Event updated.{again}")
                return redirect("event-detail", pk=event.pk)
    context = {"form": form, "event": event, "locked": event_is_locked(event)}
    return render(request, "web/event_form.html", context, status=status)


@login_required
def event_delete_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask, then delete the organiser's event with its registrations."""
    event = _event(pk)
    try:
        event_check_organiser(event, request.user, "deletes the event")
    except EventPermissionError as error:
        return _event_organiser_only(request, event, error)
    refusal = event_deletion_refusal(event)
    if request.method == "POST" and refusal is None:
        try:
            count = event_delete(event=event, actor=signed_in(request.user))
        except EventConflictError as error:
            refusal = "; ".join(error.problems)
        else:
            withdrawn = (
                f" with its {count} registration{'s' if count != 1 else ''}" if count else ""
            )
            messages.success(request, f"Event {event.name} deleted{withdrawn}.")
            return redirect("event-list")
    status = 409 if refusal and request.method == "POST" else 200
    context = {"event": event, "refusal": refusal}
    return render(request, "web/event_delete.html", context, status=status)


@login_required
@require_safe
def event_registrations_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser reads every submitted decklist with its verdict; nobody else may."""
    event = _event(pk)
    try:
        registrations = list(registrations_visible_to(event, request.user))
    except EventPermissionError as error:
        return _event_organiser_only(request, event, error)
    legal = sum(1 for r in registrations if r.legal)
    context = {
        "event": event,
        "registrations": registrations,
        "legal": legal,
        "illegal": len(registrations) - legal,
        "locked": event_is_locked(event),
    }
    return render(request, "web/event_registrations.html", context)


@login_required
@require_safe
def event_registrations_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser downloads the registrations as CSV (deck, player, verdict, problems, cards,
    hash, submitted); nobody else may. Every cell goes through ``csv_writer``."""
    event = _event(pk)
    try:
        registrations = list(registrations_visible_to(event, request.user))
    except EventPermissionError as error:
        return _event_organiser_only(request, event, error)
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(REGISTRATION_COLUMNS)
    writer.writerows(registration_csv_rows(event, registrations))
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="registrations-event-{event.pk}.csv"'
    return response


@login_required
@require_POST
def event_close(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The organiser closes the registrations now (the deadline becomes this moment)."""
    event = _event(pk)
    try:
        event_close_registrations(event=event, actor=signed_in(request.user))
    except EventPermissionError as error:
        return _event_organiser_only(request, event, error)
    except EventConflictError as error:
        return _event_page(request, event, errors=list(error.fields.values()), status=409)
    messages.success(
        request, "Registrations closed: the decklists are final and can no longer change."
    )
    return redirect("event-detail", pk=event.pk)


def _verdict_message(request: HttpRequest, registration: Registration) -> None:
    """Say at once whether the submitted list is legal, and if not, why (the page lists all)."""
    verdict = registration.verdict
    if registration.legal:
        messages.success(
            request,
            f"Decklist submitted: legal in {verdict.get('format') or 'the event'} on "
            f"{verdict.get('as_of')}. Keep the deck hash below as your receipt.",
        )
        return
    violations = verdict.get("violations", [])
    shown = "; ".join(v["message"] for v in violations[:3])
    more = f" (and {len(violations) - 3} more, listed below)" if len(violations) > 3 else ""
    count = f"{len(violations)} problem{'s' if len(violations) != 1 else ''}"
    messages.warning(
        request,
        f"Decklist submitted, but it is NOT legal ({count}): {shown}{more}. "
        "Fix it and submit again before the deadline.",
    )


@login_required
@require_POST
def event_register(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Submit or resubmit a decklist before the deadline; the verdict and hash are shown back."""
    event = _event(pk)
    decks = list(deck_list_owned(signed_in(request.user), game=event.game))
    form = RegistrationForm(request.POST, request.FILES, decks=decks)
    if not form.is_valid():
        return _event_page(request, event, form=form, status=400)
    text, kind = form.decklist_text()
    chosen = form.cleaned_data.get("deck")
    text_given = bool(text.strip())
    if not text_given and chosen:
        deck = next((d for d in decks if d.pk == chosen), None)
        if deck is None:
            return _event_page(
                request, event, form=form, errors=["Choose one of your decks."], status=400
            )
        text, kind = deck_export(deck), "text"
    try:
        registration = registration_submit(
            event=event, player=signed_in(request.user), decklist=text, kind=kind
        )
    except RegistrationLockedError as error:
        return _event_page(request, event, form=form, errors=list(error.problems), status=409)
    except DecklistParseError as error:
        form.add_decklist_problems(
            [str(p) for p in error.problems], source="" if text_given else "deck"
        )
        return _event_page(request, event, form=form, status=400)
    _verdict_message(request, registration)
    return redirect("event-detail", pk=event.pk)


@login_required
@require_POST
def event_withdraw(request: HttpRequest, pk: int) -> HttpResponseBase:
    event = _event(pk)
    registration = registration_of(event, request.user)
    if registration is None:
        raise Http404("You are not registered for this event.")
    try:
        registration_withdraw(registration=registration)
    except RegistrationLockedError as error:
        return _event_page(request, event, errors=list(error.problems), status=409)
    messages.success(request, "Registration withdrawn.")
    return redirect("event-detail", pk=event.pk)
