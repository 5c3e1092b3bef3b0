"""Does a game's default agent meet its targets? It plays the baseline and random, and prints
the scores with Wilson intervals.

    .venv/bin/python bench/defaults.py --game reign-absolute --games 400 --jobs 2
    .venv/bin/python bench/defaults.py --game rival-realms --agent 'greedy(max_nodes=400)'
    .venv/bin/python bench/defaults.py --game reign-absolute --games 400 --jobs 2 --publish

The default is the agent the game's matchup form offers first (``GamePlugin.matchup_agents``),
at the web budget, with the game's evaluation weights; ``--agent`` measures another one. The
baseline (``BASELINES``) is the default each game offered when the targets were set (issue 28,
2026-12-01), deciding with the evaluation weights it had then (``bench/baselines/<game>.json``),
with today's agent code. Targets, over ``--games`` seeded games each (400 for the record), seats
and decks balanced as in the ladder (``rules.ladder.play_pairing_game``):

* against the baseline, the lower end of the Wilson 95% interval of the default's score is
  above 55% (a draw is half a point);
* against random, the default wins at least 95% of the games;
* no game ends at an engine cut-off (a turn limit, a stalemate of locked hands).

In a co-operative game (Reggae Revolution) each agent's team plays the same deals against the
game: the default scores a point on a deal it wins and the other team loses, half a point where
they fare alike, and it "beats random" when it fares at least as well as a random team on at
least 95% of the deals. Figures only, nothing is asserted; ``--publish`` writes the result into
``docs/agents.md`` (the block of the game under "Default agents against their targets").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents import parse_entrant, web_options
from rules.engines.core import GamePlugin, plugin_for
from rules.engines.core.intervals import wilson_interval
from rules.engines.core.weights import load_weights
from rules.ladder import (
    ANCHOR,
    THE_GAME,
    GameOutcome,
    SeatScores,
    Task,
    dealt,
    describe_machine,
    needs_open_play,
    percentile,
    play_tasks,
    two_seat_setups,
    write_block,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "agents.md"
SECTION = "Default agents against their targets"
#: the default agent each game's matchup form offered when the targets were set, with the
#: evaluation weights it had then (and the options it had then where the game's budget for the
#: agent has grown since: Reign Absolute's greedy looked at no replies; and the policy it
#: played where a game's own policy has changed since: Reggae Revolution's ``plain``)
BASELINES = {
    "revolt-n-reign": "plan(weights=bench/baselines/revolt-n-reign.json)",
    "regality-vs-religion": (
        "alphabeta(reach=0, weights=bench/baselines/regality-vs-religion.json)"
    ),
    "rival-realms": "team(policy=plain, lookahead=0, weights=bench/baselines/rival-realms.json)",
    "reign-absolute": "greedy(replies=0, weights=bench/baselines/reign-absolute.json)",
    "reggae-revolution": "team(policy=plain, weights=bench/baselines/reggae-revolution.json)",
}
TARGET_SCORE = 0.55
TARGET_WINS = 0.95


@dataclass(frozen=True)
class Match:
    """The default's games against one opponent (in a co-operative game, its deals beside the
    opponent's on the same deals)."""

    opponent: str
    games: int
    points: float
    wins: int
    draws: int
    cutoffs: int
    seconds: tuple[float, ...]
    #: co-operative: the deals each team won against the game (the default's, the opponent's)
    team_wins: tuple[int, int] = (0, 0)
    #: per sample setup, as (label, the default's points, games)
    by_setup: tuple[tuple[str, float, int], ...] = ()
    #: the default's points by seat and by moving first or second (none co-operatively)
    by_seat: SeatScores | None = None

    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the default's share of the points."""
        return wilson_interval(self.points, self.games)


def measure(
    plugin: GamePlugin, agent: str, opponent: str, games: int, seed: int, jobs: int
) -> Match:
    """Play ``games`` games of ``agent`` against ``opponent`` (co-operative: the same deals)."""
    slug = plugin.slug
    if plugin.cooperative:
        tasks: list[Task] = [(slug, agent, THE_GAME, i, seed, False) for i in range(games)]
        tasks += [(slug, opponent, THE_GAME, i, seed, False) for i in range(games)]
        outcomes = play_tasks(tasks, jobs, _progress)
        mine, theirs = outcomes[:games], outcomes[games:]
        return Match(
            opponent,
            games,
            sum(0.5 + (a.points - b.points) / 2 for a, b in zip(mine, theirs, strict=True)),
            sum(a.points >= b.points for a, b in zip(mine, theirs, strict=True)),
            sum(a.points == b.points for a, b in zip(mine, theirs, strict=True)),
            sum(o.end_reason in plugin.cutoff_reasons for o in mine),  # the default's deals
            _seconds(mine, both_seats=True),
            (sum(a.points == 1.0 for a in mine), sum(b.points == 1.0 for b in theirs)),
        )
    open_only = needs_open_play([agent, opponent])
    tasks = [(slug, agent, opponent, i, seed, open_only) for i in range(games)]
    outcomes = play_tasks(tasks, jobs, _progress)
    return Match(
        opponent,
        games,
        sum(o.points for o in outcomes),
        sum(o.points == 1.0 for o in outcomes),
        sum(o.points == 0.5 for o in outcomes),
        sum(o.end_reason in plugin.cutoff_reasons for o in outcomes),
        _seconds(outcomes, both_seats=False),
        by_setup=_by_setup(plugin, outcomes, open_only),
        by_seat=SeatScores.of(outcomes),
    )


def _by_setup(
    plugin: GamePlugin, outcomes: Sequence[GameOutcome], open_only: bool
) -> tuple[tuple[str, float, int], ...]:
    """The default's points and games on each sample setup, as ``rules.ladder.dealt`` deals
    game ``i``; on a setup of two decks, on each of them (its first deck is the one the setup
    seats first), so a deck the default struggles with, or against, shows."""
    setups = two_seat_setups(plugin, open_only)
    tally: dict[str, list[float]] = {}
    for index, outcome in enumerate(outcomes):
        number, setup, seat = dealt(plugin, index, open_only, setups)
        label = _label(number, setups[number])
        decks = setups[number].get("decks")
        if isinstance(decks, list) and len(decks) == 2 and decks[0] != decks[1]:
            label += (", on its first deck", ", on its second deck")[
                decks.index(setup["decks"][seat])
            ]
        entry = tally.setdefault(label, [0.0, 0])
        entry[0] += outcome.points
        entry[1] += 1
    return tuple((label, points, int(games)) for label, (points, games) in tally.items())


def _label(number: int, setup: dict[str, object]) -> str:
    """A setup's name in the report: its options where it has no decks, else its number."""
    if "decks" in setup:
        return f"setup {number + 1}"
    return ", ".join(f"{key} {value}" for key, value in setup.items())


def _seconds(outcomes: Sequence[GameOutcome], both_seats: bool) -> tuple[float, ...]:
    times = [t for o in outcomes for t in o.seconds[0]]
    if both_seats:
        times += [t for o in outcomes for t in o.seconds[1]]
    return tuple(times)


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def same_agent(plugin: GamePlugin, agent: str, baseline: str) -> bool:
    """Whether ``agent`` is ``baseline``: the same agent playing with the same options once the
    game's budget is added (``greedy`` and ``greedy(replies=0)`` differ where the game's budget
    gives greedy replies), and the game's weights are the baseline's (so their games would
    score 50% by construction)."""
    name, options = parse_entrant(agent)
    base_name, base_options = parse_entrant(baseline)
    weights_file = base_options.pop("weights", None)
    own = options.pop("weights", None)
    found = plugin.weights()
    played = {**web_options(name, plugin), **options}
    base_played = {**web_options(base_name, plugin), **base_options}
    if name != base_name or played != base_played or found is None:
        return False
    theirs = load_weights(Path(str(weights_file))) if weights_file else found[0]
    mine = load_weights(Path(str(own))) if own else found[0]
    return mine == theirs


def report(
    plugin: GamePlugin,
    agent: str,
    baseline: Match | str,
    random: Match,
    command: str,
) -> str:
    """The Markdown block of one game's measurement, with the verdict on each target;
    ``baseline`` is the baseline's spec alone when the default is the baseline."""
    win_share = random.wins / random.games
    win_low, win_high = wilson_interval(random.wins, random.games)
    played = [random] if isinstance(baseline, str) else [baseline, random]
    times = tuple(t for match in played for t in match.seconds)
    mean = 1000 * sum(times) / len(times) if times else 0.0
    p95 = 1000 * percentile(times, 0.95) if times else 0.0
    cutoffs = sum(match.cutoffs for match in played)
    games = sum(match.games for match in played)
    against = "deals beside" if plugin.cooperative else "games against"
    if isinstance(baseline, str):
        spec = baseline
        first = (
            "| Score above 55% (Wilson lower end) against the baseline | the default is the "
            "baseline (the same agent, budget and weights): nothing has changed | **no** |"
        )
    else:
        spec = baseline.opponent
        low, high = baseline.interval()
        first = (
            f"| Score above 55% (Wilson lower end) in {baseline.games} {against} the baseline "
            f"| {baseline.points:g}/{baseline.games} = {baseline.points / baseline.games:.1%} "
            f"(95% interval {low:.1%} to {high:.1%}; {baseline.draws} "
            f"{'alike' if plugin.cooperative else 'draws'}) | {_yes(low > TARGET_SCORE)} |"
        )
    lines = [
        f"### {plugin.name}",
        "",
        f"Measured {_today()} on {describe_machine()}, with `{command}`. Default: `{agent}`; "
        f"baseline: `{spec}`.",
        "",
        "| Target | Measured | Met |",
        "|---|---|---|",
        first,
        (
            f"| Fares at least as well as a random team on at least 95% of {random.games} deals | "
            if plugin.cooperative
            else f"| Wins at least 95% of {random.games} games against random | "
        )
        + f"{random.wins}/{random.games} = {win_share:.1%} "
        f"(95% interval {win_low:.1%} to {win_high:.1%}) | {_yes(win_share >= TARGET_WINS)} |",
        f"| No game of the default's ends at an engine cut-off | {cutoffs} of {games} | "
        f"{_yes(cutoffs == 0)} |",
        f"| CPU per decision at most 1 s (mean), 2 s (p95) | mean {mean:.1f} ms, "
        f"p95 {p95:.1f} ms | {_yes(mean <= 1000 and p95 <= 2000)} |",
    ]
    for match in played:
        if len(match.by_setup) > 1:
            parts = [
                f"{label} {points:g}/{games}" for label, points, games in match.by_setup if games
            ]
            lines += ["", f"Against {match.opponent}, by setup: {'; '.join(parts)}."]
        seated = match.by_seat.sentence("the default") if match.by_seat else ""
        if seated:
            lines += ["", f"Against {match.opponent}, by seat: {seated}"]
    if plugin.cooperative:
        ours, theirs = random.team_wins
        baseline_won = (
            "" if isinstance(baseline, str) else f"the baseline's {baseline.team_wins[1]}, "
        )
        lines += [
            "",
            f"Deals won against the game (of {random.games}): the default's team {ours}, "
            f"{baseline_won}a random team's {theirs}.",
        ]
    return "\n".join(lines)


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def _today() -> str:
    return date.today().isoformat()


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the default asked for and print (or publish) the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--agent", help="The agent to measure (default: the game's default).")
    parser.add_argument("--baseline", help="The agent to beat (default: BASELINES).")
    parser.add_argument("--games", type=int, default=400, help="Games an opponent (400).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--publish", action="store_true", help="Write it into docs/agents.md.")
    options = parser.parse_args(argv)
    plugin = plugin_for(options.game)
    agent = options.agent or plugin.matchup_agents[0]
    baseline = options.baseline or BASELINES[plugin.slug]
    words = list(sys.argv[1:] if argv is None else argv)
    command = "bench/defaults.py " + " ".join(words)
    try:
        against_baseline: Match | str = baseline
        if not same_agent(plugin, agent, baseline):
            against_baseline = measure(
                plugin, agent, baseline, options.games, options.seed, options.jobs
            )
        against_random = measure(plugin, agent, ANCHOR, options.games, options.seed, options.jobs)
    except ValueError as error:
        parser.error(str(error))
    block = report(plugin, agent, against_baseline, against_random, command)
    print(block)
    if options.publish:
        write_block(DOC, f"defaults:{plugin.slug}", block, SECTION)
        print(f"published in {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
