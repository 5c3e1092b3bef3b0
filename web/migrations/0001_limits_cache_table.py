"""The database table of the "limits" cache (settings.CACHES), used when REDIS_URL is unset.

``createcachetable`` makes the table of every DatabaseCache in CACHES and skips tables that exist,
so running this again, or with Redis configured (no DatabaseCache), changes nothing.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = []

    operations = [migrations.RunPython(create_cache_tables, migrations.RunPython.noop)]
