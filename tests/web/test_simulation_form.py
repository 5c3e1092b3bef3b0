"""The form that starts a metagame job: a job and a redirect to its page when everything is
right; otherwise the reason beside the field at fault and nothing stored or charged (quota
refusals too); the visitor's recent jobs under the form."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from decks.models import Visibility
from rules.models import SimulationJob
from tests.rules.jobs_helpers import RA, faction_decks
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db

URL = "/simulations/"


def fields(decks, **changes):
    data = {
        "game": RA,
        "decks": [deck.pk for deck in decks],
        "agent": "random",
        "games_per_pairing": "2",
        "seed": "3",
        "meta_shares": "",
    }
    data.update(changes)
    return data


def error_beside(page: str, field: str) -> str:
    """The error text shown inside the field's block (``id_<field>`` names its input)."""
    start = page.index(f'id="id_{field}')
    block = page[start : page.index("</div>", page.index("field-error", start)) + 6]
    return block


@pytest.fixture
def decks(user):
    return faction_decks(user, 3)


def test_a_metagame_starts_and_the_browser_goes_to_its_page(alice, decks):
    response = alice.post(URL, fields(decks, meta_shares="1, 2, 1"))

    job = SimulationJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("simulation-detail", args=[job.pk])
    assert job.kind == SimulationJob.Kind.METAGAME
    assert job.games_total == 6  # 3 pairings of 2 games
    assert job.seed == 3
    assert job.meta_shares == [1.0, 2.0, 1.0]
    assert [deck["deck"] for deck in job.decks] == sorted(d.pk for d in decks)
    page = alice.get(URL).content.decode()
    assert reverse("simulation-detail", args=[job.pk]) in page
    assert "Metagame of 3 decks" in page


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"games_per_pairing": "3"}, "games_per_pairing", "even number (2 or 4)"),
        ({"agent": "alphabeta"}, "agent", "does not play Reign Absolute"),
        ({"meta_shares": "1, 2"}, "meta_shares", "one meta share per deck"),
        ({"meta_shares": "a lot"}, "meta_shares", "numbers separated by commas"),
        ({"meta_shares": "1e308, 1e308, 1"}, "meta_shares", "from 0 to 1,000,000,000"),
        ({"seed": "-1"}, "seed", "greater than or equal to 0"),
    ],
)
def test_a_refusal_is_shown_beside_its_field_and_stores_nothing(
    alice, decks, changes, field, words
):
    response = alice.post(URL, fields(decks, **changes))

    assert response.status_code == 400
    assert words in error_beside(response.content.decode(), field)
    assert not SimulationJob.objects.exists()


def test_decks_of_another_game_or_too_few_are_refused_beside_the_decks(alice, user, decks):
    eagles = make_deck(user)  # a Revolt N Reign deck
    mixed = alice.post(URL, fields([*decks[:2], eagles])).content.decode()
    assert "Pick decks of Reign Absolute: Umbrous Edition only: Eagle Control is a" in mixed
    alone = alice.post(URL, fields(decks[:1])).content.decode()
    assert "Pick 2 to 16 decks (1 picked)" in alone
    assert not SimulationJob.objects.exists()


def test_a_job_over_the_game_limit_is_refused_beside_the_games(alice, decks, settings):
    settings.SIMULATION_MAX_GAMES = 5

    response = alice.post(URL, fields(decks))

    assert response.status_code == 400
    assert "A job plays 1 to 5 games" in response.content.decode()
    assert not SimulationJob.objects.exists()


def test_an_anonymous_visitor_is_held_to_the_hourly_quota(client, user, password, settings):
    settings.MATCHUP_ANON_GAMES_PER_HOUR = 8
    settings.MATCHUP_ANON_GAMES_PER_HOUR_IP = 100
    public = [
        make_deck(
            user, game=RA, sample_name=f"legal-{name}", name=name, visibility=Visibility.PUBLIC
        )
        for name in ("azuma-shogunate", "elves-grove", "empire-legion")
    ]
    first = client.post(URL, fields(public))  # 6 games of 8
    assert first.status_code == 302
    job = SimulationJob.objects.get()
    assert job.owner is None
    assert client.get(first["Location"]).status_code == 200  # the browser's own job

    again = client.post(URL, fields(public))  # 6 more: over the browser's 8

    assert again.status_code == 400
    assert "this browser has 2 left" in again.content.decode()
    assert SimulationJob.objects.count() == 1
    assert Client().get(first["Location"]).status_code == 404  # another browser's
    # logging in keeps the job: it moves to the account
    client.post(reverse("login"), {"username": user.username, "password": password})
    job.refresh_from_db()
    assert job.owner == user and job.session_key == ""
    assert "Metagame of 3 decks" in client.get(URL).content.decode()


def test_the_navigation_and_the_matchup_page_link_to_the_form(alice):
    page = alice.get(reverse("matchup-new")).content.decode()
    assert page.count(f'href="{URL}"') == 2
    form = alice.get(URL).content.decode()
    assert 'value="reign-absolute"' in form
    assert 'value="reggae-revolution"' in form  # co-operative: a field of team win rates
    for kind in ("metagame", "gauntlet", "matchup"):
        assert f'value="{kind}"' in form


@pytest.mark.parametrize("deck_id", ["9223372036854775808", "9" * 5000, "-1", "٣"])
def test_a_deck_id_out_of_range_is_refused_beside_the_decks(alice, deck_id):
    response = alice.post(URL, {**fields([]), "decks": [deck_id]})

    assert response.status_code == 400
    assert "is not a valid value" in error_beside(response.content.decode(), "decks")


def test_a_gauntlet_starts_from_the_form_and_its_page_rates_the_deck(alice, decks):
    from rules.lab.jobs import simulation_job_play_inline

    hero, *opponents = decks
    # all three ticked: the gauntlet's own deck among its opponents is left out of them
    response = alice.post(URL, fields(decks, kind="gauntlet", hero=hero.pk, meta_shares="1, 3"))

    job = SimulationJob.objects.get()
    assert response.status_code == 302
    assert job.kind == SimulationJob.Kind.GAUNTLET
    assert [deck["deck"] for deck in job.decks] == [hero.pk, *(d.pk for d in opponents)]
    assert [pairing["sides"] for pairing in job.pairings] == [[0, 1], [0, 2]]
    assert job.meta_shares == [1.0, 3.0]
    simulation_job_play_inline(job_id=job.pk)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    assert 'data-testid="gauntlet-rows"' in page
    assert f"{hero.name} against each deck" in page
    for deck in opponents:
        assert f'<th scope="row">{deck.name}</th>' in page
    assert 'data-testid="heat-map"' not in page


def test_a_gauntlet_needs_its_deck_and_even_games(alice, decks):
    page = alice.post(URL, fields(decks, kind="gauntlet")).content.decode()
    assert "Pick the deck the gauntlet plays" in error_beside(page, "hero")
    page = alice.post(
        URL, fields(decks, kind="gauntlet", hero=decks[0].pk, games_per_pairing="3")
    ).content.decode()
    assert "Give an even number (2 or 4)" in error_beside(page, "games_per_pairing")
    assert not SimulationJob.objects.exists()


def test_a_matchup_job_starts_from_the_form_with_an_odd_number_of_games(alice, decks):
    response = alice.post(URL, fields(decks[:2], kind="matchup", games_per_pairing="3"))

    job = SimulationJob.objects.get()
    assert response.status_code == 302
    assert (job.kind, job.games_total, len(job.pairings)) == ("matchup", 3, 1)


def test_a_cooperative_metagame_starts_from_the_form_as_a_field_of_teams(alice, user):
    from rules.lab.jobs import simulation_job_play_inline

    crews = [
        make_deck(user, game="reggae-revolution", sample_name="legal-starting-deck", name=f"C{n}")
        for n in range(2)
    ]
    response = alice.post(
        URL,
        fields(crews, game="reggae-revolution", agent="team", games_per_pairing="1", players="3"),
    )

    job = SimulationJob.objects.get()
    assert response.status_code == 302
    assert [pairing["sides"] for pairing in job.pairings] == [[0, 0, 0], [1, 1, 1]]
    simulation_job_play_inline(job_id=job.pk)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    assert 'data-testid="team-field-rows"' in page
    assert "Reggae Revolution is co-operative" in page


@pytest.mark.parametrize("asked", ["RR", "rr", "Rival Realms", "rival-realms"])
def test_the_form_opens_on_the_game_named_by_its_short_name_or_slug(alice, decks, asked):
    """``?game=RR`` opens the form on Rival Realms, as ``?game=rival-realms`` does (the visitor's
    latest deck, of Reign Absolute, would pick that game otherwise)."""
    page = alice.get(URL, {"game": asked}).content.decode()
    assert re.search(r'<option value="rival-realms"[^>]*selected', page), asked
