"""``manage.py organiser grant|revoke|list [USERNAME...]``: who may create tournament events.

``grant`` adds users to the Organisers group, ``revoke`` takes the role away (the group and the
permission given directly), ``list`` prints every organiser. Superusers are always organisers.
Unknown usernames stop the command before anything changes. Staff can do the same in the admin
(Authentication and Authorization → Groups → Organisers).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.selectors import organiser_list, user_is_organiser
from decks.services import organiser_grant, organiser_revoke


class Command(BaseCommand):
    help = "Grant or revoke the organiser role (who may create events), or list the organisers."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=("grant", "revoke", "list"))
        parser.add_argument("usernames", nargs="*", metavar="USERNAME")

    def handle(self, *args: Any, **options: Any) -> None:
        action, usernames = options["action"], options["usernames"]
        if action == "list":
            if usernames:
                raise CommandError("list takes no usernames: run `manage.py organiser list`.")
            self._list()
            return
        if not usernames:
            raise CommandError(f"Name at least one user: `manage.py organiser {action} USERNAME`.")
        users = self._users(usernames)
        for user in users:
            if action == "grant":
                self._grant(user)
            else:
                self._revoke(user)

    def _users(self, usernames: list[str]) -> list[Any]:
        """The named users in the order given; every unknown name is reported at once."""
        user_model = get_user_model()
        field = user_model.USERNAME_FIELD
        found = {
            getattr(u, field): u for u in user_model.objects.filter(**{f"{field}__in": usernames})
        }
        unknown = [name for name in usernames if name not in found]
        if unknown:
            names = ", ".join(repr(name) for name in unknown)
            raise CommandError(f"No user named {names}; nothing was changed.")
        return [found[name] for name in dict.fromkeys(usernames)]

    def _grant(self, user: Any) -> None:
        name = user.get_username()
        was_organiser = user_is_organiser(user)
        if organiser_grant(user=user):
            self.stdout.write(self.style.SUCCESS(f"{name} is now an organiser."))
        elif was_organiser:
            self.stdout.write(f"{name} was already an organiser.")
        else:
            self.stderr.write(
                self.style.WARNING(
                    f"{name} joined the Organisers group, but the account is inactive: "
                    "reactivate it before they can create events."
                )
            )

    def _revoke(self, user: Any) -> None:
        name = user.get_username()
        if organiser_revoke(user=user):
            self.stdout.write(
                self.style.SUCCESS(
                    f"{name} is no longer an organiser (events they organised stay theirs)."
                )
            )
        elif not user_is_organiser(user):
            self.stdout.write(f"{name} was not an organiser.")
        else:
            why = (
                "they are a superuser"
                if user.is_superuser
                else "another group gives them the permission"
            )
            self.stderr.write(self.style.WARNING(f"{name} stays an organiser: {why}."))

    def _list(self) -> None:
        organisers = list(organiser_list())
        if not organisers:
            self.stdout.write(
                "No organisers yet. Make one with `manage.py organiser grant USERNAME`."
            )
            return
        for user in organisers:
            note = " (superuser)" if user.is_superuser else ""
            self.stdout.write(f"{user.get_username()}{note}")
