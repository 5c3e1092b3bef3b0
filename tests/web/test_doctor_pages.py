"""A doctor job's page: its best swaps with the change in win rate and the corrected interval,
and a button that makes a swap a new version of the deck (for the deck's owner only)."""

from __future__ import annotations

from rules.doctor import doctor_plan
from rules.jobs import simulation_job_create, simulation_job_play_inline
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
