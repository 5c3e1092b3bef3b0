"""Production settings come from the environment and pass Django's deployment checks."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], env: dict[str, str], data_dir: Path) -> subprocess.CompletedProcess:
    inherited = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DEBUG", "SECRET_KEY", "DECKWRIGHT_HTTPS"}
        and not key.startswith(("SECURE_", "SESSION_COOKIE", "CSRF_COOKIE"))
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**inherited, "DECKWRIGHT_DATA_DIR": str(data_dir), **env},
        capture_output=True,
        text=True,
        check=False,
    )


def _production(**extra: str) -> dict[str, str]:
    """What an operator sets: DEBUG off, a real secret key, the site's host name."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "decks.example.org",
        **extra,
    }


def _settings(expr: str, env: dict[str, str], data_dir: Path) -> str:
    result = _run(["-c", f"import deckwright.settings as s; print({expr})"], env, data_dir)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _production(), tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_plain_http_mode_is_what_check_deploy_warns_about(tmp_path: Path) -> None:
    # `make serve` serves plain HTTP on loopback: the same checks then name each HTTPS setting.
    result = _run(["manage.py", "check", "--deploy"], _production(DECKWRIGHT_HTTPS="0"), tmp_path)
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr, result.stderr


def test_https_settings_default_on_and_each_has_its_own_variable(tmp_path: Path) -> None:
    expr = (
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE"
    )
    assert _settings(expr, _production(), tmp_path) == "True 31536000 True True"
    one_hour = _production(SECURE_HSTS_SECONDS="3600", SECURE_SSL_REDIRECT="0")
    assert _settings(expr, one_hour, tmp_path) == "False 3600 True True"
    assert _settings(expr, _production(DECKWRIGHT_HTTPS="0"), tmp_path) == "False 0 False False"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("X-Forwarded-Proto", "('HTTP_X_FORWARDED_PROTO', 'https')"),
        ("X-Forwarded-SSL: on", "('HTTP_X_FORWARDED_SSL', 'on')"),
    ],
)
def test_proxy_ssl_header_is_read_from_the_environment(
    tmp_path: Path, raw: str, expected: str
) -> None:
    env = _production(SECURE_PROXY_SSL_HEADER=raw)
    assert _settings("s.SECURE_PROXY_SSL_HEADER", env, tmp_path) == expected
    assert _settings("getattr(s, 'SECURE_PROXY_SSL_HEADER', None)", _production(), tmp_path) == (
        "None"
    )


def test_database_connections_persist_and_are_checked_by_default(tmp_path: Path) -> None:
    expr = "s.DATABASES['default']['CONN_MAX_AGE'], s.DATABASES['default']['CONN_HEALTH_CHECKS']"
    pg = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/deckwright"}
    assert _settings(expr, pg, tmp_path) == "60 True"
    assert _settings(expr, {**pg, "DATABASE_CONN_MAX_AGE": "0"}, tmp_path) == "0 True"


def test_static_files_are_hashed_and_compressed_only_in_production(tmp_path: Path) -> None:
    expr = "s.STORAGES['staticfiles']['BACKEND'], s.STATIC_ROOT"
    backend, root = _settings(expr, _production(), tmp_path).split()
    assert backend == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert root == str(tmp_path / "staticfiles")
    development = _settings("s.STORAGES['staticfiles']['BACKEND']", {}, tmp_path)
    assert development == "django.contrib.staticfiles.storage.StaticFilesStorage"
