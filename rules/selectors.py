"""Reads of the rules lab: the matchup runs a visitor owns."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from rules.models import MatchupRun


def matchup_runs_owned_by(
    user: AbstractBaseUser | AnonymousUser, session_key: str | None
) -> QuerySet[MatchupRun]:
    """A signed-in user's runs, or an anonymous visitor's runs of this browser session."""
    runs = MatchupRun.objects.select_related("game")
    if user.is_authenticated:
        return runs.filter(owner_id=user.pk)
    if not session_key:
        return runs.none()
    return runs.filter(owner__isnull=True, session_key=session_key)


def matchup_run_for_owner(
    user: AbstractBaseUser | AnonymousUser, session_key: str | None, pk: int
) -> MatchupRun | None:
    """The run if this visitor owns it, else None (the page answers 404 either way)."""
    return matchup_runs_owned_by(user, session_key).filter(pk=pk).first()
