"""The session's game data survives a transactional test's flush, whatever order tests run in.

pytest-django runs the transactional tests (live servers, real workers) after the others, and
each ends by flushing the database. ``make test`` splits the run by file over a process per core,
so a file's database tests may run after another file's flush in the same process: the setup
hook of ``tests/conftest.py`` puts the game data back before them.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from cards.models import Card, Game
from decks.models import Format
from tests.conftest import pytest_runtest_setup


@pytest.mark.django_db(transaction=True)
def test_a_database_test_after_a_flush_finds_the_games_and_the_organisers_group(request) -> None:
    counts = (Game.objects.count(), Card.objects.count(), Format.objects.count())
    assert min(counts) > 0  # the session loaded every game
    slugs = set(Game.objects.values_list("slug", flat=True))

    call_command("flush", verbosity=0, interactive=False)
    assert Game.objects.count() == 0

    pytest_runtest_setup(request.node)  # as before the next database test
    assert (Game.objects.count(), Card.objects.count(), Format.objects.count()) == counts
    assert set(Game.objects.values_list("slug", flat=True)) == slugs
    # and the rows a data migration made: the Organisers group, who may add events
    organisers = Group.objects.get(name="Organisers")
    assert list(organisers.permissions.values_list("codename", flat=True)) == ["add_event"]


def test_a_test_without_the_database_is_not_given_it(request) -> None:
    """The hook leaves a test that does not use the database alone (it would be refused)."""
    pytest_runtest_setup(request.node)
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        Game.objects.count()
