"""Signal receivers of the web app."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

#: the runs an anonymous visitor started, claimed for their account when they log in
SESSION_RUNS = "web:anonymous-matchup-runs"
#: the simulation jobs an anonymous visitor started, claimed likewise
SESSION_JOBS = "web:anonymous-simulation-jobs"


@receiver(user_logged_in, dispatch_uid="web.claim_anonymous_matchup_runs")
def claim_anonymous_matchup_runs(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """Matchup runs and simulation jobs started before logging in (or signing up) move to the
    account."""
    if request is None or not hasattr(request, "session"):
        return
    run_ids = request.session.pop(SESSION_RUNS, None)
    if run_ids:
        from rules.services import matchup_runs_claim  # the engines load only when needed

        matchup_runs_claim(user=user, run_ids=run_ids)
    job_ids = request.session.pop(SESSION_JOBS, None)
    if job_ids:
        from rules.jobs import simulation_jobs_claim

        simulation_jobs_claim(user=user, job_ids=job_ids)
