"""Reads of the rules lab: the matchup runs a visitor owns, and a run's results as plain data."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from rules.engines.core.intervals import wilson_interval
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


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "wins": wins,
        "win_rate": round(wins / games, 6) if games else 0.0,
        "ci_low": round(low, 6),
        "ci_high": round(high, 6),
    }


def matchup_run_report(run: MatchupRun) -> dict[str, Any]:
    """A run's results as plain data (the API's): per deck (side) its wins with a Wilson 95%
    interval and how often it moved first and won then; per seat its wins whoever sat there;
    whoever moved first; the draws, or the team's result for a co-operative run."""
    totals = run.totals
    games = int(totals.get("games", 0))
    report: dict[str, Any] = {"games": games, "fixed_seats": run.fixed_seats}
    if run.cooperative:
        report["team"] = {
            **_rate(int(totals.get("team_wins", 0)), games),
            "losses": int(totals.get("team_losses", 0)),
        }
        return report
    wins = list(totals.get("wins", []))
    moved = totals.get("moved_first")
    first_wins = totals.get("first_side_wins")
    report["by_deck"] = [
        {
            "side": side,
            "label": run.labels[side] if side < len(run.sides) else "",
            "deck": run.sides[side].get("deck") if side < len(run.sides) else None,
            "agent": run.agents[side] if side < len(run.agents) else "",
            **_rate(int(count), games),
            "moved_first": moved[side] if moved else None,
            "first_wins": first_wins[side] if first_wins else None,
        }
        for side, count in enumerate(wins)
    ]
    # runs stored before seats rotated kept every deck in its seat: by seat is by deck
    report["by_seat"] = [
        {"seat": seat, **_rate(int(count), games)}
        for seat, count in enumerate(totals.get("seat_wins", wins))
    ]
    first_games = int(totals.get("first_games", 0))
    report["first_player"] = (
        {"games": first_games, **_rate(int(totals.get("first_wins", 0)), first_games)}
        if first_games
        else None
    )
    report["draws"] = int(totals.get("draws", 0))
    return report
