from django.apps import AppConfig
from django.db.models.signals import post_migrate

SEARCH_INDEX_MIGRATION = ("cards", "0002_card_search_index")


def _ensure_card_search_index(using: str = "default", **kwargs: object) -> None:
    """SQLite drops triggers when a migration rebuilds cards_card: put the search index back.

    Only while the migration that creates the index is applied (a rollback past it stays rolled
    back).
    """
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    from cards.search.index import install_search_index

    connection = connections[using]
    recorder = MigrationRecorder(connection)
    if recorder.has_table() and SEARCH_INDEX_MIGRATION in recorder.applied_migrations():
        install_search_index(connection)


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = "Card database"

    def ready(self) -> None:
        post_migrate.connect(
            _ensure_card_search_index, sender=self, dispatch_uid="card-search-index"
        )
        from cards import signals

        signals.connect()
