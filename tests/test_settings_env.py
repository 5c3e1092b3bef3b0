"""Configuration comes from environment variables, with clear errors for bad values."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckwright.env import ConfigError, env_bool, env_int, env_list
from tests.counter_stores import redis_test_url

ROOT = Path(__file__).resolve().parent.parent


def test_env_bool_accepts_common_spellings(monkeypatch: pytest.MonkeyPatch) -> None:
    for raw, expected in [("1", True), ("yes", True), ("On", True), ("0", False), ("off", False)]:
        monkeypatch.setenv("FLAG", raw)
        assert env_bool("FLAG") is expected
    monkeypatch.delenv("FLAG")
    assert env_bool("FLAG", default=True) is True


def test_env_bool_rejects_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ConfigError, match="DEBUG='maybe' is not a boolean"):
        env_bool("DEBUG")


def test_env_list_and_int(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " a.example , b.example,, ")
    assert env_list("ALLOWED_HOSTS") == ["a.example", "b.example"]
    monkeypatch.setenv("N", "x")
    with pytest.raises(ConfigError, match="not an integer"):
        env_int("N", 1)


def _settings_in_subprocess(env: dict[str, str], expr: str) -> subprocess.CompletedProcess:
    code = f"import deckwright.settings as s; print({expr})"
    clean = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG", "SECRET_KEY"}
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_database_url_selects_postgresql() -> None:
    result = _settings_in_subprocess(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/deckwright"},
        "s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME']",
    )
    assert result.returncode == 0, result.stderr
    assert "postgresql" in result.stdout and "deckwright" in result.stdout


def test_default_database_is_sqlite() -> None:
    result = _settings_in_subprocess({}, "s.DATABASES['default']['ENGINE']")
    assert result.stdout.strip() == "django.db.backends.sqlite3"


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = _settings_in_subprocess({"DEBUG": "0"}, "s.DEBUG")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_celery_runs_inline_without_a_broker() -> None:
    result = _settings_in_subprocess({}, "s.CELERY_TASK_ALWAYS_EAGER")
    assert result.stdout.strip() == "True"
    result = _settings_in_subprocess(
        {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}, "s.CELERY_TASK_ALWAYS_EAGER"
    )
    assert result.stdout.strip() == "False"


#: this file's own Redis database, flushed only here
REDIS_URL = redis_test_url("settings_env")


def _redis_settings(prefix: str | None) -> dict:
    """The cache and channel-layer settings of a site using REDIS_URL with ``prefix`` (None: the
    default one)."""
    env = {"REDIS_URL": REDIS_URL}
    if prefix is not None:
        env["DECKWRIGHT_REDIS_PREFIX"] = prefix
    result = _settings_in_subprocess(
        env, "__import__('json').dumps({'caches': s.CACHES, 'layers': s.CHANNEL_LAYERS})"
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_redis_key_of_a_site_starts_with_its_prefix() -> None:
    staging = _redis_settings("staging")
    assert staging["caches"]["default"]["KEY_PREFIX"] == "staging"
    assert staging["caches"]["limits"]["KEY_PREFIX"] == "staging:limits"
    assert staging["layers"]["default"]["CONFIG"]["prefix"] == "staging:channels"
    assert _redis_settings(None)["caches"]["default"]["KEY_PREFIX"] == "deckwright"


@pytest.mark.parametrize("prefix", ["", "two words"])
def test_a_prefix_redis_could_not_keep_apart_is_refused_by_name(prefix: str) -> None:
    result = _settings_in_subprocess(
        {"REDIS_URL": REDIS_URL, "DECKWRIGHT_REDIS_PREFIX": prefix}, "s.REDIS_PREFIX"
    )
    assert result.returncode != 0
    assert f"DECKWRIGHT_REDIS_PREFIX={prefix!r}" in result.stderr


@pytest.mark.redis
def test_two_sites_on_one_redis_neither_read_keys_nor_receive_table_messages_of_the_other() -> None:
    """A staging and a production site sharing one Redis database: a cached value and a counter
    of one are not the other's, and a message sent to a live table's group on one never reaches
    the same table's group on the other."""
    from tests.counter_stores import redis_reason

    reason = redis_reason(REDIS_URL)
    if reason:
        pytest.skip(reason)
    import redis
    from asgiref.sync import async_to_sync
    from channels_redis.core import RedisChannelLayer
    from django.core.cache.backends.redis import RedisCache

    sites = {name: _redis_settings(name) for name in ("staging", "production")}
    try:
        caches = {
            name: RedisCache(REDIS_URL, {"KEY_PREFIX": site["caches"]["default"]["KEY_PREFIX"]})
            for name, site in sites.items()
        }
        caches["staging"].set("catalogue-generation", 7)
        assert caches["production"].get("catalogue-generation") is None
        assert caches["staging"].get("catalogue-generation") == 7

        layers = {
            name: RedisChannelLayer(**site["layers"]["default"]["CONFIG"])
            for name, site in sites.items()
        }

        async def deliveries() -> tuple[list[dict], list[dict]]:
            got: dict[str, list[dict]] = {"staging": [], "production": []}
            channels = {name: await layer.new_channel() for name, layer in layers.items()}
            for name, layer in layers.items():
                await layer.group_add("friend-table-1", channels[name])
            await layers["production"].group_send("friend-table-1", {"type": "table.changed"})
            for name, layer in layers.items():
                with contextlib.suppress(TimeoutError):
                    got[name].append(
                        await asyncio.wait_for(layer.receive(channels[name]), timeout=1)
                    )
            for layer in layers.values():
                await layer.flush()
            return got["staging"], got["production"]

        staging_got, production_got = async_to_sync(deliveries)()
        assert production_got == [{"type": "table.changed"}]
        assert staging_got == []
    finally:
        redis.Redis.from_url(REDIS_URL).flushdb()
