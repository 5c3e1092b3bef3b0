"""Hidden setup choices shown to their owner (issue 34, item 2): a card the chooser may look at
while choosing (Reign Absolute's unit about to be placed, §Setup; a Reinforcement about to go
under a unit) is on the chooser's page with its name, strength and image, next to the choices,
and on no other seat's table."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from rules.engines.core import CHANCE, find_plugin
from rules.models import PlayedGame
from rules.play import play_position
from tests.web.test_matchup_runs import two_decks

pytestmark = pytest.mark.django_db

REIGN = "reign-absolute"


def _placing(state, seat: int):
    """The card ``seat`` is about to place (its CardSpec), or None."""
    task = state.tasks[0] if state.tasks else None
    if task and task[0] in ("place", "place_reinforcement") and task[1] == seat:
        return state.table[task[2]]
    return None


def test_reign_absolute_shows_the_player_the_unit_they_are_placing(alice, user):
    # given a Reign Absolute game against the AI, in setup with the player to place a unit
    a, b = two_decks(user, REIGN)
    started = alice.post(reverse("play-new"), {"deck": a.pk, "opponent": b.pk, "agent": "easy"})
    assert started.status_code == 302
    played = PlayedGame.objects.get()
    for _ in range(4):  # its first four placements
        state = play_position(played)
        unit = _placing(state, played.seat)
        assert unit is not None and state.tasks[0][0] == "place", "setup: the player places"
        # when the player opens the game
        page = alice.get(reverse("play-game", args=[played.pk]))
        body = page.content.decode()
        # then next to the choices the page shows that unit: its name, strength and image
        beside = re.search(r'data-testid="play-placing">(.*?)<form', body, re.S)
        assert beside is not None, "the unit to place is shown beside the choices"
        shown = beside[1]
        assert "Unit you are placing" in shown
        assert f'<span class="tcard-label">{unit.name}</span>' in shown
        assert f"strength {unit.strength}" in shown and "only you see it" in shown
        assert re.search(r'<img src="[^"]+"[^>]* alt="' + re.escape(unit.name) + '"', shown)
        assert body.index('data-testid="play-placing"') < body.index('data-testid="play-choice"')
        # and the choices name it too (for keyboard and screen-reader users)
        choices = re.findall(r'data-testid="play-choice">([^<]*)</button>', body)
        assert choices and all(c.startswith(f"Place {unit.name} on ") for c in choices)
        # and the rival's seat on the table does not show it
        rival_table = find_plugin(REIGN).table(state, 1 - played.seat)
        assert all(z["id"] != "to-place" for s in rival_table["seats"] for z in s["zones"])
        # when the player places it, the next unit of theirs is shown instead
        answer = alice.post(
            reverse("play-move", args=[played.pk]), {"action": 0, "version": played.version}
        )
        assert answer.status_code == 302
        played.refresh_from_db()


@pytest.mark.parametrize("seed", range(6))
def test_a_card_being_placed_is_on_its_owners_table_only(seed):
    # given random Reign Absolute games, setup and play
    from rules.adapters import engine_for

    engine = engine_for(REIGN)
    plugin = find_plugin(REIGN)
    state = engine.new_initial_state(seed, {"factions": ["empire", "elves"]})
    rng = random.Random(seed)
    seen = set()
    for _ in range(600):
        if state.is_terminal():
            break
        player = state.current_player()
        if player != CHANCE:
            placing = _placing(state, player)
            if placing is not None:
                # then the chooser's table shows the card it is placing, beside its choices
                mine = plugin.table(state, player)
                zones = [z for s in mine["seats"] for z in s["zones"] if z["beside_choices"]]
                assert [c["key"] for z in zones for c in z["cards"]] == [placing.key]
                assert zones[0]["cards"][0]["owner"] == player
                # and no other seat is told which card it is
                for other in range(state.n):
                    if other != player:
                        theirs = plugin.table(state, other)
                        assert not [
                            z for s in theirs["seats"] for z in s["zones"] if z["beside_choices"]
                        ]
                seen.add(state.tasks[0][0])
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(state.sample_chance())
    assert "place" in seen


def test_a_secret_draft_shows_the_drafter_the_tiles_it_passed_and_the_rival_nothing(alice):
    # given a secret draft of Regality vs Religion from the demo set, the player keeping first
    from decks.demo import demo_load
    from decks.models import Deck
    from tests.decks.conftest import SAMPLES_DIR

    demo_load(samples_dir=SAMPLES_DIR)
    decks = Deck.objects.filter(game__slug="regality-vs-religion", variant="secret-draft")
    mine = next(d for d in decks if "King" in d.name)
    theirs = next(d for d in decks if d.pk != mine.pk)
    started = alice.post(
        reverse("play-new"), {"deck": mine.pk, "opponent": theirs.pk, "agent": "easy"}
    )
    assert started.status_code == 302
    played = PlayedGame.objects.get()
    first = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    offered = re.findall(r"Keep ([A-Z][a-z]+)", first)
    assert len(offered) == 4, "the player draws four tiles and sees them"
    # when the player keeps the first and passes the other three
    kept = alice.post(
        reverse("play-move", args=[played.pk]), {"action": 0, "version": played.version}
    )
    assert kept.status_code == 302
    played.refresh_from_db()
    # then, at their next choice, their page still shows the three tiles they passed
    page = alice.get(reverse("play-game", args=[played.pk])).content.decode()
    zone = re.search(r'data-zone="passed">(.*?)</div>', page, re.S)
    assert zone is not None and "Passed to the rival" in zone[1]
    passed = re.findall(r'<span class="tcard-label">([^<]+)</span>', zone[1])
    assert sorted(passed) == sorted(offered[1:])
    # and the rival's table shows no such zone on the player's side (only its own passes)
    state = play_position(played)
    rival = find_plugin("regality-vs-religion").table(state, 1 - played.seat)
    assert all(z["id"] != "passed" for z in rival["seats"][played.seat]["zones"])


def test_reggae_revolution_names_the_gifts_on_a_villain_as_everyone_sees_them():
    # given Reggae Revolution games played at random until a villain holds gifts
    from rules.adapters import engine_for
    from rules.engines.core.table import card_name

    engine = engine_for("reggae-revolution")
    plugin = find_plugin("reggae-revolution")
    for seed in range(40):
        state = engine.new_initial_state(seed, {"players": 1})
        rng = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance())
                continue
            gifted = [v for v in state.observation(player)["villains"] if v["gifts"]]
            if gifted:
                # then the villain on the table names each gift, not only how many
                villains = next(
                    z for z in plugin.table(state, player)["shared"] if z["id"] == "villains"
                )
                notes = " ".join(n for c in villains["cards"] for n in c["notes"])
                for villain in gifted:
                    for gift in villain["gifts"]:
                        assert card_name(gift) in notes
                return
            state.apply(rng.choice(state.legal_actions()))
    pytest.skip("no villain received a gift in these games")
