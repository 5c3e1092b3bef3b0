"""``manage.py metagame``: a round robin of database decks, played in-process, printed as a
matrix, JSON or CSV; the same seed gives the same matrix whatever the chunk size."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.rules.jobs_helpers import faction_decks

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck_ids(django_user_model):
    owner = django_user_model.objects.create_user("cli", "cli@example.com", "x-long-pass-42")
    return ",".join(str(deck.pk) for deck in faction_decks(owner, 3))


def metagame(*args: str, **options) -> str:
    out = io.StringIO()
    call_command("metagame", *args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def test_the_matrix_and_field_rates_are_printed(deck_ids, settings):
    settings.CELERY_BROKER_URL = ""
    text = metagame("--decks", deck_ids, "--games", "2", "--agent", "random", "--seed", "4")
    assert "azuma-shogunate" in text and "empire-legion" in text
    assert "Win rate against the field (weighted by meta share), 95% interval:" in text
    assert text.count("share 33.3%") == 3


def test_json_is_the_same_whatever_the_chunk_size_and_csv_has_a_row_per_deck(deck_ids):
    common = ["--decks", deck_ids, "--games", "4", "--agent", "random", "--seed", "9"]
    by_one = json.loads(metagame(*common, "--chunk-size", "1", "--json"))
    by_fifty = json.loads(metagame(*common, "--chunk-size", "50", "--json"))
    assert by_one == by_fifty
    cell, mirror = by_one["cells"][0][1], by_one["cells"][1][0]
    assert cell["games"] == 4 and cell["wins"] == mirror["losses"]
    rows = metagame(*common, "--shares", "1,1,2", "--csv").splitlines()
    assert rows[0].startswith("deck,") and len(rows) == 4
    assert rows[3].split(",")[4] == "0.500000"  # the third deck's share


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--games", "3"], "even number"),
        (["--agent", "no-such-agent"], "does not play Reign Absolute"),
        (["--shares", "1,2"], "one meta share per deck"),
        (["--shares", "a,b,c"], "comma-separated numbers"),
    ],
)
def test_bad_options_are_refused_with_a_reason(deck_ids, extra, message):
    with pytest.raises(CommandError, match=message):
        metagame("--decks", deck_ids, "--agent", "random", *extra)


def test_an_unknown_deck_is_named():
    with pytest.raises(CommandError, match="No deck with id 999999"):
        metagame("--decks", "999999,999998")


def test_a_gauntlet_prints_the_first_decks_rate_against_each_other(deck_ids, settings):
    settings.CELERY_BROKER_URL = ""
    common = ["--decks", deck_ids, "--games", "2", "--agent", "random", "--gauntlet"]
    text = metagame(*common, "--shares", "3,1")
    assert text.startswith("azuma-shogunate against each deck:")
    assert "elves-grove" in text and "share  75.0%" in text and "weighted" in text
    rows = metagame(*common, "--csv").splitlines()
    assert rows[0].startswith("opponent,share,games") and len(rows) == 4
    data = json.loads(metagame(*common, "--json"))
    assert [row["games"] for row in data["rows"]] == [2, 2] and data["hero"] == "azuma-shogunate"


def test_a_cooperative_metagame_prints_each_decks_team_rate(django_user_model):
    from tests.web.conftest import make_deck

    owner = django_user_model.objects.create_user("crew", "crew@example.com", "x-long-pass-42")
    crews = [
        make_deck(owner, game="reggae-revolution", sample_name="legal-starting-deck", name=n)
        for n in ("Roots", "Dub")
    ]
    ids = ",".join(str(deck.pk) for deck in crews)
    text = metagame("--decks", ids, "--games", "1", "--agent", "team", "--players", "2")
    assert text.startswith("Each deck's team against the game:")
    assert "Roots" in text and "Dub" in text and text.count("1 games") == 2
