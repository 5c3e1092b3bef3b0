"""What event services and selectors raise; each kind maps to one HTTP status in the views."""

from __future__ import annotations

from decks.services import DeckError, OrganiserRequiredError

__all__ = [
    "EventConflictError",
    "EventError",
    "EventPermissionError",
    "OrganiserRequiredError",
    "RegistrationLockedError",
]


class EventError(DeckError):
    """An event change that cannot be made as asked (400): ``fields`` maps each field to why."""

    def __init__(self, fields: dict[str, str]):
        super().__init__(list(fields.values()), {text: field for field, text in fields.items()})
        self.fields = dict(fields)


class EventConflictError(EventError):
    """The change is fine in itself but the event's state forbids it (409): registrations exist
    or the event is locked."""


class EventPermissionError(PermissionError):
    """Only an event's own organiser changes it, deletes it or reads its submitted decklists."""


class RegistrationLockedError(DeckError):
    """The event's decklist deadline has passed: the registration can no longer change."""
