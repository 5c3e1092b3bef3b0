"""Simulation jobs over the API: start one, follow it, read its results and matrix, cancel it;
bad input is a 400 problem, a used-up quota a 429, someone else's job a 404."""

from __future__ import annotations

import csv
import io

import pytest

from rules.lab.jobs import simulation_job_play_inline
from rules.models import SimulationJob
from tests.rules.jobs_helpers import faction_decks
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db
URL = "/api/v1/simulations/"


@pytest.fixture
def decks(user):
    return faction_decks(user, 3)


@pytest.fixture
def alice(api_client, user):
    api_client.force_authenticate(user)
    return api_client


def start(client, chosen, **extra):
    body = {
        "kind": "metagame",
        "decks": [deck.pk for deck in chosen],
        "games_per_pairing": 2,
        "agent": "random",
        "seed": 5,
        **extra,
    }
    return client.post(URL, body, format="json")


def test_a_metagame_job_is_started_played_and_read(
    alice, decks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        response = start(alice, decks, chunk_size=4, meta_shares=[1, 1, 2])
    assert response.status_code == 201, response.json()
    job = response.json()
    assert (job["kind"], job["status"], job["game"]) == ("metagame", "queued", "reign-absolute")
    assert (job["games_total"], job["chunk_count"], job["pairings"]) == (6, 2, 3)
    assert [deck["deck"] for deck in job["decks"]] == [deck.pk for deck in decks]
    assert len(queued) == 1  # its chunks are handed out once the job is committed

    simulation_job_play_inline(job_id=job["id"])  # what the background thread does

    detail = alice.get(f"{URL}{job['id']}/").json()
    assert (detail["status"], detail["games_done"], detail["progress"]) == ("done", 6, 1.0)
    results = alice.get(f"{URL}{job['id']}/results/").json()
    assert results["complete"] is True
    report = results["report"]
    assert report["games"] == 6 and len(report["pairings"]) == 3
    for pairing in report["pairings"]:
        assert sum(side["wins"] for side in pairing["sides"]) + pairing["draws"] == 2
    metagame = report["metagame"]
    assert metagame["shares"] == [0.25, 0.25, 0.5]
    a_b, b_a = metagame["cells"][0][1], metagame["cells"][1][0]
    assert a_b["win_rate"] + b_a["win_rate"] == pytest.approx(1 - a_b["draws"] / a_b["games"])

    exported = alice.get(f"{URL}{job['id']}/matrix/?kind=csv")
    assert exported.status_code == 200 and exported["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][1:4] == metagame["labels"]
    as_json = alice.get(f"{URL}{job['id']}/matrix/").json()
    assert as_json["cells"] == metagame["cells"]


def test_a_matchup_job_reports_its_one_pairing(alice, user):
    a = make_deck(user, game="rival-realms", sample_name="legal-arcane-court", name="Court")
    b = make_deck(user, game="rival-realms", sample_name="legal-knights-and-keeps", name="Keeps")
    body = {"kind": "matchup", "decks": [a.pk, b.pk], "games_per_pairing": 3, "agent": "random"}
    job = alice.post(URL, body, format="json").json()
    simulation_job_play_inline(job_id=job["id"])
    report = alice.get(f"{URL}{job['id']}/results/").json()["report"]
    assert "metagame" not in report
    (pairing,) = report["pairings"]
    assert [side["label"] for side in pairing["sides"]] == ["Court", "Keeps"]
    assert pairing["games"] == 3
    assert alice.get(f"{URL}{job['id']}/matrix/").status_code == 404


def test_a_running_job_shows_partial_results_and_can_be_cancelled_once(alice, decks):
    from rules.lab.jobs import simulation_chunk_run

    job = start(alice, decks, chunk_size=2).json()
    simulation_chunk_run(job_id=job["id"], chunk=0)
    partial = alice.get(f"{URL}{job['id']}/results/").json()
    assert partial["complete"] is False and partial["report"]["games"] == 2

    response = alice.post(f"{URL}{job['id']}/cancel/")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    again = alice.post(f"{URL}{job['id']}/cancel/")
    assert again.status_code == 409
    assert again.json()["code"] == "conflict"
    assert simulation_chunk_run(job_id=job["id"], chunk=1) == "skipped"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"games_per_pairing": 3}, "games_per_pairing", "even number"),
        ({"kind": "tournament"}, "kind", "not a valid choice"),
        ({"agent": "alphabeta"}, "agent", "does not play Reign Absolute"),
        ({"meta_shares": [1, 2]}, "meta_shares", "one meta share per deck"),
        ({"meta_shares": [-1, 1, 1]}, "meta_shares.0", "greater than or equal to 0"),
        ({"decks": [999_999, 999_998]}, "decks", "No deck 999999, 999998"),
        ({"agents": ["random"] * 3}, "", "one agent for every deck"),
    ],
)
def test_bad_input_is_a_400_naming_the_problem(alice, decks, change, field, words):
    response = start(alice, decks, **change)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation-error"
    assert body["errors"][0]["field"] == field
    assert words in body["errors"][0]["detail"]
    assert not SimulationJob.objects.exists()


def test_a_used_up_quota_is_a_429_and_starts_nothing(alice, decks, settings):
    settings.SIMULATION_USER_GAMES_PER_HOUR = 8
    assert start(alice, decks).status_code == 201  # 6 games
    response = start(alice, decks)  # 6 more: 12 > 8
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "quota-exceeded"
    assert "your account has 2 left" in body["detail"]
    assert int(response["Retry-After"]) == body["retry_after"] > 0
    assert SimulationJob.objects.count() == 1


def test_too_many_games_is_a_400_and_charges_nothing(alice, decks, settings):
    settings.SIMULATION_MAX_GAMES = 5
    settings.SIMULATION_USER_GAMES_PER_HOUR = 6
    assert "1 to 5 games" in start(alice, decks).json()["detail"]
    settings.SIMULATION_MAX_GAMES = 100
    assert start(alice, decks).status_code == 201  # the refused 6 games were not charged


def test_jobs_are_private_to_their_owner(alice, decks, api_client, other_user):
    job = start(alice, decks).json()
    api_client.force_authenticate(other_user)
    assert api_client.get(f"{URL}{job['id']}/").status_code == 404
    assert api_client.post(f"{URL}{job['id']}/cancel/").status_code == 404
    assert api_client.get(URL).json()["results"] == []
    # another user's private decks cannot be put in a job
    response = start(api_client, decks)
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "decks"
    api_client.force_authenticate(None)
    assert api_client.get(URL).status_code == 401
    assert start(api_client, decks).status_code == 401


def test_the_list_takes_the_same_queries_for_one_job_or_many(
    alice, decks, django_assert_num_queries
):
    start(alice, decks)
    with django_assert_num_queries(2):  # count and page, nothing per job
        alice.get(URL)
    start(alice, decks)
    start(alice, decks)
    with django_assert_num_queries(2):
        response = alice.get(URL)
    assert response.json()["count"] == 3


def test_the_field_can_be_weighed_again_by_other_shares(alice, decks):
    job = start(alice, decks).json()
    simulation_job_play_inline(job_id=job["id"])
    url = f"{URL}{job['id']}/results/"
    even = alice.get(url).json()["report"]["metagame"]
    reweighed = alice.get(url, {"shares": "0,1,3"}).json()["report"]["metagame"]
    assert even["shares"] == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert reweighed["shares"] == [0.0, 0.25, 0.75]
    assert reweighed["cells"] == even["cells"]  # the games are the same
    row = reweighed["cells"][0]  # deck 0 meets deck 1 a quarter of the time, deck 2 the rest
    expected = row[1]["win_rate"] / 4 + row[2]["win_rate"] * 3 / 4
    assert reweighed["field"][0]["win_rate"] == pytest.approx(expected, abs=1e-6)
    rows = alice.get(f"{URL}{job['id']}/matrix/", {"kind": "csv", "shares": "0,1,3"})
    assert rows.content.decode().splitlines()[3].split(",")[4] == "0.750000"
    for bad in ("1,2", "a,b,c", "0,0,0"):
        response = alice.get(url, {"shares": bad})
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == "shares"


def test_a_gauntlet_job_rates_its_first_deck_against_each_other(alice, decks):
    hero, *others = decks
    response = start(alice, [others[1], hero, others[0]], kind="gauntlet", meta_shares=[3, 1])
    assert response.status_code == 201, response.json()
    job = response.json()
    assert (job["kind"], job["pairings"], job["games_total"]) == ("gauntlet", 2, 4)
    simulation_job_play_inline(job_id=job["id"])

    report = alice.get(f"{URL}{job['id']}/results/").json()["report"]
    gauntlet = report["gauntlet"]
    assert gauntlet["hero"] == others[1].name and gauntlet["cooperative"] is False
    assert [row["label"] for row in gauntlet["rows"]] == [hero.name, others[0].name]
    assert [row["share"] for row in gauntlet["rows"]] == [0.75, 0.25]
    assert [row["games"] for row in gauntlet["rows"]] == [2, 2]
    assert "metagame" not in report
    assert alice.get(f"{URL}{job['id']}/matrix/").status_code == 404
    refused = start(alice, decks, kind="gauntlet", players=2)
    assert refused.status_code == 400
    assert "no players" in str(refused.json())
