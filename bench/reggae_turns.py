"""Where do Reggae Revolution's turns go? The game's team policy (or a named one) plays every
seat of seeded deals at each table size of the sample setups, and each turn is classed by what
it did for the score area.

    .venv/bin/python bench/reggae_turns.py --deals 300
    .venv/bin/python bench/reggae_turns.py --deals 300 --policy plain

For each table size it prints the deals won and how the rest ended, the mean length of a deal in
turns, the share of turns that covered a new pair (at most one a turn, two with an extra Yay:
sixteen are needed, §Object and §Yay), and, of the turns whose main phase began with no card in
the active hand for a missing pair (a wild card counts), how often the active player owned none
(its draw pile, hand and discard pile) while the rest of the team owned at least one: cards
bought by one seat reach only that seat's hand (§Pay, §Obtain). It also counts the near-wins,
the deals lost with 12 or more pairs covered. Figures only, nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents.team import game_policy
from rules.engines.core import plugin_for
from rules.engines.reggae_revolution.policy import fills_missing
from rules.engines.reggae_revolution.state import ReggaeState
from rules.ladder import game_seed

SLUG = "reggae-revolution"
NEAR_WIN = 12


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals at each table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="", help="a policy of the plugin's team_policies")
    options = parser.parse_args(argv)
    plugin = plugin_for(SLUG)
    engine = plugin.game()
    policy = game_policy(SLUG, options.policy)
    for setup in engine.example_setups():
        counts: Counter[str] = Counter()
        ends: Counter[str] = Counter()
        for index in range(options.deals):
            state = engine.new_initial_state(game_seed(options.seed, index), setup).quiet()
            assert isinstance(state, ReggaeState)
            turn, covered, looked = state.turn, state.covered_pair_count(), False
            while not state.is_terminal():
                if not looked and state.phase == "main" and not state.tasks:
                    looked = True
                    missing = state.missing_pairs()
                    hand = state.hand[state.active]
                    if not any(fills_missing(state, c, missing) for c in hand):
                        counts["turns without a scorer in hand"] += 1
                        owners = [
                            sum(1 for c in state.owner_cards(p) if fills_missing(state, c, missing))
                            for p in range(state.n)
                        ]
                        if not owners[state.active] and any(owners):
                            counts["... the active seat owned none, the team some"] += 1
                state.apply(policy(state))
                if state.turn != turn or state.is_terminal():
                    counts["turns"] += 1
                    counts["turns covering a new pair"] += state.covered_pair_count() > covered
                    turn, covered, looked = state.turn, state.covered_pair_count(), False
            won = state.result > 0
            ends["won" if won else state.end_reason()] += 1
            counts["near-wins"] += not won and state.covered_pair_count() >= NEAR_WIN
        turns = counts["turns"]
        dry = counts["turns without a scorer in hand"]
        elsewhere = counts["... the active seat owned none, the team some"]
        print(
            f"{setup['players']} player(s), {options.deals} deals: {dict(sorted(ends.items()))}; "
            f"{turns / options.deals:.1f} turns a deal; "
            f"{counts['turns covering a new pair'] / turns:.1%} of turns covered a new pair; "
            f"{dry / turns:.1%} began with no scorer in hand, and in {elsewhere / max(dry, 1):.1%} "
            f"of those the scorers the team owned were all other seats'; "
            f"{counts['near-wins']} lost with {NEAR_WIN} or more pairs covered"
        )


if __name__ == "__main__":
    main()
