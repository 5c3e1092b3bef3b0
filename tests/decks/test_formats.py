"""Formats: legal sets, dated banned and restricted lists, loaded from formats.yaml."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from cards.models import Card
from decks.models import Format, FormatCardEntry, FormatCardStatus, FormatSet
from decks.selectors import format_default, format_list_entries_on
from decks.services import DeckError, format_data_load
from decks.validation import UnknownFormatError, validate
from rules.engines.core import registered_games
from tests.decks.conftest import RNR, legal_rnr_deck

pytestmark = pytest.mark.django_db
BEFORE_BAN, AFTER_BAN = dt.date(2026, 5, 15), dt.date(2026, 10, 1)


def with_writs() -> dict[str, int]:
    deck = legal_rnr_deck()
    del deck["Tea Act"]
    deck["Writs of Assistance"] = 1
    return deck


def test_every_game_ships_a_default_standard_format():
    for slug in registered_games():
        fmt = format_default(slug)
        assert fmt is not None and fmt.slug == "standard", slug
        assert fmt.legal_sets.exists()


def test_a_banned_card_is_reported_only_while_its_ban_is_in_effect():
    before = validate(RNR, with_writs(), format="standard", as_of=BEFORE_BAN)
    after = validate(RNR, with_writs(), format="standard", as_of=AFTER_BAN)

    assert before.legal
    assert after.codes == ["banned"]
    assert after.violations[0].cards == ["Writs of Assistance"]
    assert "2026-10-01" in after.violations[0].message
    assert after.to_dict()["format"] == "standard"


def test_a_ban_with_an_end_date_lifts_on_that_day():
    deck = legal_rnr_deck()
    del deck["Sky Sentinel Strike"]
    deck["Overthrow the Governor"] = 1

    assert validate(RNR, deck, format="standard", as_of=dt.date(2026, 7, 31)).codes == ["banned"]
    assert validate(RNR, deck, format="standard", as_of=dt.date(2026, 8, 1)).legal


def test_was_this_list_legal_on_a_date():
    fmt = Format.objects.get(game__slug=RNR, slug="standard")

    on_may_first = {e.card.name for e in format_list_entries_on(fmt, dt.date(2026, 5, 1))}
    today = {e.card.name for e in format_list_entries_on(fmt, AFTER_BAN)}

    assert on_may_first == {"Overthrow the Governor", "Declaration Cannonade"}
    assert today == {"Writs of Assistance", "Declaration Cannonade"}


def test_restricted_cards_may_appear_up_to_their_limit():
    deck = legal_rnr_deck()
    deck["Eagle Dive"] = 1
    deck["Sky Sentinel Strike"] = 0
    deck["Declaration Cannonade"] = 2
    deck = {name: n for name, n in deck.items() if n}

    report = validate(RNR, deck, format="standard", as_of=AFTER_BAN)

    assert report.codes == ["restricted"]
    assert report.violations[0].details["limit"] == 1
    assert validate(RNR, deck, format="standard", as_of=dt.date(2026, 4, 30)).legal


def test_cards_from_a_set_outside_the_format_or_not_yet_released():
    deck = legal_rnr_deck()
    del deck["Town Watch"]
    deck["Signal Fire Guard"] = 1  # RNR2, released 2026-09-01

    founding = validate(RNR, deck, format="founding", as_of=AFTER_BAN)
    standard_before_release = validate(RNR, deck, format="standard", as_of=dt.date(2026, 8, 31))
    standard_after_release = validate(RNR, deck, format="standard", as_of=AFTER_BAN)

    assert founding.codes == ["not-in-format"]
    assert founding.violations[0].cards == ["Signal Fire Guard"]
    assert founding.violations[0].details["set"] == "RNR2"
    assert standard_before_release.codes == ["not-in-format"]
    assert standard_after_release.legal


def test_format_and_construction_violations_are_reported_together():
    deck = with_writs()
    deck["Signal Ridge"] += 1

    report = validate(RNR, deck, format="standard", as_of=AFTER_BAN)

    assert sorted(report.codes) == ["banned", "deck-size"]


def test_a_format_edited_in_the_database_applies_at_once():
    fmt = Format.objects.get(game__slug=RNR, slug="standard")
    deck = legal_rnr_deck()
    assert validate(RNR, deck, format="standard", as_of=AFTER_BAN).legal

    FormatCardEntry.objects.create(
        format=fmt,
        card=Card.objects.get(game__slug=RNR, name="Eagle Dive"),
        status=FormatCardStatus.BANNED,
        effective_from=dt.date(2026, 9, 1),
    )

    assert validate(RNR, deck, format="standard", as_of=AFTER_BAN).codes == ["banned"]


def test_an_unknown_format_is_an_error_not_a_verdict():
    with pytest.raises(UnknownFormatError, match="no format 'modern'"):
        validate(RNR, legal_rnr_deck(), format="modern")


def test_a_format_outside_its_dates_warns():
    fmt = Format.objects.get(game__slug=RNR, slug="standard")

    report = validate(RNR, legal_rnr_deck(), format=fmt, as_of=dt.date(2026, 1, 1))

    assert [w.code for w in report.warnings] == ["format-not-in-effect"]


def test_loading_formats_is_idempotent_and_reports_every_problem(tmp_path: Path):
    fixtures = Path(settings.FIXTURES_DIR)
    first = format_data_load(slug=RNR, fixtures_dir=fixtures)
    counts = (Format.objects.count(), FormatSet.objects.count(), FormatCardEntry.objects.count())
    second = format_data_load(slug=RNR, fixtures_dir=fixtures)
    assert first is not None and second is not None

    assert first.summary() == second.summary()
    assert counts == (
        Format.objects.count(),
        FormatSet.objects.count(),
        FormatCardEntry.objects.count(),
    )

    (tmp_path / RNR).mkdir()
    (tmp_path / RNR / "formats.yaml").write_text(
        "formats:\n"
        "  - slug: broken\n"
        "    name: Broken\n"
        "    sets: [NOPE]\n"
        "    banned: [{card: Eagle Div}]\n"
        "    restricted: [{card: Stamp Act, limit: -1, from: someday}]\n"
    )
    with pytest.raises(DeckError) as caught:
        format_data_load(slug=RNR, fixtures_dir=tmp_path)
    problems = "\n".join(caught.value.problems)
    assert "unknown set 'NOPE'" in problems
    assert "'Eagle Div' is unknown (did you mean Eagle Dive" in problems
    assert "limit must be a whole number" in problems
    assert "'someday' is not a date" in problems
    assert not Format.objects.filter(slug="broken").exists()


def test_load_game_data_loads_the_formats_after_the_cards(tmp_path: Path, capsys):
    # given: a copy of the game's folder whose formats.yaml bans a card that does not exist
    fixtures = Path(settings.FIXTURES_DIR)
    call_command("load_game_data", game=[RNR])
    assert f"{RNR} formats: " in capsys.readouterr().out

    shutil.copytree(fixtures / RNR, tmp_path / RNR)
    (tmp_path / RNR / "formats.yaml").write_text(
        "formats:\n  - {slug: broken, name: Broken, banned: [Eagle Div]}\n"
    )

    # when / then: the cards load, the formats are refused with their problem, the command fails
    with pytest.raises(CommandError, match="some game data is invalid"):
        call_command("load_game_data", game=[RNR], fixtures=tmp_path)
    err = capsys.readouterr().err
    assert f"{RNR}: formats not loaded, 1 problem(s):" in err
    assert "'Eagle Div' is unknown" in err
    assert not Format.objects.filter(slug="broken").exists()
