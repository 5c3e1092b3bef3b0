"""Index-backed text matching for card search, one implementation per database.

PostgreSQL: the ``pg_trgm`` GIN indexes ``card_name_key_trgm`` (on ``name_key``) and
``card_rules_text_trgm`` (on ``UPPER(rules_text)``) serve ``LIKE '%fragment%'``; the planner
uses them when a fragment is selective and scans when it is common (as for any index).

SQLite: the FTS5 table ``cards_card_search`` (trigram tokenizer, external content kept in sync with
``cards_card`` by triggers) serves fragments of three characters or more; shorter fragments fall
back to a scan, which is what a trigram index would do too.

Both give the same answers: a name matches when its matching key (``cards.naming.name_key``)
contains the fragment's key; rules text matches case-insensitively.
"""

from __future__ import annotations

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.db.models.expressions import RawSQL

from cards.naming import name_key

FTS_TABLE = "cards_card_search"
MIN_TRIGRAM = 3


def _uses_fts() -> bool:
    return connection.vendor == "sqlite"


def _fts_phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _fts_match(column: str, text: str) -> Q:
    sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"
    return Q(pk__in=RawSQL(sql, [f"{{{column}}} : {_fts_phrase(text)}"]))


def name_contains_q(fragment: str) -> Q:
    """Cards whose name contains ``fragment`` (ignoring case, accents and punctuation)."""
    key = name_key(fragment)
    if not key:
        return Q(pk__in=[])
    if _uses_fts() and len(key) >= MIN_TRIGRAM:
        return _fts_match("name_key", key)
    return Q(name_key__contains=key)


def rules_text_contains_q(fragment: str) -> Q:
    """Cards whose rules text contains ``fragment``, ignoring case."""
    if not fragment:
        return Q()
    if _uses_fts() and len(fragment) >= MIN_TRIGRAM and fragment.isascii():
        return _fts_match("rules_text", fragment)
    return Q(rules_text__icontains=fragment)


def _byte_ordered_names() -> bool:
    """Whether ``name_key`` sorts in byte order here, so a range alone is a prefix test."""
    return connection.vendor == "postgresql" and byte_ordered_text(connection)


def byte_ordered_text(db_connection: BaseDatabaseWrapper | None = None) -> bool:
    """Whether text sorts in byte (code point) order on this database, as Python sorts str."""
    db_connection = db_connection or connection
    if db_connection.vendor == "sqlite":
        return True  # the BINARY collation
    if db_connection.vendor != "postgresql":
        return False
    cached = getattr(db_connection, "_deckwright_byte_order", None)
    if cached is None:
        with db_connection.cursor() as cursor:
            cursor.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()")
            row = cursor.fetchone()
        cached = bool(row) and row[0].split(".")[0] in ("C", "POSIX", "ucs_basic")
        setattr(db_connection, "_deckwright_byte_order", cached)  # noqa: B010 (read by getattr above)
    return cached


def name_prefix_q(prefix: str) -> Q:
    """Cards whose name key starts with ``prefix``'s key, as a B-tree range on ``name_key``.

    The range uses the ``(game, name_key)`` and ``name_key`` indexes on every database. Where the
    collation does not sort in byte order, ``startswith`` keeps the answer exact (on PostgreSQL in
    byte order it is left out: it only confuses the planner's row estimate).
    """
    key = name_key(prefix)
    if not key:
        return Q(pk__in=[])
    upper = key[:-1] + chr(ord(key[-1]) + 1)
    if _byte_ordered_names():
        return Q(name_key__gte=key, name_key__lt=upper)
    return Q(name_key__gte=key, name_key__lt=upper, name_key__startswith=key)


# Schema of the index, created by migration cards.0002 and re-checked after every migrate run
# (SQLite rebuilds a table to alter it, which drops its triggers).
PG_INDEX_SQL = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS card_name_key_trgm ON cards_card USING gin (name_key gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS card_rules_text_trgm ON cards_card "
    "USING gin (UPPER(rules_text) gin_trgm_ops)",
]
PG_DROP_SQL = [
    "DROP INDEX IF EXISTS card_name_key_trgm",
    "DROP INDEX IF EXISTS card_rules_text_trgm",
]
SQLITE_TABLE_SQL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "name_key, rules_text, content='cards_card', content_rowid='id', tokenize='trigram')"
)
SQLITE_TRIGGERS_SQL = [
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ai AFTER INSERT ON cards_card BEGIN
        INSERT INTO {FTS_TABLE}(rowid, name_key, rules_text)
        VALUES (new.id, new.name_key, new.rules_text);
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_ad AFTER DELETE ON cards_card BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, name_key, rules_text)
        VALUES ('delete', old.id, old.name_key, old.rules_text);
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS {FTS_TABLE}_au AFTER UPDATE ON cards_card BEGIN
        INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, name_key, rules_text)
        VALUES ('delete', old.id, old.name_key, old.rules_text);
        INSERT INTO {FTS_TABLE}(rowid, name_key, rules_text)
        VALUES (new.id, new.name_key, new.rules_text);
    END""",
]
SQLITE_DROP_SQL = [
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_ai",
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_ad",
    f"DROP TRIGGER IF EXISTS {FTS_TABLE}_au",
    f"DROP TABLE IF EXISTS {FTS_TABLE}",
]


def install_search_index(db_connection: BaseDatabaseWrapper) -> None:
    """Create the name/rules-text index for this database if it is missing (idempotent)."""
    with db_connection.cursor() as cursor:
        if db_connection.vendor == "postgresql":
            for statement in PG_INDEX_SQL:
                cursor.execute(statement)
        elif db_connection.vendor == "sqlite":
            names = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master").fetchall()}
            if "cards_card" not in names:
                return
            missing = [
                name
                for name in (FTS_TABLE, f"{FTS_TABLE}_ai", f"{FTS_TABLE}_ad", f"{FTS_TABLE}_au")
                if name not in names
            ]
            if not missing:
                return
            cursor.execute(SQLITE_TABLE_SQL)
            for statement in SQLITE_TRIGGERS_SQL:
                cursor.execute(statement)
            # Triggers were missing, so the index may have missed writes: rebuild it from the table.
            cursor.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")


def remove_search_index(db_connection: BaseDatabaseWrapper) -> None:
    """Drop what ``install_search_index`` created."""
    with db_connection.cursor() as cursor:
        statements = {"postgresql": PG_DROP_SQL, "sqlite": SQLITE_DROP_SQL}.get(
            db_connection.vendor, []
        )
        for statement in statements:
            cursor.execute(statement)
