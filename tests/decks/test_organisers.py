"""The organiser role: the group the migration makes, the rule in ``event_create``, the command."""

from __future__ import annotations

import datetime as dt
import importlib
import io
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.db import connection

from decks.events.services import event_create
from decks.models import Event, Format
from decks.selectors import organiser_list, user_is_organiser
from decks.services import OrganiserRequiredError, organiser_grant, organiser_revoke

pytestmark = pytest.mark.django_db

RNR = "revolt-n-reign"
MIGRATION = importlib.import_module("decks.migrations.0002_organisers_group")


def make_event(organiser, name: str = "Liberty Open") -> Event:
    return event_create(
        game=RNR,
        format=Format.objects.get(game__slug=RNR, slug="standard"),
        name=name,
        date=dt.date(2026, 10, 3),
        decklist_deadline=dt.datetime(2026, 10, 2, 18, 0, tzinfo=dt.UTC),
        organiser=organiser,
        now=dt.datetime(2026, 9, 1, tzinfo=dt.UTC),
    )


def organiser_permissions() -> set[str]:
    group = Group.objects.get(name="Organisers")
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("organiser", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


# -- the migration --------------------------------------------------------------------------------


def test_the_migration_makes_an_organisers_group_that_may_add_events():
    assert organiser_permissions() == {"decks.add_event"}


def test_the_migration_is_idempotent_and_reversible():
    editor = SimpleNamespace(connection=connection)

    MIGRATION.organisers_group_create(apps, editor)
    assert Group.objects.filter(name="Organisers").count() == 1
    assert organiser_permissions() == {"decks.add_event"}

    MIGRATION.organisers_group_delete(apps, editor)
    assert not Group.objects.filter(name="Organisers").exists()
    assert Permission.objects.filter(codename="add_event").exists()

    MIGRATION.organisers_group_create(apps, editor)
    assert organiser_permissions() == {"decks.add_event"}


# -- the rule -------------------------------------------------------------------------------------


def test_only_organisers_create_events(player):
    with pytest.raises(OrganiserRequiredError, match="Ask an administrator"):
        make_event(player)

    assert not Event.objects.exists()


def test_the_organiser_check_comes_before_the_event_is_judged(player):
    with pytest.raises(OrganiserRequiredError):
        event_create(
            game="rival-realms",
            format=Format.objects.get(game__slug=RNR, slug="standard"),
            name="Mismatch",
            date=dt.date(2026, 10, 3),
            decklist_deadline=dt.datetime(2026, 10, 2, tzinfo=dt.UTC),
            organiser=player,
        )


def test_who_is_an_organiser(player, other_player, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    organiser_grant(user=player)
    other_player.user_permissions.add(Permission.objects.get(codename="add_event"))
    inactive = django_user_model.objects.create_user("idle", password="pw-idle-123")
    organiser_grant(user=inactive)
    inactive.is_active = False
    inactive.save()
    plain = django_user_model.objects.create_user("plain", password="pw-plain-123")

    assert [u.username for u in organiser_list()] == ["abigail", "root", "samuel"]
    assert user_is_organiser(root)
    assert not user_is_organiser(plain)
    assert not user_is_organiser(django_user_model.objects.get(username="idle"))


def test_revoking_keeps_the_events_already_organised(player):
    organiser_grant(user=player)
    event = make_event(player)

    assert organiser_revoke(user=player)

    event.refresh_from_db()
    assert event.organiser == player
    with pytest.raises(OrganiserRequiredError):
        make_event(player, name="Second Open")


# -- manage.py organiser --------------------------------------------------------------------------


def test_grant_then_list_then_revoke(player, other_player):
    out, _ = run("grant", "abigail", "samuel")
    assert out.splitlines() == ["abigail is now an organiser.", "samuel is now an organiser."]
    assert run("list")[0].splitlines() == ["abigail", "samuel"]

    out, _ = run("grant", "abigail")
    assert out.strip() == "abigail was already an organiser."

    out, _ = run("revoke", "samuel")
    assert out.startswith("samuel is no longer an organiser")
    assert not user_is_organiser(type(player).objects.get(username="samuel"))
    assert run("list")[0].splitlines() == ["abigail"]

    assert run("revoke", "samuel")[0].strip() == "samuel was not an organiser."


def test_unknown_users_change_nothing(player):
    with pytest.raises(CommandError, match="No user named 'ghost', 'nobody'; nothing was changed"):
        run("grant", "abigail", "ghost", "nobody")

    assert not user_is_organiser(type(player).objects.get(username="abigail"))


def test_grant_and_revoke_need_a_username():
    with pytest.raises(CommandError, match="Name at least one user"):
        run("grant")
    with pytest.raises(CommandError, match="list takes no usernames"):
        run("list", "abigail")


def test_a_superuser_stays_an_organiser(django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")

    out, err = run("revoke", "root")

    assert out == ""
    assert "root stays an organiser: they are a superuser" in err
    assert run("list")[0].splitlines() == ["root (superuser)"]


def test_list_with_no_organisers_says_how_to_make_one():
    out, _ = run("list")
    assert "No organisers yet" in out
    assert "manage.py organiser grant USERNAME" in out
