"""Matchups through the pages: every game with an engine, from the form to the replay of one game
of the batch; a matchup is a simulation job (kind matchup) stored in the database and visible
only to whoever started it."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from decks.models import Visibility
from decks.selectors import format_default
from decks.services import deck_card_set, deck_create
from rules.engines.core import plugin_for, plugins
from rules.lab.jobs import simulation_chunk_run, simulation_job_play_inline
from rules.lab.runner import background_wait
from rules.lab.selectors import MatchupTable, simulation_job_matchup
from rules.models import SimulationJob
from tests.decks.conftest import SAMPLES_DIR
from tests.web.conftest import make_deck, sample
from web.matchups import agent_label

pytestmark = pytest.mark.django_db

RVR = "regality-vs-religion"
RELIGION_STANDARD = """# game: regality-vs-religion
# name: Temple Guard, Standard

[Side]
1 Bishop
1 Cardinal
1 Hierophant
1 Monk
1 Paladin
1 Saint
1 Temple

[Neutral]
1 Fairy
1 Pirate
1 Witch
1 Dragon
1 Sage
"""


def rvr_deck(owner, name: str, decklist: str, variant: str = "standard"):
    return deck_create(
        owner=owner,
        game=RVR,
        name=name,
        decklist=decklist,
        format=format_default(RVR),
        variant=variant,
    )


def two_decks(user, game: str):
    """Two legal sample decks of a game, deck A first (for Reggae Revolution: one deck)."""
    if game == "revolt-n-reign":
        return make_deck(user, name="Eagles"), make_deck(
            user, name="Bisons", sample_name="legal-bison-pressure"
        )
    if game == "rival-realms":
        return (
            make_deck(user, game=game, sample_name="legal-arcane-court", name="Court"),
            make_deck(user, game=game, sample_name="legal-knights-and-keeps", name="Keeps"),
        )
    if game == "reign-absolute":
        return (
            make_deck(user, game=game, sample_name="legal-elves-grove", name="Elves"),
            make_deck(user, game=game, sample_name="legal-empire-legion", name="Empire"),
        )
    if game == RVR:
        return (
            rvr_deck(user, "King's Court", sample(RVR, "legal-regality-standard")),
            rvr_deck(user, "Temple Guard", RELIGION_STANDARD),
        )
    if game == "reggae-revolution":
        return make_deck(user, game=game, sample_name="legal-starting-deck", name="Starters"), None
    # any other game: its first and last legal sample decks (one deck for a team game)
    legal = sorted(path.stem for path in (SAMPLES_DIR / game).glob("legal-*.txt"))
    first = make_deck(user, game=game, sample_name=legal[0], name="Deck A")
    if plugin_for(game).max_decks == 1:
        return first, None
    return first, make_deck(user, game=game, sample_name=legal[-1], name="Deck B")


def game_some_moves_in(user, game: str, seed: int, moves: int):
    """A game of ``game`` against the random agent, ``seed`` dealing it, with up to ``moves`` of
    the player's moves picked at random (fewer when the game ends or the agent is to move)."""
    import random

    from rules.play import play_move, play_position, play_start

    a, b = two_decks(user, game)
    played = play_start(owner=user, deck=a, opponent=b, agent="random", seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = play_position(played)
        if state.is_terminal() or state.current_player() != played.seat:
            break
        index = rng.randrange(len(state.legal_actions()))
        play_move(owner=user, pk=played.pk, index=index, version=played.version)
        played.refresh_from_db()
    return played


def start(client, a, b, *, games=3, agents=("random", "random"), players=None, seed=5):
    data = {
        "deck_a": a.pk,
        "deck_b": b.pk if b is not None else "",
        "agent_a": agents[0],
        "agent_b": agents[1],
        "games": games,
        "seed": seed,
    }
    if players is not None:
        data["players"] = players
    return client.post(reverse("matchup-new"), data)


def run_id(response) -> int:
    assert response.status_code == 302, response.content.decode()[:2000]
    return int(response["Location"].rstrip("/").split("/")[-1])


def matchup(pk: int) -> MatchupTable:
    """The matchup job ``pk`` as its table: sides, totals and the games stored so far."""
    table = simulation_job_matchup(SimulationJob.objects.get(pk=pk))
    assert table is not None, f"job {pk} is not a matchup"
    return table


def poll_to_end(client, pk: int):
    """Let the background runner play the matchup (in a test whose data is committed) or play it
    as the runner does (in one whose transaction is never committed, nothing dispatches it),
    then poll its progress as htmx does: the results."""
    assert background_wait(("job", pk), timeout=120)
    simulation_job_play_inline(job_id=pk)
    response = client.get(reverse("simulation-progress", args=[pk]), HTTP_HX_REQUEST="true")
    assert SimulationJob.objects.get(pk=pk).finished, "the matchup did not finish"
    return response


GAMES = [plugin.slug for plugin in plugins() if plugin.sample_decks]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_runs_to_results_lists_its_games_and_replays_one(alice, user, game):
    # given two decks of the game (one for the co-operative game)
    a, b = two_decks(user, game)
    # when a matchup of 4 games is started and polled to the end
    pk = run_id(start(alice, a, b, games=4, players=3 if b is None else None))
    page = alice.get(reverse("simulation-detail", args=[pk]))
    assert page.status_code == 200
    final = poll_to_end(alice, pk)
    # then the results and the list of all four games are shown
    assert final.status_code == 200
    body = final.content.decode()
    assert "Results of 4 games" in body
    assert "95% interval" in body
    for number in range(1, 5):
        assert reverse("simulation-game", args=[pk, number]) in body
    run = matchup(pk)
    assert run.status == SimulationJob.Status.DONE
    assert len(run.results) == 4
    assert sum(run.totals["wins"]) + run.totals["draws"] == 4
    # and game 3, played again, ends as the stored result says
    replay = alice.get(reverse("simulation-game", args=[pk, 3]))
    assert replay.status_code == 200
    stored = run.results[2]
    assert {k: replay.context["summary"][k] for k in stored} == stored
    assert replay.context["total"] >= 1
    assert f"Game 3 of {escape(run.title)}" in replay.content.decode()
    # and how each game ended is said in the game's words, on the list and in the replay
    words = plugin_for(game).words
    for result in run.results:
        code = result["end_reason"]
        assert code in words.end_reasons
        assert f"<td>{escape(words.end_reason(code))}</td>" in body
        assert f"<td>{code}</td>" not in body and f"<td>{code.replace('-', ' ')}</td>" not in body
    said = escape(words.end_reason(stored["end_reason"]))
    assert f": {said}, after" in replay.content.decode()


#: every agent each game's plugin offers; the searches that take many seconds a game on the
#: slower engines run with ``-m slow``
SLOW_AGENTS = {("rival-realms", "greedy"), ("rival-realms", "mcts"), ("reign-absolute", "mcts")}
SLOW_AGENTS |= {("reggae-revolution", "mcts"), ("revolt-n-reign", "plan")}
#: agents whose games take minutes, played only when DECKWRIGHT_HEAVY_TESTS=1; none since issue 16
#: (a Rival Realms MCTS game used to run to the turn limit; by the rulebook it ends in seconds)
HEAVY_AGENTS: set[tuple[str, str]] = set()
HEAVY_SKIP = pytest.mark.skipif(
    os.environ.get("DECKWRIGHT_HEAVY_TESTS") != "1",
    reason="a game that runs for minutes: set DECKWRIGHT_HEAVY_TESTS=1",
)
OFFERED = [
    pytest.param(
        plugin.slug,
        agent,
        id=f"{plugin.slug}-{agent}",
        marks=([pytest.mark.slow] if (plugin.slug, agent) in SLOW_AGENTS else [])
        + ([HEAVY_SKIP] if (plugin.slug, agent) in HEAVY_AGENTS else []),
    )
    for plugin in plugins()
    for agent in plugin.matchup_agents
]


@pytest.mark.parametrize(("game", "agent"), OFFERED)
def test_every_agent_a_game_offers_plays_a_game_to_the_end(alice, user, game, agent):
    # given the game's decks, deck A played by an agent its plugin offers (B by random)
    a, b = two_decks(user, game)
    # when a one-game matchup is started and polled to the end
    pk = run_id(start(alice, a, b, games=1, agents=(agent, "random"), players=2))
    final = poll_to_end(alice, pk)
    # then the game was played to its end, and the page names the agent the game's way
    run = matchup(pk)
    assert run.status == SimulationJob.Status.DONE and len(run.results) == 1
    assert agent in run.agents
    assert run.results[0]["end_reason"] in plugin_for(game).words.end_reasons
    assert escape(agent_label(agent, game)) in final.content.decode()


def test_the_form_offers_each_game_its_own_agents(alice, user):
    deck, _ = two_decks(user, "reggae-revolution")
    page = alice.get(reverse("matchup-new"), {"deck": deck.pk})
    body = page.content.decode()
    # Reggae Revolution's team policy is offered and chosen by default for a Reggae deck
    assert page.context["form"]["agent_a"].value() == "team"
    assert re.search(
        r'value="team"[^>]* data-games="[^"]*reggae-revolution[^"]*">Team policy', body
    )
    assert re.search(r'value="alphabeta"[^>]* data-games="regality-vs-religion">Alpha', body)
    assert 'data-game="reggae-revolution"' in body
    listed = {item["plugin"].slug: item["agents"] for item in page.context["matchup_games"]}
    assert listed["reggae-revolution"][0].startswith("Team policy (scores missing pairs")
    assert listed["rival-realms"][0].startswith("Rival Realms policy (builds, digs")
    assert listed["regality-vs-religion"][0].startswith("Alpha-beta (4 placements deep")


@pytest.mark.parametrize(
    ("game", "agent", "message"),
    [
        ("reggae-revolution", "alphabeta", "does not play Reggae Revolution matchups"),
        ("reign-absolute", "team", "does not play Reign Absolute: Umbrous Edition matchups"),
        ("regality-vs-religion", "team", "does not play Regality vs Religion"),
        ("rival-realms", "plan", "does not play Rival Realms matchups"),
    ],
)
def test_an_agent_the_game_does_not_offer_is_refused(alice, user, game, agent, message):
    a, b = two_decks(user, game)
    response = start(alice, a, b, agents=(agent, "random"), players=2)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not SimulationJob.objects.exists()


def test_alpha_beta_is_refused_for_a_variant_that_hides_tiles(alice, user):
    # given a Regality and a Religion deck of the secret-random variant (two neutral tiles)
    religion = RELIGION_STANDARD.split("[Neutral]")[0] + "[Neutral]\n1 Fairy\n1 Pirate\n"
    decklist = sample(RVR, "legal-regality-secret-random")
    a = rvr_deck(user, "Secret Court", decklist, variant="secret-random")
    b = rvr_deck(user, "Secret Temple", religion, variant="secret-random")
    response = start(alice, a, b, agents=("alphabeta", "random"))
    assert response.status_code == 400
    assert "needs every tile and card in the open" in response.content.decode(), [
        str(e) for e in response.context["form"].non_field_errors()
    ]
    assert not SimulationJob.objects.exists()


def test_reggae_revolution_is_a_team_win_rate_for_the_chosen_team_size(alice, user):
    deck, _ = two_decks(user, "reggae-revolution")
    pk = run_id(start(alice, deck, None, games=3, players=3))
    final = poll_to_end(alice, pk)
    run = matchup(pk)
    assert run.cooperative
    assert run.setup == {"players": 3}
    assert run.title == "Starters, team of 3"
    body = final.content.decode()
    assert "Starters, team of 3" in body
    assert "Team won" in body or "Team lost" in body
    assert run.totals["team_wins"] + run.totals["team_losses"] == 3


def test_regality_vs_religion_carries_variant_and_neutral_tiles_and_seats_by_side(alice, user):
    regality, religion = two_decks(user, RVR)
    # deck A is the Religion deck: it moves first, but sits in the engine's Religion seat
    pk = run_id(start(alice, religion, regality, games=2))
    run = matchup(pk)
    assert run.setup["variant"] == "standard"
    assert run.setup["first"] == "religion"
    assert run.setup["neutral"][:5] == ["Dragon", "Fairy", "Pirate", "Sage", "Witch"]
    assert run.labels == ["King's Court", "Temple Guard"]
    poll_to_end(alice, pk)
    replay = alice.get(reverse("simulation-game", args=[pk, 1]))
    # the game-start event, in words: the Religion side (deck A, Temple Guard) starts
    assert "; Religion (" in replay.content.decode()
    assert "Religion (Temple Guard) starts." in replay.content.decode()


def test_a_matchup_is_reproducible_by_seed_however_it_is_chunked(alice, user, settings):
    a, b = two_decks(user, "revolt-n-reign")
    first = run_id(start(alice, a, b, games=12))
    poll_to_end(alice, first)
    # a second matchup of the same seed, cut into one-game chunks, plays the same games
    settings.SIMULATION_CHUNK_GAMES = 1
    second = run_id(start(alice, a, b, games=12))
    assert simulation_chunk_run(job_id=second, chunk=0) == "stored"  # the runner's first game
    step = alice.get(reverse("simulation-progress", args=[second]), HTTP_HX_REQUEST="true")
    assert b"1 of 12 games played" in step.content
    poll_to_end(alice, second)
    one, two = matchup(first), matchup(second)
    assert two.job.chunks_done == 12
    assert one.results == two.results
    assert one.totals == two.totals


def test_the_list_of_games_is_paginated(alice, user):
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=30))
    poll_to_end(alice, pk)
    first = alice.get(reverse("simulation-detail", args=[pk]))
    assert len(first.context["game_rows"]) == 25
    assert b"Games 1\xe2\x80\x9325 of 30" in first.content
    second = alice.get(reverse("simulation-detail", args=[pk]), {"page": 2})
    assert [row.number for row in second.context["game_rows"]] == [26, 27, 28, 29, 30]
    missing = alice.get(reverse("simulation-detail", args=[pk]), {"page": 9})
    assert missing.status_code == 404
    assert b"no page" in missing.content


def test_replay_goes_step_by_step(alice, user):
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=2))
    poll_to_end(alice, pk)
    url = reverse("simulation-game", args=[pk, 2])
    opening = alice.get(url)
    total = opening.context["total"]
    assert total > 2
    assert f"Step 1 of {total}" in opening.content.decode()
    second = alice.get(url, {"step": 2})
    assert f"Step 2 of {total}" in second.content.decode()
    assert second.context["current"]["lines"]
    # a step is a turn, headed by its number and the deck that plays it
    assert re.fullmatch(r"Turn \d+: (Court|Keeps)", second.context["who"])
    last = alice.get(url, {"step": 10_000})
    assert last.context["step"] == total  # past the end shows the last step
    assert 'aria-current="step"' in last.content.decode()
    assert 'for="replay-step"' in last.content.decode()


def test_bad_game_numbers_and_steps_say_so(alice, user):
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=2))
    poll_to_end(alice, pk)
    too_far = alice.get(reverse("simulation-game", args=[pk, 3]))
    assert too_far.status_code == 404
    assert b"This matchup has no game 3" in too_far.content
    zero = alice.get(reverse("simulation-game", args=[pk, 0]))
    assert zero.status_code == 404
    bad_step = alice.get(reverse("simulation-game", args=[pk, 1]), {"step": "x"})
    assert bad_step.status_code == 400
    assert b"is not a step number" in bad_step.content


def test_a_game_not_played_yet_cannot_be_replayed(alice, user):
    a, b = two_decks(user, "revolt-n-reign")
    pk = run_id(start(alice, a, b, games=12))
    response = alice.get(reverse("simulation-game", args=[pk, 11]))
    assert response.status_code == 404
    assert b"has not been played yet" in response.content


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"games": 0}, "greater than or equal to 1"),
        ({"games": 5000}, "less than or equal to 200"),
        ({"games": "many"}, "whole number"),
        ({"agent_a": "stockfish"}, "Select a valid choice"),
        ({"agent_a": "alphabeta"}, "Alpha-beta (a few moves deep) does not play Revolt N Reign"),
        ({"agent_b": "team"}, "Team policy (the game&#x27;s own) does not play Revolt N Reign"),
        ({"deck_b": ""}, "played by two decks"),
        ({"seed": -1}, "greater than or equal to 0"),
    ],
)
def test_bad_input_is_refused_with_a_message(alice, user, change, message):
    a, b = two_decks(user, "revolt-n-reign")
    data = {
        "deck_a": a.pk,
        "deck_b": b.pk,
        "agent_a": "random",
        "agent_b": "random",
        "games": 3,
        "seed": 1,
        **change,
    }
    response = alice.post(reverse("matchup-new"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not SimulationJob.objects.exists()


def test_decks_the_engine_cannot_seat_are_refused_before_the_run(alice, user):
    elves = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Elves")
    grove = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Grove")
    response = start(alice, elves, grove)
    assert response.status_code == 400
    assert b"pick decks of two different factions" in response.content
    king = rvr_deck(user, "King", sample(RVR, "legal-regality-standard"))
    queen = rvr_deck(user, "Queen", sample(RVR, "legal-regality-standard"))
    assert b"one Regality deck and one Religion deck" in start(alice, king, queen).content
    draft = rvr_deck(user, "Draft", sample(RVR, "legal-religion-draft"), variant="draft")
    assert b"different variants" in start(alice, king, draft).content
    eagles = make_deck(user, name="Eagles")
    short = make_deck(user, name="Short", sample_name="illegal-deck-size")
    refused = start(alice, eagles, short)
    assert refused.status_code == 400
    assert b"cannot play these decks: Short has" in refused.content  # its name, not its seat
    assert not SimulationJob.objects.exists()


def test_only_the_owner_sees_a_run(client, alice, user, other_user):
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=2))
    poll_to_end(alice, pk)
    client.force_login(other_user)
    for url in (
        reverse("simulation-detail", args=[pk]),
        reverse("simulation-progress", args=[pk]),
        reverse("simulation-game", args=[pk, 1]),
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert b"No such job" in response.content or b"No such matchup" in response.content
    assert b"Court vs Keeps" not in client.get(reverse("matchup-new")).content


def test_anonymous_runs_belong_to_the_browser_session(client, django_user_model, user):
    a = make_deck(user, name="Eagles", visibility=Visibility.PUBLIC)
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure", visibility="public")
    pk = run_id(start(client, a, b, games=2))
    job = SimulationJob.objects.get(pk=pk)
    assert job.owner is None
    assert job.session_key == client.session.session_key
    poll_to_end(client, pk)
    assert b"Eagles vs Bisons" in client.get(reverse("matchup-new")).content
    assert client.get(reverse("simulation-game", args=[pk, 1])).status_code == 200
    from django.test import Client

    stranger = Client()
    assert stranger.get(reverse("simulation-detail", args=[pk])).status_code == 404
    assert b"Eagles vs Bisons" not in stranger.get(reverse("matchup-new")).content


def test_logging_in_keeps_the_runs_started_anonymously(client, django_user_model, user):
    a = make_deck(user, name="Eagles", visibility=Visibility.PUBLIC)
    b = make_deck(user, name="Bisons", sample_name="legal-bison-pressure", visibility="public")
    pk = run_id(start(client, a, b, games=2))
    poll_to_end(client, pk)
    from django.test import Client

    someone_else = Client()
    theirs = run_id(start(someone_else, a, b, games=1))
    django_user_model.objects.create_user("carol", "carol@example.com", "pw-carol-matchups")
    response = client.post(reverse("login"), {"username": "carol", "password": "pw-carol-matchups"})
    assert response.status_code == 302
    job = SimulationJob.objects.get(pk=pk)
    assert job.owner.username == "carol" and job.session_key == ""
    assert client.get(reverse("simulation-detail", args=[pk])).status_code == 200
    assert b"Eagles vs Bisons" in client.get(reverse("matchup-new")).content
    # the other visitor's run stays theirs, and signing up claims it for them
    assert SimulationJob.objects.get(pk=theirs).owner is None
    response = someone_else.post(
        reverse("signup"),
        {
            "username": "dave",
            "email": "dave@example.com",
            "password1": "pw-dave-matchups-9",
            "password2": "pw-dave-matchups-9",
        },
    )
    assert response.status_code == 302
    assert SimulationJob.objects.get(pk=theirs).owner.username == "dave"
    assert SimulationJob.objects.filter(owner__username="carol").count() == 1


def test_recent_runs_are_listed_on_the_matchup_page(alice, user):
    a, b = two_decks(user, "rival-realms")
    run_id(start(alice, a, b, games=2))
    page = alice.get(reverse("matchup-new"))
    assert page.status_code == 200
    assert b"Your recent matchups" in page.content
    assert b"Court vs Keeps" in page.content
    assert b"0 of 2 games" in page.content


def test_editing_a_deck_later_does_not_change_a_finished_run(alice, user):
    a, b = two_decks(user, "rival-realms")
    pk = run_id(start(alice, a, b, games=3))
    poll_to_end(alice, pk)
    before = matchup(pk)
    card = a.cards.select_related("card").first().card
    deck_card_set(deck=a, card=card, quantity=0, actor=user)
    a.refresh_from_db()
    assert a.version > before.sides[0]["version"]
    replay = alice.get(reverse("simulation-game", args=[pk, 2]))
    assert replay.status_code == 200
    assert replay.context["summary"]["winner"] == before.results[1]["winner"]
    assert matchup(pk).sides == before.sides


def test_every_game_is_offered(alice, user):
    deck = make_deck(user, game="reign-absolute", sample_name="legal-elves-grove", name="Elves")
    page = alice.get(reverse("matchup-new"), {"deck": deck.pk})
    assert b"not available" not in page.content
    assert b"Team size (Reggae Revolution)" in page.content
    assert b"MCTS" in page.content


def _stored_matchup(user, *, worker: bool = False) -> SimulationJob:
    """A matchup job of two decks whose setup the engine refuses, stored and not dispatched."""
    from tests.web.conftest import store_matchup_job

    a, b = two_decks(user, "rival-realms")
    job = store_matchup_job(user, a, b, games=2, seed=1, dispatch=False)
    pairing = {**job.pairings[0], "setup": {"decks": [["Nope"], ["Nope"]]}}
    SimulationJob.objects.filter(pk=job.pk).update(pairings=[pairing], worker=worker)
    job.refresh_from_db()
    return job


def test_with_a_worker_the_poll_only_reads_the_progress(alice, user):
    job = _stored_matchup(user, worker=True)
    step = alice.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert step.status_code == 200
    assert b"Waiting for the first game to start" in step.content
    assert b"delay:1s" in step.content  # polls gently while the worker plays
    assert SimulationJob.objects.get(pk=job.pk).games_done == 0


def test_a_matchup_the_engine_cannot_play_fails_with_the_reason(alice, user):
    job = _stored_matchup(user)
    simulation_job_play_inline(job_id=job.pk)  # as the background runner plays it
    step = alice.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert b"The engine cannot play these decks" in step.content
    failed = SimulationJob.objects.get(pk=job.pk)
    assert failed.status == SimulationJob.Status.FAILED
    assert failed.error
    assert b"Failed" in alice.get(reverse("matchup-new")).content


def test_a_full_reggae_setup_deals_its_own_lineup_face_up(alice, user):
    deck = make_deck(
        user, game="reggae-revolution", sample_name="legal-full-setup", name="Full Table"
    )
    pk = run_id(start(alice, deck, None, games=1, players=2))
    run = matchup(pk)
    assert run.setup["lineup"] == [
        "Amber Oath",
        "Any-Which-Way Anthem",
        "Basement Sound System",
        "Brass Section",
        "Canopy Assembly",
        "Cease-Fire Chorus",
    ]
    from rules.adapters import engine_for

    state = engine_for("reggae-revolution").new_initial_state(run.seed, run.setup)
    assert sorted(state.table[card].name for card in state.lineup) == run.setup["lineup"]
    poll_to_end(alice, pk)
    assert matchup(pk).status == SimulationJob.Status.DONE


def test_an_illegal_reggae_starting_deck_is_refused(alice, user):
    deck = make_deck(
        user, game="reggae-revolution", sample_name="illegal-starter-count", name="Odd"
    )
    response = start(alice, deck, None, players=2)
    assert response.status_code == 400
    assert b"Odd is not a legal deck" in response.content


def test_the_list_of_recent_runs_costs_the_same_queries_however_long(alice, user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert alice.get(reverse("matchup-new")).status_code == 200
        return len(context.captured_queries)

    _stored_matchup(user)
    one = queries()
    for _ in range(5):
        _stored_matchup(user)
    assert queries() == one


REGALITY_SIDE = ["Castle", "Citizen", "General", "King", "Minister", "Princess", "Queen", "Wizard"]
RELIGION_SIDE = ["Bishop", "Cardinal", "Hierophant", "Monk", "Paladin", "Saint", "Temple"]
#: an opponent for each Regality vs Religion sample: the other side, the same variant
RVR_OPPONENTS = {
    "legal-regality-standard": (RELIGION_SIDE, ["Fairy", "Pirate", "Witch", "Dragon", "Sage"]),
    "legal-regality-secret-random": (RELIGION_SIDE, ["Fairy", "Pirate"]),
    "legal-religion-draft": (REGALITY_SIDE, ["Bard", "Ninja"]),
    "legal-religion-old-style": (REGALITY_SIDE, []),
}
SAMPLE_PAIRS = [
    ("revolt-n-reign", "legal-eagle-control", "legal-bison-pressure"),
    ("revolt-n-reign", "legal-scroll-petitions", "legal-eagle-control"),
    ("rival-realms", "legal-arcane-court", "legal-knights-and-keeps"),
    ("reign-absolute", "legal-elves-grove", "legal-empire-legion"),
    ("reign-absolute", "legal-azuma-shogunate", "legal-umbrous-shadows"),
    ("reggae-revolution", "legal-starting-deck", None),
    ("reggae-revolution", "legal-full-setup", None),
    *((RVR, name, "opponent") for name in RVR_OPPONENTS),
]


@pytest.mark.parametrize(("game", "first", "second"), SAMPLE_PAIRS)
def test_every_legal_sample_deck_can_start_a_matchup(user, game, first, second):
    from decks.decklist import decklist_read
    from rules.lab.plans import matchup_plan

    text = sample(game, first)
    variant = decklist_read(text, "text").metadata.get("variant", "")
    a = deck_create(
        owner=user,
        game=game,
        name=first,
        decklist=text,
        format=format_default(game),
        variant=variant,
    )
    b = None
    if second == "opponent":
        side, neutral = RVR_OPPONENTS[first]
        lines = ["[Side]", *(f"1 {t}" for t in side), "[Neutral]", *(f"1 {t}" for t in neutral)]
        b = rvr_deck(user, "Opponent", "\n".join(lines), variant=variant)
        a, b = (b, a) if "Citizen" in side else (a, b)  # whoever has the Citizen moves first
    elif second is not None:
        b = make_deck(user, game=game, sample_name=second, name=second)
    # the engine deals a game from the setup (matchup_plan refuses otherwise, saying why)
    decks = [deck for deck in (a, b) if deck is not None]
    plan = matchup_plan(decks=decks, agents=["random"] * len(decks), games=2, players=2)
    pairing = plan.pairings[0]
    assert len(pairing["agents"]) == 2
    if game == RVR:
        assert pairing["setup"]["variant"] == variant
        neutral = pairing["setup"].get("neutral", [])
        first_neutral = sorted(r.card.name for r in a.cards.filter(zone="neutral"))
        assert neutral[: len(first_neutral)] == first_neutral  # deck A's neutral tiles first
        assert len(neutral) == len(set(neutral))


# -- fair seats, more armies, bigger teams (issue 16) ---------------------------------------------


def _table(body: str, testid: str) -> str:
    match = re.search(rf'data-testid="{testid}">(.*?)</table>', body, re.S)
    assert match, f"no {testid} table"
    return match.group(1)


def test_seats_rotate_by_default_so_each_deck_moves_first_in_half_the_games(alice, user):
    a, b = two_decks(user, "revolt-n-reign")
    pk = run_id(start(alice, a, b, games=4))
    final = poll_to_end(alice, pk)
    run = matchup(pk)
    assert run.fixed_seats is False
    # 2k games on two seats: each deck moves first exactly k times
    assert run.totals["moved_first"] == [2, 2]
    assert [game["seats"] for game in run.results] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert [game["first_side"] for game in run.results] == [0, 1, 0, 1]
    body = final.content.decode()
    assert "The seats rotated" in body
    by_deck = _table(body, "by-deck")
    assert "Eagles" in by_deck and "Bisons" in by_deck
    assert re.findall(r'data-testid="moved-first">(\d+)<', by_deck) == ["2", "2"]
    by_seat = _table(body, "by-seat")
    assert "Seat 1" in by_seat and "Seat 2" in by_seat and "each deck in turn" in by_seat
    assert "whoever moved first won" in body
    # the list of games says which deck moved first in each game
    rows = re.findall(r"<td>(Eagles|Bisons)</td></tr>", body)
    assert rows == ["Eagles", "Bisons", "Eagles", "Bisons"]


def test_fixed_seats_keep_deck_a_first_and_say_so(alice, user):
    a, b = two_decks(user, "revolt-n-reign")
    response = alice.post(
        reverse("matchup-new"),
        {
            "deck_a": a.pk,
            "deck_b": b.pk,
            "agent_a": "random",
            "agent_b": "random",
            "games": 2,
            "seed": 5,
            "fixed_seats": "on",
        },
    )
    pk = run_id(response)
    final = poll_to_end(alice, pk)
    run = matchup(pk)
    assert run.fixed_seats is True
    assert run.totals["moved_first"] == [2, 0]
    body = final.content.decode()
    assert "Fixed seats: every deck kept its seat" in body
    assert "fixed seats" in alice.get(reverse("simulation-detail", args=[pk])).content.decode()
    # with fixed seats a deck's wins are its seat's
    assert run.totals["seat_wins"] == run.totals["wins"]


def test_three_reign_absolute_armies_play_from_the_form_to_the_report(alice, user):
    game = "reign-absolute"
    elves, empire = two_decks(user, game)
    azuma = make_deck(user, game=game, sample_name="legal-azuma-shogunate", name="Azuma")
    response = alice.post(
        reverse("matchup-new"),
        {
            "deck_a": elves.pk,
            "deck_b": empire.pk,
            "deck_c": azuma.pk,
            "agent_a": "random",
            "agent_b": "random",
            "agent_c": "random",
            "games": 3,
            "seed": 2,
        },
    )
    pk = run_id(response)
    final = poll_to_end(alice, pk)
    run = matchup(pk)
    assert run.setup["factions"] == ["elves", "empire", "azuma"]
    assert run.labels == ["Elves", "Empire", "Azuma"]
    assert run.title == "Elves vs Empire vs Azuma"
    # every army sits in every seat once in three games
    assert [game["seats"] for game in run.results] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert sum(run.totals["wins"]) + run.totals["draws"] == 3
    body = final.content.decode()
    by_deck = _table(body, "by-deck")
    assert all(name in by_deck for name in ("Elves", "Empire", "Azuma"))
    assert len(re.findall(r'data-testid="seat-win-rate"', _table(body, "by-seat"))) == 3
    # a rotated game replays with each army under its own name
    replay = alice.get(reverse("simulation-game", args=[pk, 2]))
    assert replay.status_code == 200


def test_four_reign_absolute_decks_of_the_same_faction_are_refused(alice, user):
    game = "reign-absolute"
    elves, empire = two_decks(user, game)
    response = alice.post(
        reverse("matchup-new"),
        {
            "deck_a": elves.pk,
            "deck_b": empire.pk,
            "deck_c": elves.pk,
            "agent_a": "random",
            "agent_b": "random",
            "agent_c": "random",
            "games": 1,
            "seed": 2,
        },
    )
    assert response.status_code == 400
    assert "Two decks are Elves" in response.content.decode()
    assert not SimulationJob.objects.exists()


def test_a_three_deck_reggae_team_plays_from_the_form_to_the_report(alice, user):
    game = "reggae-revolution"
    starters, _ = two_decks(user, game)
    full = make_deck(user, game=game, sample_name="legal-full-setup", name="Full Table")
    response = alice.post(
        reverse("matchup-new"),
        {
            "deck_a": starters.pk,
            "deck_b": full.pk,
            "deck_c": starters.pk,
            "agent_a": "team",
            "agent_b": "team",
            "agent_c": "team",
            "players": 2,  # the team is the decks picked: one player each
            "games": 2,
            "seed": 3,
        },
    )
    pk = run_id(response)
    final = poll_to_end(alice, pk)
    run = matchup(pk)
    assert run.cooperative
    assert run.setup["players"] == 3
    assert run.setup["lineup"]  # the full setup's lineup, dealt face up
    assert [side["deck_name"] for side in run.sides] == ["Starters", "Full Table", "Starters"]
    assert run.title == "Starters and Full Table, team of 3"
    assert run.totals["team_wins"] + run.totals["team_losses"] == 2
    body = final.content.decode()
    assert "Starters and Full Table, team of 3" in _table(body, "by-deck")
    assert "Team won" in body or "Team lost" in body


def test_a_form_without_deck_b_cannot_name_deck_c(alice, user):
    a, _ = two_decks(user, "reign-absolute")
    response = alice.post(
        reverse("matchup-new"),
        {"deck_a": a.pk, "deck_c": a.pk, "agent_a": "random", "games": 1, "seed": 1},
    )
    assert response.status_code == 400
    assert "Pick the decks in order" in response.content.decode()


@pytest.mark.parametrize(
    ("game", "agent"),
    [
        ("revolt-n-reign", "plan"),
        (RVR, "alphabeta"),
        ("reggae-revolution", "team"),
        ("reign-absolute", "greedy"),
    ],
)
def test_the_form_chooses_each_games_best_agent_and_says_how_long_a_game_takes(
    alice, user, game, agent
):
    deck, _ = two_decks(user, game)
    page = alice.get(reverse("matchup-new"), {"deck": deck.pk})
    form = page.context["form"]
    assert form["agent_a"].value() == agent
    assert form["agent_b"].value() == agent
    body = page.content.decode()
    assert "Turn plans (100 sampled plans a turn; about 4 s a game)" in body
    assert "standard about 1 s" in body


def test_a_run_stored_before_seats_rotated_shows_its_decks_as_its_seats(alice, user):
    from tests.factories import MatchupJobFactory

    a, b = two_decks(user, "rival-realms")
    job = MatchupJobFactory(
        owner=user,
        game=a.game,
        fixed_seats=True,
        decks=[
            {"deck": a.pk, "name": "Court", "label": "Court", "version": 1, "hash": ""},
            {"deck": b.pk, "name": "Keeps", "label": "Keeps", "version": 1, "hash": ""},
        ],
    )
    body = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    by_deck, by_seat = _table(body, "by-deck"), _table(body, "by-seat")
    assert "Court" in by_deck and "Keeps" in by_deck
    # by seat is by deck: 2 wins each, 50.0% with the same interval
    assert re.findall(r'data-testid="seat-win-rate">([^<]+)<', by_seat) == ["50.0%", "50.0%"]
    assert "Fixed seats" in body


# -- matchup runs of before (issue 30): their links, their anonymous owners ------------------------


def test_the_links_of_a_matchup_run_lead_for_good_to_the_job_it_became(alice, user):
    from tests.factories import MatchupJobFactory

    # given the job that migration 0009 made of matchup run 41
    a, _ = two_decks(user, "rival-realms")
    job = MatchupJobFactory(owner=user, game=a.game, legacy_run=41)
    page = reverse("simulation-detail", args=[job.pk])
    replay = reverse("simulation-game", args=[job.pk, 2]) + "?step=3&view=1"
    # when the run's old links are followed, then they move for good to the job's pages
    for old, new in (
        ("/matchups/41/", page),
        ("/matchups/41/step/", page),
        ("/matchups/41/games/2/?step=3&view=1", replay),
    ):
        response = alice.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
    assert b"Results of 4 games" in alice.get(page).content
    # and a run that never was is a page that says so
    missing = alice.get("/matchups/42/")
    assert missing.status_code == 404
    assert b"No such matchup" in missing.content
    assert alice.get("/matchups/42/games/1/").status_code == 404


def test_logging_in_keeps_a_matchup_run_started_anonymously_before_matchups_were_jobs(
    client, django_user_model, user
):
    from tests.factories import MatchupJobFactory
    from web.signals import SESSION_RUNS

    # given a visitor whose browser session started matchup run 41, now a job
    a, _ = two_decks(user, "rival-realms")
    session = client.session
    session[SESSION_RUNS] = [41]
    session.save()
    job = MatchupJobFactory(game=a.game, session_key=session.session_key, legacy_run=41)
    django_user_model.objects.create_user("erin", "erin@example.com", "pw-erin-matchups-1")
    # when they log in, then the job is their account's
    response = client.post(reverse("login"), {"username": "erin", "password": "pw-erin-matchups-1"})
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.owner.username == "erin" and job.session_key == ""
    assert client.get(reverse("simulation-detail", args=[job.pk])).status_code == 200
