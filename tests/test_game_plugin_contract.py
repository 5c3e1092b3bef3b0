"""The plug-in contract: a sixth game is its own pieces, with no edit to shared code.

The toy game ("Toy Duel") is the template game ``manage.py startgame`` writes, written into a
temporary project tree at the conventional paths (``tests/conftest.py``, ``toy_duel``) and
found there the way any game is: ``discover_engines`` imports its engine package, which
registers its plugin, and ``rules.plugins`` wires its Django-side pieces in; nothing registers
it by hand or names a path. It then keeps the game contract (``check_game``,
``check_game_wiring``), and every shared surface must serve it: card loading with its card
check, validation, test hands (model and page), matchups (web page and ``simulate``, with
decklist files too), metagame simulation jobs, card images in its own style, the REST API, and
the query help and card browser filters. The first test checks that no shared file names it.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from PIL import Image

from cards.images.face import face_for_card
from cards.images.links import card_image_links
from cards.images.render import render_face
from cards.images.styles import style_for
from cards.models import Card
from decks.services import deck_create
from decks.validation import validate
from rules import test_hands
from rules.contract import check_game_wiring
from rules.engines.core import plugin_for, registered_games
from rules.engines.core.contract import check_game
from rules.models import SimulationJob
from rules.services import agent_spec
from tests.conftest import TOY_SLUG as SLUG

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toy(toy_duel):
    """The toy game planted, discovered, wired in and its cards loaded, for one test."""
    return toy_duel


@pytest.fixture
def decks_dir(toy_tree) -> Path:
    """The toy game's sample decks, where ``startgame`` wrote them."""
    return toy_tree / "fixtures" / "decks" / SLUG


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("tess", password="pw-for-tests-only")


@pytest.fixture
def alice(client, user):
    client.force_login(user)
    return client


SUN = "# game: toy-duel\n# name: Sun Rush\n\n4 Dawn One\n4 Noon Three\n2 Blaze Five\n"
MOON = "# game: toy-duel\n# name: Moon Tide\n\n4 Dusk Two\n4 Tide Four\n2 Dawn One\n"


def toy_deck(user, name: str = "sun", *, title: str | None = None):
    text = {"sun": SUN, "moon": MOON}[name]
    return deck_create(owner=user, game=SLUG, name=title or name.title(), decklist=text)


def test_the_planted_game_keeps_the_game_contract(toy):
    check_game(toy)
    check_game_wiring(SLUG)


def test_no_shared_file_names_the_toy_game():
    tracked = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    shared = [
        path
        for path in tracked
        if not path.startswith(("tests/", "docs/"))
        and path.endswith((".py", ".html", ".js", ".css", ".yaml", ".toml", ".cfg"))
    ]
    assert len(shared) > 100
    naming = [
        path
        for path in shared
        if any(
            word in (ROOT / path).read_text(encoding="utf-8", errors="replace").casefold()
            for word in ("toy-duel", "toy duel", "toygame")
        )
    ]
    assert naming == []


def test_unplugged_the_toy_game_is_unknown(db):
    assert SLUG not in registered_games()
    assert not test_hands.available(SLUG)
    assert type(style_for(SLUG)).__name__ == "CardStyle"


def test_its_cards_load_and_its_engine_check_refuses_a_card_it_cannot_play(toy, toy_tree, tmp_path):
    assert Card.objects.filter(game__slug=SLUG).count() == 5
    # a load of every game finds the toy's data folder, which its plugin registered
    again = io.StringIO()
    call_command("load_game_data", stdout=again)
    assert "toy-duel" in again.getvalue()
    assert Card.objects.filter(game__slug=SLUG).count() == 5
    # given a copy of its data with a card scoring 9 points
    shutil.copytree(toy_tree / "fixtures" / SLUG, tmp_path / "fixtures" / SLUG)
    cards = tmp_path / "fixtures" / SLUG / "cards" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("points: 5", "points: 9"))
    errors = io.StringIO()
    # when it is loaded, then nothing is written and the engine's reason is given
    with pytest.raises(CommandError):
        call_command(
            "load_game_data",
            "--game",
            SLUG,
            "--fixtures",
            str(tmp_path / "fixtures"),
            stdout=io.StringIO(),
            stderr=errors,
        )
    assert "the Toy Duel engine cannot play this card" in errors.getvalue()
    assert Card.objects.get(game__slug=SLUG, name="Blaze Five").attack == 5


def test_its_validation_module_judges_its_decks(toy):
    report = validate(SLUG, {"Blaze Five": 3})
    assert not report.legal
    assert {v.code for v in report.violations} == {"deck-size", "copies-in-set"}
    assert validate(SLUG, {"Dawn One": 4, "Noon Three": 4, "Blaze Five": 2}).legal


def test_it_has_test_hands_on_the_model_and_on_the_deck_page(toy, user, alice):
    assert SLUG in test_hands.games()
    assert test_hands.policies(SLUG) == ["never"]
    deck = toy_deck(user)
    page = alice.get(reverse("deck-test-hands", args=[deck.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "you race an idle rival to 15 points" in text
    assert "First three" in text and "never (no mulligan)" in text
    figures = alice.get(
        reverse("deck-test-hands", args=[deck.pk]),
        {"hands": 20, "deal_seed": 1, "policy": "never"},
    )
    assert figures.status_code == 200
    assert "Turns to 15 points" in figures.content.decode()


def test_it_has_web_matchups_seated_by_its_plugin(toy, user, alice):
    sun, moon = toy_deck(user, "sun"), toy_deck(user, "moon")
    form = alice.get(reverse("matchup-new"))
    assert "two numbered decks race to 15 points" in form.content.decode()
    response = alice.post(
        reverse("matchup-new"),
        {
            "deck_a": sun.pk,
            "deck_b": moon.pk,
            "agent_a": "greedy",
            "agent_b": "random",
            "games": 6,
            "seed": 2,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    from rules.lab.jobs import simulation_job_play_inline

    job = SimulationJob.objects.get(kind="matchup")
    setup = job.pairings[0]["setup"]
    assert setup["first_player"] == 0 and len(setup["decks"]) == 2
    job = simulation_job_play_inline(job_id=job.pk)
    totals = job.aggregate["pairings"][0]
    assert totals["games"] == 6 and sum(totals["wins"]) + totals["draws"] == 6
    detail = alice.get(reverse("simulation-detail", args=[job.pk]))
    assert "someone reached 15 points" in detail.content.decode()
    # the plugin's own agents and budgets
    assert agent_spec("greedy", SLUG).keywords == {"max_nodes": 7}
    refused = alice.post(
        reverse("matchup-new"),
        {"deck_a": sun.pk, "deck_b": moon.pk, "agent_a": "alphabeta", "agent_b": "random"}
        | {"games": 1, "seed": 1},
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "does not play Toy Duel matchups; Toy Duel is played by: Random, Greedy" in body


def test_it_has_metagame_jobs_with_the_same_matrix_whatever_the_chunks(toy, user):
    from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
    from rules.lab.plans import metagame_plan
    from rules.lab.selectors import simulation_job_metagame

    decks = [toy_deck(user, "sun"), toy_deck(user, "moon"), toy_deck(user, "sun", title="Sun 2")]
    plan = metagame_plan(decks=decks, agent="greedy", games_per_pairing=4)
    matrices = []
    for size in (1, 5):
        job = simulation_job_create(
            kind="metagame", plan=plan, owner=user, seed=3, chunk_size=size, dispatch=False
        )
        job = simulation_job_play_inline(job_id=job.pk)
        assert job.status == "done" and job.games_done == 12, job.error
        matrices.append(simulation_job_metagame(job))
    assert matrices[0] == matrices[1]
    cell, mirror = matrices[0].cells[0][1], matrices[0].cells[1][0]
    assert cell.wins + mirror.wins + cell.draws == 4


def test_it_has_simulate_with_and_without_decklists(toy, decks_dir):
    out = io.StringIO()
    call_command("simulate", "--game", SLUG, "--games", "4", "--json", stdout=out)
    assert json.loads(out.getvalue())["games"] == 4
    out = io.StringIO()
    call_command(
        "simulate",
        "--game",
        SLUG,
        "--deck-a",
        str(decks_dir / "legal-sun-rush.txt"),
        "--deck-b",
        str(decks_dir / "legal-moon-tide.txt"),
        "--agents",
        "greedy,random",
        "--games",
        "4",
        "--first",
        "a",
        "--json",
        stdout=out,
    )
    report = json.loads(out.getvalue())
    assert [side["name"] for side in report["sides"]] == ["A: Sun Rush", "B: Moon Tide"]
    assert report["setup"]["first_player"] == 0
    assert set(report["end_reasons"]) <= {"target", "cards-out"}
    with pytest.raises(CommandError, match="copies-in-set"):
        call_command(
            "simulate",
            "--game",
            SLUG,
            "--deck-a",
            str(decks_dir / "illegal-copies-in-set.txt"),
            "--deck-b",
            str(decks_dir / "legal-moon-tide.txt"),
            stdout=io.StringIO(),
        )


def test_its_cards_are_drawn_in_its_own_style(toy, client):
    # written by the scaffold in this test, so not there for mypy
    from cards.images.styles.toy_duel import BORDER  # type: ignore[import-not-found]

    card = Card.objects.get(game__slug=SLUG, name="Blaze Five")
    assert type(style_for(SLUG)).__name__ == "ToyDuelStyle"
    rendered = render_face(face_for_card(card))
    border = tuple(int(BORDER[i : i + 2], 16) for i in (1, 3, 5))
    # the top edge, clear of the rounded corners, is the face's border
    face = rendered.image.convert("RGB")
    assert face.getpixel((face.width // 2, 3)) == border
    response = client.get(card_image_links(card).url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    image = image.convert("RGBA")  # served as a palette with a transparent entry (the corners)
    assert image.getpixel((image.width // 2, 3)) == (*border, 255)


def test_the_api_serves_its_cards_and_validates_its_decks(toy, client):
    games = client.get("/api/v1/games/").json()
    slugs = [game["slug"] for game in games.get("results", games)]
    assert SLUG in slugs
    cards = client.get("/api/v1/cards/", {"game": SLUG}).json()
    assert cards["count"] == 5
    checked = client.post(
        "/api/v1/validate/",
        {"game": SLUG, "cards": [{"name": "Blaze Five", "quantity": 3}]},
        content_type="application/json",
    )
    assert checked.status_code == 200
    codes = {violation["code"] for violation in checked.json()["violations"]}
    assert codes == {"deck-size", "copies-in-set"}


def test_the_query_help_gives_it_its_fields_and_examples_and_the_browser_its_filters(toy, client):
    help_page = client.get(reverse("query-help")).content.decode()
    section = help_page.split(f'data-game="{SLUG}">', 1)[1].split("</section>", 1)[0]
    assert '<th scope="row">Suit</th>' in section and "<code>suit</code>" in section
    assert '<th scope="row">Points</th>' in section and "<code>points</code>" in section
    assert "<code data-query>suit:sun points&gt;=3</code>" in section
    found = client.get(reverse("card-browser"), {"game": SLUG, "q": "suit:sun points>=3"})
    body = found.content.decode()
    assert "Noon Three" in body and "Blaze Five" in body and "Dawn One" not in body
    assert '<label for="id_branch">Suit</label>' in body


def test_the_plugin_is_found_by_slug_and_declares_the_rest(toy):
    plugin = plugin_for(SLUG)
    assert plugin is toy and plugin.name == "Toy Duel" and not plugin.cooperative
    assert plugin.words.end_reason("target") == "someone reached 15 points"
    assert plugin.words.end_reason("time-out") == "time out"
    from rules.engines.toy_duel.game import TARGET  # type: ignore[import-not-found]  # scaffolded

    assert TARGET == 15
