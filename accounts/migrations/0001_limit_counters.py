"""The table of shared rate-limit and quota counters (``common.counters``), used when
REDIS_URL is unset. Plain SQL: it is no model, only rows ``name → value`` with an expiry, updated
by one atomic UPSERT per hit.

The migration was ``web``'s until the accounts app took the counters (issue 31). It creates the
table only if it is missing, so a database that ran ``web.0001_limit_counters`` keeps its table and
its counts; that old record in ``django_migrations`` is left alone and read by nothing."""

from django.db import migrations

TABLE = "deckwright_limit_counter"


class Migration(migrations.Migration):
    dependencies = []

    operations = [
        migrations.RunSQL(
            [
                f"CREATE TABLE IF NOT EXISTS {TABLE} ("
                "name varchar(255) NOT NULL PRIMARY KEY, "
                "value bigint NOT NULL, "
                "expires_at bigint NOT NULL)",
                f"CREATE INDEX IF NOT EXISTS {TABLE}_expires_at ON {TABLE} (expires_at)",
            ],
            [f"DROP TABLE IF EXISTS {TABLE}"],
        )
    ]
