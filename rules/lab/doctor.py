"""The deck doctor: one-card swaps of a deck raced against a gauntlet.

A doctor job takes a deck and a gauntlet (decks of the same game) and:

1. **proposes swaps**: take one copy of card X out, put one copy of card Y in, in the same
   zone, where Y has X's card type: first the cards of the deck itself and of the gauntlet
   (cards known to be playable there), then the game's other cards, or only the cards the user
   names; and exchanges of two cards of the deck between its zones (a Reggae Revolution main-deck
   card dealt to the lineup instead of a lineup card). The cheap screen walks them in a seeded
   order (known cards first) and keeps a swap only when the swapped deck passes
   ``decks.validation`` (its game, its format, its variant) and when the swap changes what the
   engine is handed (Reign Absolute's engine plays the faction, so no swap does), until
   ``max_swaps`` are kept or ``MAX_SCREENED`` were validated.
2. **races them** by sequential halving: every round, each swap still in the race plays
   ``games`` new games against every gauntlet deck (doubling each round), the unchanged deck
   plays the very same games (the same game numbers, hence the same seeds and seats: common
   random numbers), and the better half (by wins minus the unchanged deck's wins on those
   games) goes on, until ``top`` remain, which play the last round.
3. **reports** each finalist's change in win rate (the mean of the paired differences over its
   games) with a 95% interval corrected by Bonferroni for every swap tried (a normal interval of
   the paired differences at level ``1 - 0.05 / tried``).

Each round is one chunk of the job (a chunk is stored once, so a round is never counted twice);
a round reads the stored earlier rounds to know which swaps are still in. Game ``j`` against
gauntlet deck ``o`` is the job's game number ``o * STRIDE + j`` for every variant of the deck,
so its seed and its seats do not depend on the round, the chunking or the swap.

In a co-operative game (Reggae Revolution) the gauntlet decks are team-mates: the deck sits
at a table with each of them (or, with none, alone with a team of ``players``) and its result
is the team's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from rules.engines.core import DeckCards, SetupError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from decks.models import Deck
    from rules.lab.plans import JobPlan
    from rules.models import SimulationJob

#: game ``j`` against gauntlet deck ``o`` is job game ``o * STRIDE + j`` (an even stride keeps
#: the seat rotation of game ``j`` the same against every gauntlet deck)
STRIDE = 1_000_000
#: the family-wise error rate of the reported intervals
ALPHA = 0.05
MAX_GAUNTLET = 8
#: pairs (out, in) the screen validates at most before sampling
MAX_SCREENED = 1000


class DoctorError(ValueError):
    """A deck, gauntlet or setting a doctor job cannot use; the message says why."""


@dataclass(frozen=True)
class Swap:
    """One copy of ``out`` replaced by one copy of ``into``, in ``zone``; with a ``source``
    zone, ``into`` comes from that zone of the deck and ``out`` goes there (an exchange between
    zones, such as a card of Reggae Revolution's main deck dealt to the lineup instead)."""

    out: str
    into: str
    zone: str
    source: str | None = None

    def text(self) -> str:
        where = f" [{self.zone}]" if self.zone else ""
        moved = (
            f" ({self.into} from {self.source or 'the deck'})" if self.source is not None else ""
        )
        return f"-{self.out} +{self.into}{where}{moved}"

    @classmethod
    def of(cls, item: Mapping[str, Any]) -> Swap:
        """The swap a stored swap (``{"out", "in", "zone", "source"}``) stands for."""
        return cls(item["out"], item["in"], item["zone"], item.get("source"))


# -- racing schedule ------------------------------------------------------------------------------


def racing_schedule(candidates: int, top: int, games: int) -> list[dict[str, int]]:
    """Sequential halving's rounds: per round, how many swaps are in it (``alive``) and how many
    new games each plays against every gauntlet deck (``games``, doubling each round)."""
    if candidates < 1:
        return []
    top = max(1, min(top, candidates))
    rounds = [{"alive": candidates, "games": games}]
    while rounds[-1]["alive"] > top:
        alive = max(top, math.ceil(rounds[-1]["alive"] / 2))
        rounds.append({"alive": alive, "games": rounds[-1]["games"] * 2})
    return rounds


def round_games(schedule: Sequence[Mapping[str, int]], opponents: int) -> list[int]:
    """Games each round plays: the swaps in it and the unchanged deck, against every opponent."""
    return [(int(r["alive"]) + 1) * int(r["games"]) * opponents for r in schedule]


def round_first_game(schedule: Sequence[Mapping[str, int]], index: int) -> int:
    """The first per-opponent game number of round ``index``."""
    return sum(int(r["games"]) for r in schedule[:index])


# -- statistics -----------------------------------------------------------------------------------


def paired_results(
    rows: Sequence[Sequence[Any]],
) -> tuple[dict[tuple[int, int], int], dict[int, dict[tuple[int, int], int]]]:
    """Outcome rows ``[variant, opponent, game, won, ...]`` as the unchanged deck's results by
    (opponent, game) and each swap's by the same keys."""
    base: dict[tuple[int, int], int] = {}
    swaps: dict[int, dict[tuple[int, int], int]] = {}
    for variant, opponent, game, won, *_ in rows:
        key = (int(opponent), int(game))
        if int(variant) < 0:
            base[key] = int(won)
        else:
            swaps.setdefault(int(variant), {})[key] = int(won)
    return base, swaps


def swap_differences(
    base: Mapping[tuple[int, int], int], own: Mapping[tuple[int, int], int]
) -> list[int]:
    """The paired differences (swap minus unchanged deck) over the games both played."""
    return [won - base[key] for key, won in sorted(own.items()) if key in base]


def alive_after(rows: Sequence[Sequence[Any]], alive: Sequence[int], keep: int) -> list[int]:
    """The ``keep`` swaps of ``alive`` with the largest sum of paired differences so far (ties:
    the earlier swap), in swap order."""
    base, swaps = paired_results(rows)
    scored = sorted(alive, key=lambda s: (-sum(swap_differences(base, swaps.get(s, {}))), s))
    return sorted(scored[:keep])


def difference_interval(differences: Sequence[int], tried: int) -> tuple[float, float, float]:
    """The mean paired difference and its two-sided interval at family-wise level ``ALPHA``
    over ``tried`` comparisons (Bonferroni), by the normal approximation; a difference can be
    -1, 0 or 1, so the interval is clipped to [-1, 1]."""
    n = len(differences)
    if n == 0:
        return 0.0, -1.0, 1.0
    mean = sum(differences) / n
    if n < 2:
        return mean, -1.0, 1.0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    # a sample of identical differences still leaves doubt: at least one game in n either way
    spread = math.sqrt(max(variance, 1.0 / n) / n)
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * max(tried, 1)))
    return mean, max(-1.0, mean - z * spread), min(1.0, mean + z * spread)


def doctor_report(spec: Mapping[str, Any], rows: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """The doctor's results from every stored round's outcome rows: the unchanged deck's win
    rate, and per swap that reached the last round its change in win rate with the corrected
    interval, best first."""
    from rules.engines.core.intervals import wilson_interval

    base, swaps = paired_results(rows)
    tried = len(spec["swaps"])
    schedule = spec["schedule"]
    base_wins = sum(base.values())
    low, high = wilson_interval(base_wins, len(base))
    finalists = []
    rounds_of: dict[int, int] = {}
    for variant, _, game, *_ in rows:
        if int(variant) >= 0:
            first = max(r for r in range(len(schedule)) if round_first_game(schedule, r) <= game)
            rounds_of[int(variant)] = max(rounds_of.get(int(variant), 0), first + 1)
    for index, swap in enumerate(spec["swaps"]):
        own = swaps.get(index, {})
        if not own:
            continue
        differences = swap_differences(base, own)
        mean, ci_low, ci_high = difference_interval(differences, tried)
        finalists.append(
            {
                "swap": index,
                "out": swap["out"],
                "in": swap["in"],
                "zone": swap["zone"],
                "source": swap.get("source"),
                "games": len(differences),
                "rounds": rounds_of.get(index, 0),
                "wins": sum(own.values()),
                "base_wins": sum(base[key] for key in own if key in base),
                "delta": round(mean, 6),
                "ci_low": round(ci_low, 6),
                "ci_high": round(ci_high, 6),
                "significant": ci_low > 0,
            }
        )
    finalists.sort(key=lambda f: (-f["rounds"], -f["delta"], f["swap"]))
    top = int(spec.get("top", 3))
    best = sorted(finalists[:top], key=lambda f: (-f["delta"], f["swap"]))
    return {
        "tried": tried,
        "alpha": ALPHA,
        "correction": "bonferroni",
        "base": {
            "games": len(base),
            "wins": base_wins,
            "win_rate": round(base_wins / len(base), 6) if base else None,
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
        },
        "best": best,
        "raced": sorted(finalists, key=lambda f: f["swap"]),
        "screen": spec.get("screen", {}),
    }


# -- playing a round ------------------------------------------------------------------------------


def swapped_records(
    records: Sequence[Mapping[str, Any]], swap: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The deck's records with the first copy of ``out`` (in ``zone``) replaced, in place, by
    ``in``'s record; for an exchange, the first ``in`` of the ``source`` zone by ``out``'s."""
    result = [dict(record) for record in records]

    def first(name: str, zone: str) -> int:
        for position, record in enumerate(result):
            if record["name"] == name and (record.get("zone") or "") == zone:
                return position
        raise DoctorError(f"The deck holds no {name} to take out.")

    out = first(swap["out"], swap["zone"])
    source = swap.get("source")
    if source is not None:
        into = first(swap["in"], source)
        result[into] = {**result[out], "zone": source}
    result[out] = {**swap["record"], "zone": swap["zone"]}
    return result


def _table_sides(
    cooperative: bool, gauntlet: bool, players: int, opponent: int, side: int | None
) -> list[int]:
    """The job's decks seat by seat at gauntlet table ``opponent`` (0 the doctored deck, then
    the gauntlet's), from the side ``table_setups`` says the doctored deck sits in."""
    if cooperative:
        return [0, opponent + 1] if gauntlet else [0] * players
    if side is None:
        return [0]
    return [0, opponent + 1] if side == 0 else [opponent + 1, 0]


def table_setups(
    slug: str, spec: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[tuple[dict[str, Any], int | None]]:
    """Per gauntlet deck, the engine setup of the deck ``records`` at its table and the side the
    deck sits in (None in a co-operative game: the team wins or loses together)."""
    from rules.matchups import seat_plan

    deck = DeckCards(spec["label"], tuple(records), spec["variant"])
    tables = []
    opponents = spec["opponents"] or [None]
    for opponent in opponents:
        decks = [deck]
        if opponent is not None:
            decks.append(
                DeckCards(opponent["label"], tuple(opponent["records"]), opponent["variant"])
            )
        players = int(spec["players"]) if spec["cooperative"] else len(decks)
        plan = seat_plan(slug, decks, players=players, first=0)
        side = None if spec["cooperative"] else plan.seats.index(0)
        tables.append((plan.setup, side))
    return tables


def round_play(
    job: SimulationJob,
    index: int,
    earlier: Sequence[Sequence[Any]],
    on_game: Callable[[int], object] | None = None,
) -> tuple[dict[str, Any], list[list[Any]]]:
    """Play round ``index`` of a doctor job after the ``earlier`` rounds' outcome rows: the
    unchanged deck's counts per gauntlet deck (the job's pairings) and one row per game,
    ``[variant (-1 the unchanged deck, else the swap), opponent, game, won, draw, length]``.
    ``on_game`` is told after each game how many of the round's games are played, so the
    job's progress rises game by game within a round."""
    from rules.adapters import engine_for
    from rules.services import chunk_totals, play_game, totals_add

    spec = job.doctor
    schedule = spec["schedule"]
    alive = list(range(len(spec["swaps"])))
    for number in range(1, index + 1):
        before = round_first_game(schedule, number)
        rows_before = [row for row in earlier if int(row[2]) < before]
        alive = alive_after(rows_before, alive, int(schedule[number]["alive"]))
    engine = engine_for(job.game.slug)
    first = round_first_game(schedule, index)
    games = range(first, first + int(schedule[index]["games"]))
    variants: list[tuple[int, list[tuple[dict[str, Any], int | None]]]] = [
        (-1, table_setups(job.game.slug, spec, spec["records"]))
    ]
    for swap in alive:
        records = swapped_records(spec["records"], spec["swaps"][swap])
        variants.append((swap, table_setups(job.game.slug, spec, records)))
    agents = spec["agents"]
    totals: dict[str, Any] = {}
    rows: list[list[Any]] = []
    for variant, tables in variants:
        for opponent, (setup, side) in enumerate(tables):
            for game in games:
                report = play_game(engine, setup, agents, job.seed, opponent * STRIDE + game)
                summary = report.game_summaries[0]
                if side is None:
                    won = int(bool(report.team and report.team.wins))
                else:
                    won = int(summary["winner"] == side)
                rows.append(
                    [
                        variant,
                        opponent,
                        game,
                        won,
                        int(summary["winner"] is None),
                        summary["length"],
                    ]
                )
                if variant < 0:
                    key = str(opponent)
                    totals[key] = totals_add(totals.get(key, {}), chunk_totals(report))
                if on_game is not None:
                    on_game(len(rows))
    return totals, rows


# -- planning -------------------------------------------------------------------------------------


def _entries_swapped(entries: Sequence[Any], swap: Swap) -> list[Any]:
    """The deck's decklist entries with ``swap`` made (in their order, new lines last)."""
    from decks.decklist import DecklistEntry

    counts: dict[tuple[str, str], int] = {}
    for entry in entries:
        counts[(entry.name, entry.zone)] = counts.get((entry.name, entry.zone), 0) + entry.quantity
    moves = [((swap.out, swap.zone), -1), ((swap.into, swap.zone), 1)]
    if swap.source is not None:
        moves += [((swap.into, swap.source), -1), ((swap.out, swap.source), 1)]
    for key, change in moves:
        counts[key] = counts.get(key, 0) + change
    return [
        DecklistEntry(name, quantity, zone, 0, zone)
        for (name, zone), quantity in counts.items()
        if quantity > 0
    ]


def swap_legal(deck: Deck, swap: Swap) -> bool:
    """The deck with ``swap`` made passes its game's, format's and variant's validation."""
    from decks.selectors import deck_entries
    from decks.validation import validate

    report = validate(
        deck.game.slug,
        _entries_swapped(deck_entries(deck), swap),
        format=deck.format_id,
        variant=deck.variant or None,
    )
    return bool(report.legal)


def swap_candidates(
    deck: Deck,
    gauntlet: Sequence[Deck],
    spec: Mapping[str, Any],
    *,
    ins: Sequence[str] = (),
    outs: Sequence[str] = (),
    max_swaps: int,
    seed: int,
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The screened swaps (``{"out", "in", "zone", "record"}``) and the screen's counts."""
    from cards.models import Card
    from decks.selectors import deck_entries
    from decks.validation import validate

    entries = deck_entries(deck)
    cards = {
        card.name: card for card in Card.objects.filter(game=deck.game).select_related("card_type")
    }

    def type_of(name: str) -> str:
        card = cards.get(name)
        return card.card_type.slug if card is not None and card.card_type_id else ""

    wanted_ins = {name.casefold() for name in ins}
    wanted_outs = {name.casefold() for name in outs}
    pool: dict[str, set[str]] = {}
    for source in (deck, *gauntlet):
        for entry in deck_entries(source):
            pool.setdefault(entry.zone, set()).add(entry.name)
    if wanted_ins:
        named = [name for name in cards if name.casefold() in wanted_ins]
        pool = {zone: set(named) for zone in {e.zone for e in entries}}
    pairs: list[Swap] = []
    others: list[Swap] = []
    for entry in entries:
        if wanted_outs and entry.name.casefold() not in wanted_outs:
            continue
        known = pool.get(entry.zone, set())
        for name in sorted(known):
            if name != entry.name and type_of(name) == type_of(entry.name):
                pairs.append(Swap(entry.name, name, entry.zone))
        if not wanted_ins:  # the game's other cards of the type, after the known ones
            for name in sorted(cards):
                if name not in known and type_of(name) == type_of(entry.name):
                    others.append(Swap(entry.name, name, entry.zone))
        # exchanges with the deck's other zones (each pair of cards once)
        for other in entries:
            if (
                other.zone != entry.zone
                and other.name != entry.name
                and (entry.zone, entry.name) < (other.zone, other.name)
                and (not wanted_ins or other.name.casefold() in wanted_ins)
                and type_of(other.name) == type_of(entry.name)
            ):
                pairs.append(Swap(entry.name, other.name, entry.zone, other.zone))
    shuffler = random.Random(seed)
    shuffler.shuffle(pairs)
    shuffler.shuffle(others)
    pairs += others
    base_setups = table_setups(deck.game.slug, spec, spec["records"])
    counts = {"pairs": len(pairs), "illegal": 0, "no_effect": 0, "screened": 0, "kept": 0}
    kept: list[dict[str, Any]] = []
    for swap in pairs[:MAX_SCREENED]:
        if len(kept) >= max_swaps:
            break
        counts["screened"] += 1
        report = validate(
            deck.game.slug,
            _entries_swapped(entries, swap),
            format=deck.format_id,
            variant=deck.variant or None,
        )
        if not report.legal:
            counts["illegal"] += 1
            continue
        item = {
            "out": swap.out,
            "in": swap.into,
            "zone": swap.zone,
            "source": swap.source,
            "record": cards[swap.into].record(),
        }
        try:
            setups = table_setups(deck.game.slug, spec, swapped_records(spec["records"], item))
        except SetupError:
            counts["illegal"] += 1
            continue
        if setups == base_setups:
            counts["no_effect"] += 1
            continue
        kept.append(item)
    kept.sort(key=lambda s: (s["out"], s["zone"], s["in"], s["source"] or ""))
    counts["kept"] = len(kept)
    return kept, counts


def doctor_plan(
    *,
    deck: Deck,
    gauntlet: Sequence[Deck],
    agent: str | None = None,
    games: int = 2,
    max_swaps: int = 16,
    top: int = 3,
    players: int = 2,
    ins: Sequence[str] = (),
    outs: Sequence[str] = (),
    seed: int = 0,
) -> JobPlan:
    """A doctor job's plan: the unchanged deck against each gauntlet deck (its pairings), the
    screened swaps and the racing schedule (the plan's ``doctor``); ``seed`` orders the sample
    of swaps when the screen keeps more than ``max_swaps``."""
    from rules.lab.plans import JobPlan, SimulationJobError, plan_deck_snapshots, plan_decks_check
    from rules.matchups import PlayRefused, deck_cards, play_agents_check, play_setup_check

    decks = [deck, *gauntlet]
    plugin = plan_decks_check(decks)
    if len(gauntlet) > MAX_GAUNTLET:
        raise SimulationJobError(
            f"A gauntlet has at most {MAX_GAUNTLET} decks, not {len(gauntlet)}."
        )
    if not plugin.cooperative and not gauntlet:
        raise SimulationJobError("Pick at least one gauntlet deck to play against.")
    if games < 1 or max_swaps < 1 or top < 1:
        raise SimulationJobError("Games, swaps and finalists are 1 or more.")
    agent = agent or plugin.matchup_agents[0]
    try:
        play_agents_check(plugin, [agent])
    except PlayRefused as error:
        raise SimulationJobError(str(error)) from error
    own = deck_cards(deck)
    spec: dict[str, Any] = {
        "label": own.label,
        "variant": own.variant,
        "records": [dict(record) for record in own.records],
        "cooperative": plugin.cooperative,
        "players": players if plugin.cooperative and not gauntlet else len(decks),
        "opponents": [
            {"label": c.label, "variant": c.variant, "records": [dict(r) for r in c.records]}
            for c in (deck_cards(d) for d in gauntlet)
        ],
    }
    try:
        tables = table_setups(plugin.slug, spec, spec["records"])
    except SetupError as error:
        raise SimulationJobError(str(error)) from error
    seats = 2 if not plugin.cooperative else int(spec["players"])
    spec["agents"] = [agent] * seats
    table_sides = [
        _table_sides(plugin.cooperative, bool(gauntlet), int(spec["players"]), opponent, side)
        for opponent, (_, side) in enumerate(tables)
    ]
    labels = [own.label, *(opponent["label"] for opponent in spec["opponents"])]
    try:  # every table: any gauntlet deck the engine cannot play is refused by its name
        for (setup, _), sides in zip(tables, table_sides, strict=True):
            play_setup_check(plugin.slug, setup, spec["agents"], [labels[s] for s in sides])
    except PlayRefused as error:
        raise SimulationJobError(str(error)) from error
    swaps, screen = swap_candidates(
        deck, gauntlet, spec, ins=ins, outs=outs, max_swaps=max_swaps, seed=seed
    )
    if not swaps:
        raise SimulationJobError(
            f"No legal one-card swap changes what the {plugin.name} engine plays for "
            f"{deck.name} ({screen['pairs']} swaps looked at, {screen['illegal']} illegal, "
            f"{screen['no_effect']} without effect on play)."
        )
    schedule = racing_schedule(len(swaps), top, games)
    spec.update(swaps=swaps, schedule=schedule, top=min(top, len(swaps)), screen=screen)
    per_opponent = round_first_game(schedule, len(schedule))
    pairings = []
    for (setup, _), sides in zip(tables, table_sides, strict=True):
        pairings.append(
            {"sides": sides, "agents": list(spec["agents"]), "setup": setup, "games": per_opponent}
        )
    return JobPlan(
        plugin.slug,
        plan_deck_snapshots(decks),
        pairings,
        doctor=spec,
        chunk_games=round_games(schedule, len(tables)),
    )


def doctor_deck_for(*, deck: Deck, user: User) -> Deck:
    """The deck a doctor job of ``user`` works on: ``deck`` itself when it is theirs, else a new
    private copy of it in their decks (``decks.services.deck_clone``, which refuses another's
    private deck), so that the job's swaps can become versions of a deck they own."""
    from decks.selectors import deck_owned_by
    from decks.services import deck_clone

    if deck_owned_by(deck, user):
        return deck
    return deck_clone(deck=deck, owner=user)


# -- one click: the new version -------------------------------------------------------------------


def doctor_swap_apply(*, job: SimulationJob, swap: int, actor: User | None) -> Deck:
    """Make swap ``swap`` of a finished doctor job in its deck, as a new version of the deck.

    Refused (``DoctorError``) when the job has no such swap, when the deck changed since the
    job started, or when the swapped deck no longer passes validation; ``decks.services``
    refuses an actor who does not own the deck."""
    from decks.models import Deck
    from decks.selectors import deck_entries
    from decks.services import deck_update

    swaps = job.doctor.get("swaps", [])
    if not 0 <= swap < len(swaps):
        raise DoctorError("The job has no such swap.")
    snapshot = job.decks[0]
    deck = Deck.objects.filter(pk=snapshot["deck"]).first()
    if deck is None:
        raise DoctorError("The deck was deleted.")
    if deck.version != snapshot["version"]:
        raise DoctorError(
            f"{deck.name} changed since the job started (version {snapshot['version']}, now "
            f"{deck.version}): run the doctor again."
        )
    chosen = Swap.of(swaps[swap])
    if not swap_legal(deck, chosen):
        raise DoctorError(f"{deck.name} with {chosen.text()} no longer passes validation.")
    entries = _entries_swapped(deck_entries(deck), chosen)
    return deck_update(
        deck=deck,
        actor=actor,
        expected_version=snapshot["version"],
        decklist=[(e.name, e.quantity, e.zone) for e in entries],
    )


# -- reading the results --------------------------------------------------------------------------


def swap_worse(swap: Mapping[str, Any]) -> bool:
    """The swap's whole interval of the change in win rate lies below 0: the deck is worse with
    it, even allowing for every swap tried (the page offers no new version of it)."""
    return float(swap["ci_high"]) < 0


def doctor_verdict(report: Mapping[str, Any]) -> str | None:
    """One plain sentence when no swap beat the deck (no finalist's whole interval above 0),
    saying whether the best one merely did better on these games; None when a swap did beat
    it, or before any swap has played."""
    best = list(report["best"])
    if not best or any(swap["significant"] for swap in best):
        return None
    top = max(best, key=lambda swap: swap["delta"])
    if top["delta"] > 0:
        return (
            f"No swap beat the deck: the best, {top['in']} for {top['out']}, won "
            f"{100 * top['delta']:+.1f} points more on these games, but its interval reaches "
            "below 0, so the gain may be luck. More games a swap would tell."
        )
    return (
        f"No swap beat the deck: none of the {report['tried']} swaps raced won more often than "
        "the unchanged deck on the same games. The deck is best kept as it is, as far as these "
        "swaps go."
    )


# -- text -----------------------------------------------------------------------------------------


def doctor_text(report: Mapping[str, Any]) -> str:
    """The doctor's results as a text table: the unchanged deck's win rate, then the best swaps
    with the change in win rate and its corrected 95% interval, in percentage points (``*`` a
    better deck, ``-`` a worse one), and the verdict when no swap beat the deck."""
    base = report["base"]
    rate = 100 * (base["win_rate"] or 0)
    lines = [
        f"Unchanged deck: {rate:.1f}% of {base['games']} games "
        f"({100 * base['ci_low']:.1f}-{100 * base['ci_high']:.1f}, Wilson 95%)",
        f"{report['tried']} swaps tried; intervals are 95% for all of them at once (Bonferroni).",
        "",
        f"{'#':>3}  {'out':<24} {'in':<24} {'games':>6} {'change':>8}  interval",
    ]
    for number, swap in enumerate(report["best"], start=1):
        mark = "  *" if swap["significant"] else ("  -" if swap_worse(swap) else "")
        card_in = (
            swap["in"] if swap.get("source") is None else f"{swap['in']} (from {swap['source']})"
        )
        lines.append(
            f"{number:>3}  {swap['out']:<24} {card_in:<24} {swap['games']:>6} "
            f"{100 * swap['delta']:>+7.1f}  "
            f"({100 * swap['ci_low']:+.1f} to {100 * swap['ci_high']:+.1f}){mark}"
        )
    lines.append("")
    lines.append(
        "* the whole interval is above 0: a better deck, even allowing for every swap tried"
    )
    lines.append(
        "- the whole interval is below 0: a worse deck, even allowing for every swap tried"
    )
    verdict = doctor_verdict(report)
    if verdict is not None:
        lines.append("")
        lines.append(verdict)
    return "\n".join(lines)
