"""A doctor job's page: its best swaps with the change in win rate and the corrected interval,
a button that makes a swap a new version of the deck (for the deck's owner only, never for a
swap that made the deck worse), and a plain word when no swap beat the deck; the doctor's form
for any deck the visitor can see (another player's public deck is copied into theirs first)."""

from __future__ import annotations

import re

from decks.models import Deck, Visibility
from decks.services import deck_create
from rules.lab.doctor import doctor_plan
from rules.lab.jobs import simulation_job_create, simulation_job_play_inline
from rules.models import SimulationJob
from tests.rules.doctor_helpers import MOON, SLUG, SUN, decks


def test_the_page_shows_the_swaps_and_one_click_makes_the_new_version(
    toy_duel, deck_owner, client, django_user_model
):
    sun, moon = decks(deck_owner)
    plan = doctor_plan(deck=sun, gauntlet=[moon], agent="greedy", games=8, top=2, seed=5)
    job = simulation_job_create(kind="doctor", plan=plan, owner=deck_owner, seed=5, dispatch=False)
    job = simulation_job_play_inline(job_id=job.pk)
    client.force_login(deck_owner)
    page = client.get(f"/simulations/{job.pk}/").content.decode()
    first_row = page.split('data-testid="doctor-swaps"')[1].split("</tr>")[1]
    assert "Dawn One" in first_row and "Tide Four" in first_row and "✓" in first_row
    assert "Create this version" in first_row
    assert 'data-testid="doctor-verdict"' not in page  # a swap did beat the deck
    swap = job.aggregate["doctor"]["best"][0]["swap"]
    response = client.post(f"/simulations/{job.pk}/apply-swap/", {"swap": swap})
    assert response.status_code == 302 and response["Location"] == f"/decks/{sun.pk}/"
    sun.refresh_from_db()
    assert sun.version == 2
    # the deck moved on: no more buttons, and a stale click is refused on the page
    page = client.get(f"/simulations/{job.pk}/").content.decode()
    assert "Create this version" not in page
    refused = client.post(f"/simulations/{job.pk}/apply-swap/", {"swap": swap})
    assert refused.status_code == 409 and "changed since" in refused.content.decode()


def doctor_rows(page: str) -> dict[str, str]:
    """The doctor's table rows by the card put in."""
    body = page.split('data-testid="doctor-swaps"')[1].split("<tbody>")[1].split("</tbody>")[0]
    rows = re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)
    return {_swap_name(row): row for row in rows}


def _swap_name(row: str) -> str:
    found = re.search(r"</th><td>([^<(]+)", row)
    assert found is not None, row
    return found.group(1).strip()


def test_the_page_says_when_no_swap_beat_the_deck_and_offers_no_worse_version(
    toy_duel, deck_owner, client
):
    # given: the deck's best card (Blaze Five, 5 points) is the only one the doctor may take out
    sun, moon = decks(deck_owner)
    plan = doctor_plan(
        deck=sun, gauntlet=[moon], agent="greedy", games=32, top=2, seed=5, outs=["Blaze Five"]
    )
    job = simulation_job_create(kind="doctor", plan=plan, owner=deck_owner, seed=5, dispatch=False)
    job = simulation_job_play_inline(job_id=job.pk)
    best = {swap["in"]: swap for swap in job.aggregate["doctor"]["best"]}
    assert set(best) == {"Dusk Two", "Tide Four"}
    assert best["Dusk Two"]["ci_high"] < 0 <= best["Tide Four"]["ci_high"]  # worse; unclear
    assert not any(swap["delta"] > 0 for swap in best.values())
    # when
    client.force_login(deck_owner)
    page = client.get(f"/simulations/{job.pk}/").content.decode()
    # then: it says so plainly, and the swap known to be worse cannot be made a version
    verdict = re.search(r'data-testid="doctor-verdict"><strong>([^<]*)<', page).group(1)
    assert verdict.startswith("No swap beat the deck: none of the 2 swaps raced won more often")
    rows = doctor_rows(page)
    assert "Create this version" not in rows["Dusk Two"]
    assert "✗" in rows["Dusk Two"] and "worse: not offered" in rows["Dusk Two"]
    assert "Create this version" in rows["Tide Four"] and "✗" not in rows["Tide Four"]


def test_another_players_public_deck_is_copied_into_the_visitors_decks_then_doctored(
    toy_duel, deck_owner, client, django_user_model, django_capture_on_commit_callbacks
):
    # given: two public decks of deck_owner, and a visitor who owns no deck
    sun = deck_create(
        owner=deck_owner, game=SLUG, name="Sun", decklist=SUN, visibility=Visibility.PUBLIC
    )
    moon = deck_create(
        owner=deck_owner, game=SLUG, name="Moon", decklist=MOON, visibility=Visibility.PUBLIC
    )
    visitor = django_user_model.objects.create_user("visitor", password="pw-for-tests-only")
    client.force_login(visitor)
    assert f'href="/decks/{sun.pk}/doctor/"' in client.get(f"/decks/{sun.pk}/").content.decode()
    form = client.get(f"/decks/{sun.pk}/doctor/")
    assert form.status_code == 200
    assert "starting the doctor first copies it into your decks" in form.content.decode()
    body = {"gauntlet": [moon.pk], "agent": "greedy", "games": 2, "swaps": 4, "seed": 3}
    # a refused job leaves no copy behind
    refused = client.post(f"/decks/{sun.pk}/doctor/", {**body, "gauntlet": []})
    assert refused.status_code == 400 and not Deck.objects.filter(owner=visitor).exists()
    # when
    with django_capture_on_commit_callbacks():  # not dispatched: nothing plays here
        response = client.post(f"/decks/{sun.pk}/doctor/", body)
    # then: the job doctors the visitor's own private copy, and the page says so
    assert response.status_code == 302, response.content.decode()[:2000]
    copy = Deck.objects.get(owner=visitor)
    assert (copy.name, copy.visibility) == ("Sun (copy)", Visibility.PRIVATE)
    job = SimulationJob.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert (job.owner, job.decks[0]["deck"], job.decks[1]["deck"]) == (visitor, copy.pk, moon.pk)
    cards = {(row.card.name, row.quantity) for row in copy.cards.select_related("card")}
    assert cards == {(row.card.name, row.quantity) for row in sun.cards.select_related("card")}
    sun.refresh_from_db()
    assert (sun.owner, sun.version) == (deck_owner, 1)  # the original is untouched
    shown = client.get(response["Location"]).content.decode()
    assert "Sun is deck-owner&#x27;s deck, so it was copied into your decks first" in shown
    assert "the doctor works on your copy, Sun (copy)" in shown
    # a visitor who is not logged in is asked to log in first
    client.logout()
    anonymous = client.get(f"/decks/{sun.pk}/doctor/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_a_matchup_jobs_page_shows_its_card_performance(toy_duel, deck_owner, client):
    from rules.lab.plans import matchup_plan

    sun, moon = decks(deck_owner)
    plan = matchup_plan(decks=[sun, moon], agents=["greedy", "greedy"], games=6)
    job = simulation_job_create(kind="matchup", plan=plan, owner=deck_owner, seed=2, dispatch=False)
    simulation_job_play_inline(job_id=job.pk)
    client.force_login(deck_owner)
    page = client.get(f"/simulations/{job.pk}/").content.decode()
    section = page.split('data-testid="card-performance"')[1]
    assert section.count('data-testid="card-table"') == 2
    sun_table = section.split("<h3>Sun</h3>")[1].split("</table>")[0]
    for card in ("Dawn One", "Noon Three", "Blaze Five"):
        assert f'<th scope="row">{card}</th>' in sun_table
    # the game's own words, from its plugin (PageWords.sightings)
    assert "a card counts as <strong>drawn</strong> in a game when it was in its player" in section


def test_the_deck_page_links_its_owner_to_a_doctor_form_that_starts_the_job(
    toy_duel, deck_owner, client, django_user_model, django_capture_on_commit_callbacks
):
    sun, moon = decks(deck_owner)
    client.force_login(deck_owner)
    assert f'href="/decks/{sun.pk}/doctor/"' in client.get(f"/decks/{sun.pk}/").content.decode()
    form = client.get(f"/decks/{sun.pk}/doctor/").content.decode()
    assert 'data-testid="doctor-form"' in form and "Moon" in form
    body = {"gauntlet": [moon.pk], "agent": "greedy", "games": 2, "swaps": 4, "seed": 3}
    with django_capture_on_commit_callbacks():  # not dispatched: the test plays it below
        response = client.post(f"/decks/{sun.pk}/doctor/", body)
    assert response.status_code == 302, response.content.decode()[:2000]
    job = SimulationJob.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert (job.kind, len(job.doctor["swaps"]), job.decks[1]["deck"]) == ("doctor", 4, moon.pk)
    # a competitive game needs a gauntlet: the form says so and starts nothing
    refused = client.post(f"/decks/{sun.pk}/doctor/", {**body, "gauntlet": []})
    assert refused.status_code == 400 and "at least one gauntlet deck" in refused.content.decode()
    # someone else's deck has no doctor
    stranger = django_user_model.objects.create_user("stranger", password="pw-for-tests-only")
    client.force_login(stranger)
    assert client.get(f"/decks/{sun.pk}/doctor/").status_code == 404


def test_every_gauntlet_deck_the_engine_cannot_play_is_refused_by_its_name(user):
    # only the first gauntlet deck was dealt before: a later one failed the job after it was
    # stored, calling a legal deck "deck 1"
    import pytest

    from rules.lab.plans import SimulationJobError
    from tests.web.conftest import make_deck

    game = "rival-realms"
    court = make_deck(user, game=game, sample_name="legal-arcane-court", name="Court")
    keeps = make_deck(user, game=game, sample_name="legal-knights-and-keeps", name="Keeps")
    short = make_deck(user, game=game, sample_name="illegal-deck-size", name="Evil Short")
    doctor_plan(deck=court, gauntlet=[keeps], agent="random", games=2, max_swaps=2)
    for gauntlet in ([keeps, short], [short, keeps]):
        with pytest.raises(SimulationJobError) as refused:
            doctor_plan(deck=court, gauntlet=gauntlet, agent="random", games=2, max_swaps=2)
        message = str(refused.value)
        assert "Evil Short is not legal" in message and "deck 1" not in message
