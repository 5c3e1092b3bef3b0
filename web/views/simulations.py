"""Simulation job pages: a job's progress (polled while it plays), cancel, and its results: per
pairing, and for a metagame the heat map of its win-rate matrix, the field win rates and the
CSV and JSON downloads. Jobs are started with ``manage.py metagame`` or over the API
(``/api/v1/simulations/``); only their owner sees them."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from rules.jobs import simulation_job_cancel
from rules.metagame import metagame_csv, metagame_json
from rules.models import SimulationJob
from rules.selectors import simulation_job_metagame, simulation_job_report, simulation_jobs_owned_by
from web.charts import heat_map


def _owned(request: HttpRequest, pk: int) -> SimulationJob | None:
    return simulation_jobs_owned_by(request.user, request.session.session_key).filter(pk=pk).first()


def _not_found(request: HttpRequest) -> HttpResponse:
    text = (
        "There is no simulation job here that belongs to you. Jobs are visible only to whoever "
        "started them."
    )
    return render(request, "web/message.html", {"title": "No such job", "text": text}, status=404)


def _context(job: SimulationJob) -> dict[str, Any]:
    context: dict[str, Any] = {"job": job, "report": simulation_job_report(job)}
    metagame = simulation_job_metagame(job) if job.kind == SimulationJob.Kind.METAGAME else None
    if metagame is not None and job.games_done:
        rates = [
            [
                None if cell is None else (cell.win_rate or 0.0, cell.ci_low, cell.ci_high)
                for cell in row
            ]
            for row in metagame.cells
        ]
        context["metagame"] = metagame
        context["heat_map"] = heat_map(
            metagame.labels, rates, title="Win rates, row against column"
        )
    return context


@require_GET
def simulation_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The job: its progress while it plays, then its results."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    return render(request, "web/simulation_detail.html", _context(job))


@require_GET
def simulation_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll of the job's page: the progress bar, or the results once it has ended."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    template = "web/_simulation_progress.html" if request.htmx else "web/simulation_detail.html"
    return render(request, template, _context(job))


@require_POST
def simulation_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel the job (its chunks not started are skipped) and show it again."""
    job = _owned(request, pk)
    if job is None:
        return _not_found(request)
    simulation_job_cancel(job=job)
    return redirect("simulation-detail", pk=job.pk)


@require_GET
def simulation_matrix(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """A metagame's matrix and field win rates as a CSV or JSON file."""
    job = _owned(request, pk)
    metagame = None
    if job is not None and job.kind == SimulationJob.Kind.METAGAME:
        metagame = simulation_job_metagame(job)
    if job is None or metagame is None or kind not in ("csv", "json"):
        return _not_found(request)
    if kind == "csv":
        response = HttpResponse(metagame_csv(metagame), content_type="text/csv")
    else:
        response = HttpResponse(metagame_json(metagame), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="metagame-{job.pk}.{kind}"'
    return response
