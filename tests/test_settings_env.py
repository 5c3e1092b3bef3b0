"""Configuration comes from environment variables, with clear errors for bad values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckwright.env import ConfigError, env_bool, env_int, env_list

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
