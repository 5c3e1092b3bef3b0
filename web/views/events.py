"""Tournament pages: the organiser's batch legality check (with a CSV report) and events with
registration, a decklist deadline, the lock and the deck hash shown to the player."""

from __future__ import annotations

import csv
import io
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from decks.decklist import DecklistParseError
from decks.models import Event, Registration
from decks.selectors import (
    batch_read,
    deck_export,
    deck_list_owned,
    event_registrations,
    format_check,
    user_is_organiser,
)
from decks.services import (
    DeckError,
    OrganiserRequiredError,
    RegistrationLockedError,
    event_create,
    registration_submit,
    registration_withdraw,
)
from web.forms import EventCreateForm, RegistrationForm, TournamentFilesForm

SESSION_REPORTS = "web:tournament-reports"
KEPT_REPORTS = 5
CSV_HEADER = ("deck", "verdict", "card_count", "code", "message", "rule", "cards")


def _csv_rows(check: dict[str, Any]) -> list[tuple[Any, ...]]:
    """One row per violation, one per legal deck, one per reading error (as validate_decks)."""
    rows: list[tuple[Any, ...]] = []
    for result in check["results"]:
        if result["errors"]:
            rows.extend((result["name"], "unreadable", "", "", e, "", "") for e in result["errors"])
            continue
        report = result["report"]
        verdict = "legal" if report["legal"] else "illegal"
        for violation in report["violations"] or [None]:
            rows.append(
                (
                    result["name"],
                    verdict,
                    report["card_count"],
                    violation["code"] if violation else "",
                    violation["message"] if violation else "",
                    violation["rule"] if violation else "",
                    "; ".join(violation["cards"]) if violation else "",
                )
            )
    return rows


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
        check = format_check(
            fmt,
            [(d.name, d.entries, d.errors) for d in decks],
            as_of=form.cleaned_data.get("as_of"),
        )
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


@require_GET
def tournament_report_csv(request: HttpRequest, token: str) -> HttpResponse:
    """The last batch checks of this browser session, as CSV downloads."""
    report = request.session.get(SESSION_REPORTS, {}).get(token)
    if report is None:
        raise Http404("That report has expired; run the check again.")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_HEADER)
    writer.writerows(report["rows"])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    filename = f"legality-{report['game']}-{report['format']}-{report['as_of']}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.select_related("game", "format", "organiser").order_by("-date", "name")
    context = {
        "events": events[:200],
        "now": timezone.now(),
        "can_organise": user_is_organiser(request.user),
    }
    return render(request, "web/event_list.html", context)


def _organiser_required(request: HttpRequest) -> HttpResponse:
    return render(request, "web/organiser_required.html", status=403)


@login_required
def event_new(request: HttpRequest) -> HttpResponse:
    """Organisers create an event; anyone else gets a 403 page saying how to become one.

    ``event_create`` enforces the rule; asking first spares a non-organiser the form (and a 400
    for a form they may not send).
    """
    if not user_is_organiser(request.user):
        return _organiser_required(request)
    form = EventCreateForm(request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        fmt = form.cleaned_data["format"]
        try:
            event = event_create(
                game=fmt.game,
                format=fmt,
                name=form.cleaned_data["name"],
                date=form.cleaned_data["date"],
                decklist_deadline=form.cleaned_data["decklist_deadline"],
                organiser=request.user,
                variant=(form.cleaned_data.get("variant") or "").strip(),
            )
        except OrganiserRequiredError:
            return _organiser_required(request)
        except DeckError as error:
            errors = list(error.problems)
        else:
            return redirect("event-detail", pk=event.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "web/event_new.html", {"form": form, "errors": errors}, status=status)


def _event_page(
    request: HttpRequest,
    event: Event,
    *,
    form: RegistrationForm | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    mine = None
    decks: list[Any] = []
    if user.is_authenticated:
        mine = Registration.objects.filter(event=event, player=user).first()
        decks = list(deck_list_owned(user).filter(game=event.game))
    is_organiser = user.is_authenticated and user.pk == event.organiser_id
    context = {
        "event": event,
        "locked": timezone.now() > event.decklist_deadline,
        "mine": mine,
        "form": form or RegistrationForm(decks=decks),
        "errors": errors or [],
        "is_organiser": is_organiser,
        "registrations": event_registrations(event) if is_organiser else None,
        "registration_count": event.registrations.count(),
    }
    return render(request, "web/event_detail.html", context, status=status)


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("game", "format", "organiser"), pk=pk)


@require_GET
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _event_page(request, _event(pk))


@login_required
@require_POST
def event_register(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Submit or resubmit a decklist before the deadline; the verdict and hash are shown back."""
    event = _event(pk)
    decks = list(deck_list_owned(request.user).filter(game=event.game))
    form = RegistrationForm(request.POST, request.FILES, decks=decks)
    if not form.is_valid():
        return _event_page(request, event, form=form, status=400)
    text, kind = form.decklist_text()
    chosen = form.cleaned_data.get("deck")
    if not text.strip() and chosen:
        deck = next((d for d in decks if d.pk == chosen), None)
        if deck is None:
            return _event_page(
                request, event, form=form, errors=["Choose one of your decks."], status=400
            )
        text, kind = deck_export(deck), "text"
    try:
        registration_submit(event=event, player=request.user, decklist=text, kind=kind)
    except RegistrationLockedError as error:
        return _event_page(request, event, form=form, errors=list(error.problems), status=409)
    except DecklistParseError as error:
        problems = [str(p) for p in error.problems]
        return _event_page(request, event, form=form, errors=problems, status=400)
    messages.success(request, "Decklist submitted. Keep the deck hash below as your receipt.")
    return redirect("event-detail", pk=event.pk)


@login_required
@require_POST
def event_withdraw(request: HttpRequest, pk: int) -> HttpResponseBase:
    event = _event(pk)
    registration = Registration.objects.filter(event=event, player=request.user).first()
    if registration is None:
        raise Http404("You are not registered for this event.")
    try:
        registration_withdraw(registration=registration)
    except RegistrationLockedError as error:
        return _event_page(request, event, errors=list(error.problems), status=409)
    messages.success(request, "Registration withdrawn.")
    return redirect("event-detail", pk=event.pk)
