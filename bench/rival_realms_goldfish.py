"""Can a Rival Realms sample deck win at all before its hand locks? Each deck of each sample
setup plays alone against a rival who never acts (a "goldfish": it ends every window, plays no
card and blocks nothing), with the game's policy or a named one.

    .venv/bin/python bench/rival_realms_goldfish.py --games 100
    .venv/bin/python bench/rival_realms_goldfish.py --games 100 --policy dig
    .venv/bin/python bench/rival_realms_goldfish.py --games 400 --decklist my-deck.txt

For each setup and deck it prints the games won (life or a card victory) and how the others
ended (the rival never acts, so a hand that locks ends at the turn limit), the mean turn of a
win, and, over all games, the damage dealt and the realms on the deck's field at the end. A
deck that cannot beat a goldfish cannot beat random or the baseline either, and every such game
ends at a cut-off (ruling 21, docs/rules/rival-realms.md). ``--decklist`` plays one plain
decklist (``fixtures/decks/rival-realms/*.txt`` shows the form) instead of the sample setups, so a
candidate list can be weighed before it replaces a sample deck; an illegal list is refused with
its problems. Figures only, nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.agents.team import game_policy
from rules.engines.core import plugin_for
from rules.engines.rival_realms.decklists import deck_problems, parse_decklist
from rules.engines.rival_realms.game import RivalRealmsGame
from rules.engines.rival_realms.state import END, PASS, RealmsState
from rules.ladder import game_seed, two_seat_setups

SLUG = "rival-realms"


def goldfish(state: RealmsState) -> None:
    """The rival's move: end the window or pass; a forced choice (a discard) takes the first."""
    actions = state.legal_actions()
    state.apply(END if END in actions else PASS if PASS in actions else actions[0])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a deck of each setup")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--policy", default="", help="a policy of the plugin's team_policies")
    parser.add_argument("--decklist", type=Path, help="play this decklist file alone")
    options = parser.parse_args(argv)
    plugin = plugin_for(SLUG)
    engine = plugin.game()
    assert isinstance(engine, RivalRealmsGame)
    policy = game_policy(SLUG, options.policy)
    if options.decklist is None:
        setups = list(enumerate(two_seat_setups(plugin), 1))
    else:
        deck = parse_decklist(options.decklist.read_text(encoding="utf-8"))
        problems = deck_problems(deck, engine.specs)
        if problems:
            parser.error(f"{options.decklist} is not a legal deck: {'; '.join(problems)}")
        # the goldfish's deck never matters: it plays no card
        setups = [(0, {"decks": [deck, engine.sample_decks()[0]]})]
    for number, setup in setups:
        if "first_player" in setup and number > 1:
            continue  # the sample decks again, the other seat first: the goldfish never acts
        for deck_index in (0,) if options.decklist is not None else (0, 1):
            seated = setup if deck_index == 0 else plugin.swap_seats(setup)
            ends: Counter[str] = Counter()
            win_turns: list[int] = []
            damage: list[int] = []
            realms: list[int] = []
            for index in range(options.games):
                state = engine.new_initial_state(
                    game_seed(options.seed, index), {**seated, "first_player": 0}
                ).quiet()
                assert isinstance(state, RealmsState)
                while not state.is_terminal():
                    if state.current_player() == 0:
                        state.apply(policy(state))
                    else:
                        goldfish(state)
                won = state.winner() == 0
                ends["won" if won else state.end_reason()] += 1
                if won:
                    win_turns.append(state.turn)
                damage.append(20 - max(0, state.life[1]))
                realms.append(sum(state.table[c].type == "realm" for c in state.field[0]))
            mean_turn = sum(win_turns) / len(win_turns) if win_turns else float("nan")
            what = options.decklist or f"setup {number}, deck {deck_index + 1}"
            print(
                f"{what}: {dict(sorted(ends.items()))}; "
                f"a win's mean turn {mean_turn:.1f}; damage dealt mean "
                f"{sum(damage) / len(damage):.1f}, max {max(damage)}; realms on the field "
                f"mean {sum(realms) / len(realms):.1f}, max {max(realms)}"
            )


if __name__ == "__main__":
    main()
