"""Simulation job pages: the progress bar while a job plays, cancel, a metagame's heat map
(every cell writes its rate, games and interval; colour-blind-safe colours; labels written whole)
and field win rates, the downloads; Reign Absolute's card performance (what "drawn" and "played"
mean there, and no drawn column where every unit is drawn in every game); only the job's owner
sees it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from rules.lab.jobs import simulation_chunk_run, simulation_job_play_inline
from rules.lab.selectors import simulation_job_metagame, simulation_job_report
from rules.models import SimulationJob
from tests.rules.jobs_helpers import RA, faction_decks, matchup_job, metagame_job
from tests.web.conftest import make_deck
from web.charts import heat_colour

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(user):
    return metagame_job(user, faction_decks(user, 3), games=2, chunk_size=2)


def test_a_running_job_shows_its_progress_and_can_be_cancelled(alice, job):
    simulation_chunk_run(job_id=job.pk, chunk=0)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    assert '<progress id="job-progress" max="6" value="2">' in page
    assert "2 of 6 games played</span> (1 of 3 chunks stored)" in page

    response = alice.post(reverse("simulation-cancel", args=[job.pk]), follow=True)
    assert response.status_code == 200
    assert "Cancelled after 2 of 6 games" in response.content.decode()
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.CANCELLED


def heat_table(page: str) -> str:
    """The heat map's table in a page."""
    table = re.search(r'<table[^>]*data-testid="heat-map".*?</table>', page, re.S)
    assert table, "no heat map"
    return table.group(0)


def seen_text(markup: str) -> str:
    """What a reader sees of some markup: its text without tags or attributes (a tooltip is not
    seen until hovered)."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))).strip()


def paragraph(markup: str, testid: str) -> str:
    """The seen text of the paragraph ``testid`` in some markup."""
    found = re.search(rf'<p[^>]*data-testid="{testid}"[^>]*>(.*?)</p>', markup, re.S)
    assert found, f"no paragraph {testid}"
    return seen_text(found.group(1))


def test_a_finished_metagame_shows_a_heat_map_whose_cells_write_games_and_interval(alice, job):
    simulation_job_play_inline(job_id=job.pk)
    response = alice.get(reverse("simulation-progress", args=[job.pk]), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert 'data-testid="progress"' not in page  # nothing left to poll
    table = heat_table(page)
    cells = re.findall(r'<td class="heat-cell"[^>]*>(.*?)</td>', table, re.S)
    assert len(cells) == 6  # 3 decks: every cell but the diagonal
    job.refresh_from_db()
    metagame = simulation_job_metagame(job)
    figures = [cell for row in metagame.cells for cell in row if cell is not None]
    for text, cell in zip((seen_text(markup) for markup in cells), figures, strict=True):
        # written in the cell, not only in its tooltip: the rate, the games, the interval
        assert text == (
            f"{100 * cell.win_rate:.0f}% {cell.games} games "
            f"{100 * cell.ci_low:.0f}\N{EN DASH}{100 * cell.ci_high:.0f}%"
        )
        assert cell.games == 2
    assert "azuma-shogunate against elves-grove" in table  # the tooltip's full sentence
    assert 'data-testid="field"' in page
    csv_file = alice.get(reverse("simulation-matrix", args=[job.pk, "csv"]))
    assert csv_file["Content-Type"] == "text/csv"
    assert csv_file.content.decode().startswith("deck,")
    assert alice.get(reverse("simulation-matrix", args=[job.pk, "xml"])).status_code == 404


#: a deck name longer than any label room, with a word too long for one line
LONG_NAME = (
    "Azuma Shogunate tournament build with the Unbreakablesupercalifragilisticword "
    "and three more long words"
)
#: CSS that would cut a label short
CUTTING = ("text-overflow", "overflow: hidden", "overflow:hidden", "white-space: nowrap", "clamp")


def css_rules_for(selector_part: str) -> list[str]:
    """The declarations of every rule of the site's stylesheet whose selector names
    ``selector_part``."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "deckwright.css").read_text("utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [
        body for head, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css) if selector_part in head
    ]


def test_a_long_deck_name_is_written_whole_in_the_heat_map(alice, user):
    decks = [
        make_deck(user, game=RA, sample_name="legal-azuma-shogunate", name=LONG_NAME),
        *faction_decks(user, 2)[1:],
    ]
    job = metagame_job(user, decks, games=2)
    simulation_job_play_inline(job_id=job.pk)
    table = heat_table(alice.get(reverse("simulation-detail", args=[job.pk])).content.decode())
    headers = re.findall(r"<th scope=\"(?:row|col)\"([^>]*)>(.*?)</th>", table, re.S)
    assert [seen_text(text) for _, text in headers].count(f"1. {LONG_NAME}") == 2  # row, column
    assert "…" not in table
    for attributes, text in headers:  # no style or class on a label that could cut it
        assert "style=" not in attributes + text
        classes = " ".join(re.findall(r'class="([^"]*)"', attributes + text)).split()
        assert classes == ["heat-label"]
    for rule in css_rules_for(".heat-label") + css_rules_for(".heat-map-table th"):
        assert not any(cut in rule for cut in CUTTING), rule
    assert "overflow-wrap: anywhere" in " ".join(css_rules_for(".heat-label"))  # it wraps


def test_reign_absolute_card_performance_says_what_drawn_means_and_leaves_it_out(alice, job):
    simulation_job_play_inline(job_id=job.pk)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    section = page.split('data-testid="card-performance"')[1].split("</section>")[0]
    words = paragraph(section, "sighting-words")
    assert (
        "Reign Absolute: Umbrous Edition, a card counts as drawn in a game when it was deployed"
        in words
    )
    assert "played when it moved to another square, attacked or was attacked" in words
    # every unit is deployed in every game: its win rate drawn is the deck's, so it is left out
    job.refresh_from_db()
    rows = [row for row in simulation_job_report(job)["cards"] if row["label"] == "elves-grove"]
    assert all(row["drawn"] == rows[0]["drawn"] and not row["unseen"]["games"] for row in rows)
    table = section.split("<h3>elves-grove</h3>")[1].split("</table>")[0]
    reason = paragraph(table, "card-columns-left-out")
    assert reason.startswith(
        f"Every card of elves-grove was drawn in each of its {rows[0]['drawn']['games']} games "
        "(§Setup deploys every Unit of the faction), so a card's win rate drawn is only the "
        f"deck's own, {100 * rows[0]['drawn']['win_rate']:.1f}%"
    )
    assert "the drawn, not-seen and gap columns are left out" in reason
    head = seen_text(table.split("<thead>")[1].split("</thead>")[0])
    assert head == "Card Played: games win rate (95%)"
    first_row = table.split("<tbody>")[1].split("</tr>")[0]
    assert first_row.count("<td>") == 2  # the played games and rate, nothing else


def test_card_performance_keeps_every_column_of_a_deck_whose_cards_go_unseen(alice, user):
    decks = [
        make_deck(user, game="rival-realms", sample_name=name, name=name.removeprefix("legal-"))
        for name in ("legal-arcane-court", "legal-knights-and-keeps")
    ]
    job = matchup_job(user, decks, games=2, seed=3, chunk_size=2)
    simulation_job_play_inline(job_id=job.pk)
    page = alice.get(reverse("simulation-detail", args=[job.pk])).content.decode()
    section = page.split('data-testid="card-performance"')[1].split("</section>")[0]
    assert "it left its side's draw deck by the end of the game" in paragraph(
        section, "sighting-words"
    )
    job.refresh_from_db()
    rows = simulation_job_report(job)["cards"]
    unseen = {row["label"] for row in rows if row["unseen"]["games"]}
    assert unseen  # some card of some deck stayed in its draw deck in some game
    for label in ("arcane-court", "knights-and-keeps"):
        table = section.split(f"<h3>{label}</h3>")[1].split("</table>")[0]
        head = seen_text(table.split("<thead>")[1].split("</thead>")[0])
        if label in unseen:
            assert 'data-testid="card-columns-left-out"' not in table
            assert head == (
                "Card Drawn: games win rate (95%) Played: games win rate (95%) "
                "Not seen: games win rate (95%) Drawn minus not seen (points)"
            )
        else:  # every card of it was drawn in both games (random agents play long games)
            assert 'data-testid="card-columns-left-out"' in table
            assert head == "Card Played: games win rate (95%)"


def test_the_heat_scale_runs_orange_white_purple():
    assert heat_colour(0.0) == "#b35806"
    assert heat_colour(0.5) == "#f7f7f7"
    assert heat_colour(1.0) == "#542788"
    assert heat_colour(0.25) != heat_colour(0.75)


def test_another_visitor_gets_a_404(client, other_user, job):
    client.force_login(other_user)
    assert client.get(reverse("simulation-detail", args=[job.pk])).status_code == 404
    assert client.post(reverse("simulation-cancel", args=[job.pk])).status_code == 404
    job.refresh_from_db()
    assert job.status == SimulationJob.Status.QUEUED
