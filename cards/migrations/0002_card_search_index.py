"""Name and rules-text search index: pg_trgm GIN indexes on PostgreSQL, FTS5 on SQLite.

Other databases get nothing (search still works, by scanning). See cards/search/index.py.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    from cards.search.index import install_search_index

    install_search_index(schema_editor.connection)


def backwards(apps, schema_editor):
    from cards.search.index import remove_search_index

    remove_search_index(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
