"""Reggae Revolution's table: the lineup, the symbol pools, the villains with what they suppress
and the gifts on them, the scored pairs, the pairs still missing and those only a wild card can
still score (with a word when the deal can no longer be won), and each player's hand and
piles (the game is co-operative and hands are open; draw piles are counts)."""

from __future__ import annotations

from typing import Any

from rules.engines.core.table import card, card_name, counter, phase_words, seat, table, zone
from rules.engines.reggae_revolution.state import ReggaeState


def _keys(keys: list[str], owner: int | None = None) -> list[dict[str, Any]]:
    return [card(key, owner=owner) for key in keys]


def reggae_table(state: ReggaeState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` (every seat sees the same: hands are open, piles are counts)."""
    view = state.observation(0 if viewer is None else viewer)
    seats = [
        seat(
            p,
            f"Player {p + 1}",
            active=view["active_player"] == p,
            counters=[
                counter("Hand", len(side["hand"])),
                counter("Draw pile", side["draw_pile"]),
            ],
            zones=[
                zone("hand", "Hand", _keys(side["hand"], p)),
                zone("draw", "Draw pile", [], count=side["draw_pile"]),
                zone("discard", "Discard pile", _keys(side["discard_pile"], p)),
            ],
        )
        for p, side in enumerate(view["players"])
    ]
    villains = [
        card(
            v["card"],
            notes=[
                f"{v['colour']}",
                f"suppresses {', '.join(v['suppresses']) or 'nothing'}",
                f"persuasion {v['persuasion']}",
                *(
                    [f"{len(v['gifts'])} gifts: {', '.join(card_name(g) for g in v['gifts'])}"]
                    if v["gifts"]
                    else []
                ),
            ],
        )
        for v in view["villains"]
    ]
    pools = [counter(kind.title(), amount) for kind, amount in view["pool"].items() if amount]
    missing = ["+".join(pair) for pair in view["missing_pairs"]]
    gone = ["+".join(pair) for pair in view["out_of_reach"]]
    # a deal lost whatever the team does says so, with the pairs no card of theirs can score
    reach = [counter("Only a wild card can score", ", ".join(gone))] if gone else []
    if not view["can_still_win"] and not view["result"]:
        reach.append(counter("This deal", "can no longer be won"))
    return table(
        viewer,
        counters=[
            counter("Turn", view["turn"]),
            counter("Phase", phase_words(view["phase"])),
            *pools,
            counter("Suppressed", ", ".join(view["suppressed"]) or "none"),
            counter("Pairs still to score", ", ".join(missing) or "none"),
            *reach,
            counter("Villain deck", view["villain_deck"]),
            counter("Main deck", view["main_deck"]),
        ],
        seats=seats,
        shared=[
            zone("lineup", "Lineup", _keys([k for k in view["lineup"] if k is not None])),
            zone(
                "starters",
                "Starter piles (the top card of each)",
                _keys([state.table[pile[-1]].key for pile in state.starter_piles.values() if pile]),
                count=sum(view["starter_piles"].values()),
            ),
            zone("villains", "Villains", villains),
            zone("scored", "Scored", _keys(view["scored"])),
            zone("resolving", "Being resolved", _keys(view["resolving"])),
            zone("destroyed", "Destroyed", _keys(view["destroyed"])),
        ],
    )
