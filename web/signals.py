"""Signal receivers of the web app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: the matchup runs an anonymous visitor started before matchups were jobs (their jobs remember
#: the runs' ids), claimed for their account when they log in
SESSION_RUNS = "web:anonymous-matchup-runs"
#: the simulation jobs (matchups included) an anonymous visitor started, claimed likewise
SESSION_JOBS = "web:anonymous-simulation-jobs"


@receiver(user_logged_in, dispatch_uid="web.claim_anonymous_matchup_runs")
def claim_anonymous_matchup_runs(
    sender: Any, request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    """Simulation jobs (matchups included) started before logging in (or signing up) move to
    the account."""
    if request is None or not hasattr(request, "session"):
        return
    run_ids = request.session.pop(SESSION_RUNS, None) or []
    job_ids = request.session.pop(SESSION_JOBS, None) or []
    if job_ids or run_ids:
        from rules.lab.jobs import simulation_jobs_claim  # the engines load only when needed

        simulation_jobs_claim(user=user, job_ids=job_ids, legacy_run_ids=run_ids)
