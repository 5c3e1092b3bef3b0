"""A doctor job's page: its best swaps with the change in win rate and the corrected interval,
and a button that makes a swap a new version of the deck (for the deck's owner only)."""

from __future__ import annotations

from rules.doctor import doctor_plan
from rules.jobs import simulation_job_create, simulation_job_play_inline
from rules.models import SimulationJob
from tests.rules.doctor_helpers import decks


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


def test_a_matchup_jobs_page_shows_its_card_performance(toy_duel, deck_owner, client):
    from rules.jobs import matchup_plan

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
