"""Simulation jobs over the API: start a matchup, gauntlet or metagame job, list yours, follow one, cancel
it, read its results (a metagame's matrix also as CSV or JSON). Thin: plans, quotas and jobs are
``rules.lab.jobs`` and ``rules.lab.quotas``'; results are ``rules.lab.selectors``'."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.users import signed_in
from api.errors import Conflict
from api.serializers import simulations as s
from common.clientip import client_ip
from common.inputs import ID_PATTERN
from decks.errors import DeckError, DeckVersionConflict
from decks.selectors import deck_list_visible_to
from rules.engines.core import find_plugin
from rules.lab.doctor import DoctorError, doctor_plan, doctor_swap_apply
from rules.lab.jobs import simulation_job_cancel, simulation_job_start
from rules.lab.plans import JobPlan, SimulationJobError, gauntlet_plan, matchup_plan, metagame_plan
from rules.lab.quotas import GamesQuotaExceeded
from rules.lab.selectors import (
    simulation_job_metagame,
    simulation_job_report,
    simulation_jobs_listed,
    simulation_jobs_owned_by,
)
from rules.metagame import MetagameError, metagame_csv, metagame_json
from rules.models import SimulationJob


class QuotaExceeded(exceptions.APIException):
    """Starting the job would pass an hourly quota of games (HTTP 429, ``quota-exceeded``)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "quota-exceeded"

    def __init__(self, error: GamesQuotaExceeded) -> None:
        super().__init__(detail=str(error), code="quota-exceeded")
        self.problem_extra = {"retry_after": error.retry_after}
        self.problem_headers = {"Retry-After": str(error.retry_after)}


def _plan(user: Any, data: dict[str, Any]) -> JobPlan:
    """The plan of the job ``data`` asks for, from decks ``user`` may use."""
    ids = list(dict.fromkeys(data["decks"]))
    if len(ids) < len(data["decks"]):
        raise exceptions.ValidationError({"decks": ["A deck is named twice: name each once."]})
    found = deck_list_visible_to(user).select_related("game").in_bulk(ids)
    missing = [str(pk) for pk in ids if pk not in found]
    if missing:
        raise exceptions.ValidationError(
            {"decks": [f"No deck {', '.join(missing)} that you may use (yours or public)."]}
        )
    decks = [found[pk] for pk in ids]
    plugin = find_plugin(decks[0].game.slug)
    default = plugin.matchup_agents[0] if plugin is not None else "random"
    agent = data.get("agent", default)
    try:
        if "fixed_seats" in data and data["kind"] != SimulationJob.Kind.MATCHUP:
            raise SimulationJobError("fixed_seats is a matchup's: the other jobs rotate seats.")
        if data["kind"] == SimulationJob.Kind.DOCTOR:
            if "agents" in data or "meta_shares" in data:
                raise SimulationJobError(
                    "A doctor job takes one agent for every seat (agent), and no meta shares."
                )
            return doctor_plan(
                deck=decks[0],
                gauntlet=decks[1:],
                agent=agent,
                games=data["games_per_pairing"],
                max_swaps=data.get("swaps", 16),
                top=data.get("top", 3),
                players=data.get("players", 2),
                ins=data.get("cards_in", ()),
                outs=data.get("cards_out", ()),
                seed=data.get("seed", 0),
            )
        if any(key in data for key in ("swaps", "top", "cards_in", "cards_out")):
            raise SimulationJobError("swaps, top, cards_in and cards_out are a doctor job's.")

        if data["kind"] in (SimulationJob.Kind.METAGAME, SimulationJob.Kind.GAUNTLET):
            if "agents" in data:
                raise SimulationJobError(
                    f"A {data['kind']} takes one agent for every deck (agent), not agents."
                )
            if data["kind"] == SimulationJob.Kind.GAUNTLET:
                if "players" in data:
                    raise SimulationJobError(
                        "A gauntlet seats two (in a co-operative game, the deck and a partner): "
                        "no players."
                    )
                return gauntlet_plan(
                    decks=decks, agent=agent, games_per_pairing=data["games_per_pairing"]
                )
            return metagame_plan(
                decks=decks,
                agent=agent,
                games_per_pairing=data["games_per_pairing"],
                players=data.get("players"),
            )
        agents = data.get("agents") or [agent] * len(decks)
        return matchup_plan(
            decks=decks,
            agents=agents,
            games=data["games_per_pairing"],
            players=data.get("players"),
            fixed_seats=data.get("fixed_seats", False),
        )
    except SimulationJobError as error:
        raise job_refused(error) from error


#: the planner's parameter names (``SimulationJobError.field``) that the API calls otherwise
API_FIELDS = {"games": "games_per_pairing"}


def job_refused(error: SimulationJobError) -> exceptions.ValidationError:
    """A refusal of the planner or of ``simulation_job_start`` as a 400, under the request field
    it names (``SimulationJobError.field``) or, when it names none, the whole request's."""
    if not error.field:
        return exceptions.ValidationError(str(error))
    return exceptions.ValidationError({API_FIELDS.get(error.field, error.field): [str(error)]})


class SimulationJobViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Your simulation jobs, newest first; another user's job is a 404."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.SimulationJobSerializer
    lookup_value_regex = ID_PATTERN
    extra_error_statuses_by_action = {"cancel": (409,), "apply_swap": (403, 409)}

    def get_queryset(self) -> QuerySet[SimulationJob]:
        # a list leaves each job's results and setups in the database; the actions read them
        owned = simulation_jobs_listed if self.action == "list" else simulation_jobs_owned_by
        return owned(self.request.user, None).order_by("-created_at", "-pk")

    @extend_schema(summary="Your simulation jobs, newest first, with their progress")
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One of your simulation jobs: its decks, status and progress")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Start a matchup, gauntlet or metagame job",
        request=s.SimulationCreateSerializer,
        responses={201: s.SimulationJobSerializer},
    )
    def create(self, request: Request) -> Response:
        """Plan the job, charge its games to the quotas and queue its chunks; nothing is
        charged or stored when any step refuses."""
        params = s.SimulationCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
        plan = _plan(request.user, data)
        try:
            job = simulation_job_start(
                kind=data["kind"],
                plan=plan,
                user=request.user,
                address=client_ip(request),
                seed=data.get("seed"),
                chunk_size=data.get("chunk_size"),
                meta_shares=data.get("meta_shares"),
            )
        except SimulationJobError as error:
            raise job_refused(error) from error
        except GamesQuotaExceeded as error:
            raise QuotaExceeded(error) from error
        body = s.SimulationJobSerializer(job).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Cancel the job: chunks not started are skipped",
        request=None,
        responses={200: s.SimulationJobSerializer},
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        job = self.get_object()
        if not simulation_job_cancel(job=job):
            raise Conflict(
                f"The job is already {job.status}; only a queued or running job can be cancelled."
            )
        return Response(s.SimulationJobSerializer(job).data)

    @extend_schema(
        summary="The job's results so far: per pairing, a metagame's matrix (or a co-operative "
        "field), a gauntlet's rows",
        parameters=[s.SharesQuerySerializer],
        responses={200: s.SimulationResultsSerializer},
    )
    @action(detail=True, methods=["get"])
    def results(self, request: Request, pk: str) -> Response:
        params = s.SharesQuerySerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        job = self.get_object()
        try:
            report = simulation_job_report(job, params.validated_data.get("shares"))
        except MetagameError as error:
            raise exceptions.ValidationError({"shares": [str(error)]}) from error
        return Response(
            {
                "id": job.pk,
                "status": job.status,
                "complete": job.status == SimulationJob.Status.DONE,
                "report": report,
            }
        )

    @extend_schema(
        summary="Make one of a finished doctor job's swaps in its deck, as a new version",
        request=s.DoctorApplySerializer,
        responses={200: s.DoctorAppliedSerializer},
    )
    @action(detail=True, methods=["post"], url_path="apply-swap")
    def apply_swap(self, request: Request, pk: str) -> Response:
        params = s.DoctorApplySerializer(data=request.data)
        params.is_valid(raise_exception=True)
        job = self.get_object()
        if job.kind != SimulationJob.Kind.DOCTOR or job.status != SimulationJob.Status.DONE:
            raise Conflict("Only a finished doctor job's swaps can be applied.")
        try:
            deck = doctor_swap_apply(
                job=job, swap=params.validated_data["swap"], actor=signed_in(request.user)
            )
        except (DoctorError, DeckVersionConflict) as error:
            raise Conflict(str(error)) from error
        except PermissionError as error:
            raise exceptions.PermissionDenied("Only the deck's owner can change it.") from error
        except DeckError as error:
            raise exceptions.ValidationError(str(error)) from error
        return Response({"deck": deck.pk, "version": deck.version})

    @extend_schema(
        summary="A metagame's matrix and field win rates as a CSV or JSON file",
        parameters=[s.MatrixExportSerializer],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="kind=json"
            ),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="kind=csv"),
        },
    )
    @action(detail=True, methods=["get"])
    def matrix(self, request: Request, pk: str) -> HttpResponse:
        params = s.MatrixExportSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        kind = params.validated_data["kind"]
        job = self.get_object()
        if job.kind != SimulationJob.Kind.METAGAME:
            raise exceptions.NotFound("Only a metagame job has a matrix.")
        try:
            metagame = simulation_job_metagame(job, params.validated_data.get("shares"))
        except MetagameError as error:
            raise exceptions.ValidationError({"shares": [str(error)]}) from error
        if metagame is None:  # a metagame's pairings always seat two decks
            raise exceptions.NotFound("This job has no matrix.")
        if kind == "csv":
            response = HttpResponse(metagame_csv(metagame), content_type="text/csv")
        else:
            response = HttpResponse(metagame_json(metagame), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="metagame-{job.pk}.{kind}"'
        return response
