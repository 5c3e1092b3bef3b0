"""Card sightings of Reggae Revolution, Regality vs Religion and Reign Absolute (``State.
card_sightings``, docs/doctor.md): per seat the cards played lie among those drawn, which lie
in the deck, each game's own definition holds, a quiet state tells nothing, and a tiny job of
each game gives a card table."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.services import deck_create
from rules.agents import make_agent
from rules.engines.core import get_game
from rules.engines.regality_vs_religion.game import _covered
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.lab.plans import matchup_plan, metagame_plan
from rules.lab.selectors import simulation_job_report
from rules.models import SimulationJob
from tests.rules.jobs_helpers import faction_decks
from tests.web.conftest import make_deck, sample

REGGAE, RVR, REIGN = "reggae-revolution", "regality-vs-religion", "reign-absolute"
SETUPS = {
    REGGAE: [{"players": 1}, {"players": 2}, {"players": 4}],
    RVR: [{"variant": v} for v in ("standard", "old-style", "random", "draft", "secret-draft")],
    REIGN: [{"factions": ["empire", "elves"]}, {"factions": ["empire", "elves", "umbrous"]}],
}


def finished(slug: str, seed: int, setup: dict):
    """A game of ``slug`` played to its end by random agents."""
    state = get_game(slug).new_initial_state(seed, setup)
    agent = make_agent("random", seed=seed)
    while not state.is_terminal():
        state.apply(agent.act(state))
    return state


def nested(state) -> list:
    sightings = state.card_sightings()
    assert sightings is not None and len(sightings) == len(state.returns())
    for seen in sightings:
        assert seen.played <= seen.drew <= seen.deck
        assert seen.drew, "every player holds cards at the start"
    return sightings


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pick=st.integers(0, 10))
@pytest.mark.parametrize("slug", [REGGAE, RVR, REIGN])
def test_played_lies_in_drawn_which_lies_in_the_deck(slug, seed, pick):
    setups = SETUPS[slug]
    nested(finished(slug, seed, setups[pick % len(setups)]))


@pytest.mark.parametrize("slug", [REGGAE, RVR, REIGN])
def test_a_quiet_state_tells_nothing(slug):
    state = get_game(slug).new_initial_state(1, SETUPS[slug][0]).quiet()
    assert state.card_sightings() is None
    assert state.clone().card_sightings() is None


def event_names(state, kinds: tuple[str, ...], player: int, field: str = "card") -> set[str]:
    names = {spec.key: spec.name for spec in state.table}
    return {
        names[event.detail[field]]
        for event in state.events
        if event.kind in kinds and event.player == player and event.detail.get(field) in names
    }


@pytest.mark.parametrize("seed", [3, 4])
def test_reggae_drawn_is_the_hand_ever_held_and_played_the_main_phase_steps(seed):
    game = get_game(REGGAE)
    dealt = game.new_initial_state(seed, {"players": 2, "redraws": False})
    first_hands = [{dealt.table[c].name for c in hand} for hand in dealt.hand]
    state = finished(REGGAE, seed, {"players": 2, "redraws": False})
    sightings = nested(state)
    starters = {spec.name for spec in game.specs if spec.type == "starter"}
    main = {spec.name for spec in game.specs if spec.type in ("main", "wild")}
    for player, seen in enumerate(sightings):
        assert seen.deck == starters | main  # the starting deck and the team's main deck
        assert first_hands[player] <= seen.drew  # the Setup hand
        assert {state.table[c].name for c in state.hand[player]} & seen.deck <= seen.drew
        assert seen.played == event_names(state, ("play", "give", "yay"), player) & seen.deck
        assert seen.played


@pytest.mark.parametrize("seed", [6, 10])
def test_reggae_drawn_is_every_card_its_hand_held_through_reshuffles(seed):
    # an oracle: the hand after every action, plus the cards a villain made it discard at once
    game = get_game(REGGAE)
    state = game.new_initial_state(seed, {"players": 1, "redraws": False})
    agent = make_agent("random", seed=seed)
    team = {spec.name for spec in game.specs if spec.type in ("starter", "main", "wild")}
    held = {state.table[c].name for c in state.hand[0]}
    while not state.is_terminal():
        state.apply(agent.act(state))
        held |= {state.table[c].name for c in state.hand[0]}
    names = {spec.key: spec.name for spec in state.table}
    for event in state.events:
        if event.kind == "suppressed-discard":
            held |= {names[key] for key in event.detail["cards"]}
    seen = nested(state)[0]
    assert seen.drew == (held & team) | seen.played
    bought = {names[e.detail["card"]] for e in state.events if e.kind in ("buy", "gain")}
    assert bought & seen.drew - {spec.name for spec in game.specs if spec.type == "starter"}
    if seed == 10:  # two cards bought stayed in the discard pile: not drawn, though owned
        assert bought - seen.drew and bought - seen.drew <= seen.deck


@pytest.mark.parametrize("variant", ["standard", "old-style", "random", "draft"])
def test_rvr_side_tiles_are_held_and_every_tile_on_the_board_was_placed(variant):
    state = finished(RVR, 5, {"variant": variant})
    sightings = nested(state)
    names = {spec.key: spec.name for spec in state.tables.specs}
    sides = [
        {names[state.tables.keys[t]] for t in tiles}
        for tiles in (state.tables.regality, state.tables.religion)
    ]
    on_board = set()
    for code in state.cells:
        if code >= 0:
            on_board.add(names[state.tables.keys[code & 31]])
            if _covered(code) >= 0:
                on_board.add(names[state.tables.keys[_covered(code)]])
    assert on_board <= sightings[0].played | sightings[1].played
    for player, seen in enumerate(sightings):
        assert sides[player] <= seen.drew and "Citizen" in seen.deck
        assert not sides[1 - player] & seen.deck - seen.drew
    neutral = sightings[0].deck - sides[0] - {"Citizen"}
    assert neutral == sightings[1].deck - sides[1] - {"Citizen"}  # both know the same neutrals
    assert len(neutral) == {"standard": 5, "old-style": 0, "random": 4, "draft": 5}[variant]
    if variant == "standard":  # the neutral area is in reach of both sides
        assert neutral <= sightings[0].drew and neutral <= sightings[1].drew


def test_reign_every_unit_is_deployed_and_the_fighters_are_played():
    state = finished(REIGN, 2, {"factions": ["empire", "elves"]})
    sightings = nested(state)
    names = {spec.key: spec.name for spec in state.table}
    for player, seen in enumerate(sightings):
        units = {state.table[c].name for c, owner in enumerate(state.owner) if owner == player}
        assert seen.deck == seen.drew == units  # §Setup deploys the whole faction deck
        assert not any(spec.name in seen.deck for spec in state.table if not spec.is_unit)
    fought = [
        (names[event.detail["attacker"]], names[event.detail["defender"]])
        for event in state.events
        if event.kind == "attack"
    ]
    assert fought, "random agents attack in a game of Reign Absolute"
    everyone = sightings[0].played | sightings[1].played
    for attacker, defender in fought:
        assert attacker in everyone and defender in everyone


# --- jobs ----------------------------------------------------------------------------------


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("seer", "seer@example.com", "x-long-pass-42")


def play_job(owner, kind, plan):
    job = simulation_job_create(
        kind=kind, plan=plan, owner=owner, seed=3, chunk_size=2, dispatch=False
    )
    return simulation_job_play_inline(job_id=job.pk)


def card_rows(job) -> dict[tuple[str, str], dict]:
    rows = simulation_job_report(job)["cards"]
    assert rows, "the job has a card table"
    return {(row["label"], row["card"]): row for row in rows}


@pytest.mark.django_db
def test_a_reign_absolute_metagame_has_a_card_table_on_its_page_and_in_the_api(user, client):
    decks = faction_decks(user, 2)
    plan = metagame_plan(decks=decks, agent="random", games_per_pairing=2)
    job = play_job(user, SimulationJob.Kind.METAGAME, plan)
    rows = card_rows(job)
    client.force_login(user)
    page = client.get(f"/simulations/{job.pk}/").content.decode()
    assert page.split('data-testid="card-performance"')[1].count('data-testid="card-table"') == 2
    api = client.get(f"/api/v1/simulations/{job.pk}/results/").json()
    assert len(api["report"]["cards"]) == len(rows)
    assert {label for label, _ in rows} == {deck.name for deck in decks}
    for row in rows.values():
        assert row["drawn"]["games"] == 2 and row["unseen"]["games"] == 0
        assert row["played"]["games"] <= 2
    assert any(row["played"]["games"] for row in rows.values())


@pytest.mark.django_db
def test_a_regality_vs_religion_matchup_has_a_card_table(user):
    regality = make_deck(user, game=RVR, sample_name="legal-regality-standard", name="Court")
    religion = deck_create(
        owner=user,
        game=RVR,
        name="Temple",
        decklist=sample(RVR, "legal-religion-draft")
        .replace("draft", "standard")
        .replace("1 Witch", "1 Witch\n1 Hermit\n1 Shaman"),
    )
    plan = matchup_plan(decks=[regality, religion], agents=["random", "random"], games=2)
    rows = card_rows(play_job(user, SimulationJob.Kind.MATCHUP, plan))
    court = {card: row for (label, card), row in rows.items() if label == "Court"}
    # the decks swap alignments in the second game, but each keeps its own tiles' names
    assert not {"Hierophant", "Bishop", "Temple"} & set(court)
    assert court["King"]["drawn"]["games"] == 2  # a side tile is held in every game
    temple = {card for (label, card) in rows if label == "Temple"}
    assert {"Hierophant", "Temple"} <= temple and not {"King", "Castle"} & temple
    assert court["Citizen"]["drawn"]["games"] + court["Citizen"]["unseen"]["games"] == 2
    for name in ("Bard", "Dragon", "Ninja", "Sage", "Samurai"):  # deck A's neutral area
        assert court[name]["drawn"]["games"] == 2
    assert sum(row["played"]["games"] for row in court.values()) >= 2 * 4


@pytest.mark.django_db
def test_a_reggae_revolution_team_job_counts_a_card_once_a_game(user):
    deck = make_deck(user, game=REGGAE, sample_name="legal-full-setup", name="Table")
    crew = make_deck(user, game=REGGAE, sample_name="legal-starting-deck", name="Crew")
    plan = metagame_plan(decks=[deck, crew], agent="random", games_per_pairing=2, players=2)
    rows = card_rows(play_job(user, SimulationJob.Kind.METAGAME, plan))
    assert {label for label, _ in rows} == {"Table", "Crew"}
    for row in rows.values():  # two players, one deck: still one count a game
        assert row["drawn"]["games"] + row["unseen"]["games"] == 2
        assert row["played"]["games"] <= row["drawn"]["games"]
    assert rows[("Table", "Dove Badge")]["drawn"]["games"] == 2
