"""The deck doctor over the API: a doctor job is started at /api/v1/simulations/ (kind doctor),
its results hold the raced swaps, and one of them becomes a new version of the deck; the schema
documents all of it."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from rules.lab.jobs import simulation_job_play_inline
from tests.rules.doctor_helpers import decks

URL = "/api/v1/simulations/"


@pytest.fixture
def client_of(api_client, deck_owner):
    api_client.force_authenticate(deck_owner)
    return api_client


def test_a_doctor_job_is_started_read_and_its_best_swap_applied(
    toy_duel, deck_owner, client_of, other_user, api_client
):
    sun, moon = decks(deck_owner)
    body = {
        "kind": "doctor",
        "decks": [sun.pk, moon.pk],
        "games_per_pairing": 8,
        "agent": "greedy",
        "seed": 5,
        "top": 2,
    }
    response = client_of.post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    job = response.json()
    assert job["kind"] == "doctor" and job["chunk_count"] == len(job["decks"]) + 1
    simulation_job_play_inline(job_id=job["id"])
    results = client_of.get(f"{URL}{job['id']}/results/").json()
    doctor = results["report"]["doctor"]
    best = doctor["best"][0]
    assert (best["out"], best["in"], best["significant"]) == ("Dawn One", "Tide Four", True)
    assert doctor["tried"] == doctor["screen"]["kept"] == len(doctor["raced"])

    # someone else cannot change the deck; its owner can, once
    api_client.force_authenticate(other_user)
    assert api_client.post(f"{URL}{job['id']}/apply-swap/", {"swap": 0}).status_code == 404
    api_client.force_authenticate(deck_owner)
    applied = api_client.post(f"{URL}{job['id']}/apply-swap/", {"swap": best["swap"]})
    assert applied.json() == {"deck": sun.pk, "version": 2}
    again = api_client.post(f"{URL}{job['id']}/apply-swap/", {"swap": best["swap"]})
    assert again.status_code == 409 and "changed since" in again.json()["detail"]


def test_doctor_options_are_refused_on_other_kinds(toy_duel, deck_owner, client_of):
    sun, moon = decks(deck_owner)
    body = {"kind": "matchup", "decks": [sun.pk, moon.pk], "games_per_pairing": 2, "top": 2}
    response = client_of.post(URL, body, format="json")
    assert response.status_code == 400
    assert "doctor" in str(response.json())


def test_the_schema_documents_doctor_jobs(db):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    create = schema["components"]["schemas"]["SimulationCreateRequest"]["properties"]
    assert "doctor" in str(create["kind"]) and {"swaps", "top", "cards_in"} <= set(create)
    swap = schema["components"]["schemas"]["DoctorSwap"]["properties"]
    assert {"out", "in", "delta", "ci_low", "ci_high", "significant"} <= set(swap)
    assert f"{URL}{{id}}/apply-swap/" in schema["paths"]


def test_a_matchup_jobs_results_give_card_performance(toy_duel, deck_owner, client_of):
    sun, moon = decks(deck_owner)
    body = {"kind": "matchup", "decks": [sun.pk, moon.pk], "games_per_pairing": 4, "seed": 1}
    job = client_of.post(URL, {**body, "agents": ["greedy", "greedy"]}, format="json").json()
    simulation_job_play_inline(job_id=job["id"])
    cards = client_of.get(f"{URL}{job['id']}/results/").json()["report"]["cards"]
    rows = {(row["label"], row["card"]): row for row in cards}
    dawn = rows[("Sun", "Dawn One")]
    assert dawn["drawn"]["games"] + dawn["unseen"]["games"] == 4
    assert set(dawn["drawn"]) == {"games", "wins", "win_rate", "ci_low", "ci_high"}
    schema = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    assert {"drawn", "played", "unseen", "improvement_when_drawn"} <= set(
        schema["CardFigures"]["properties"]
    )
