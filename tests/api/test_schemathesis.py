"""Schemathesis against the live OpenAPI schema: every operation, generated requests.

Checks: no 5xx, every status code, content type, header and body as the schema documents.
It runs only when ``SCHEMATHESIS_EXAMPLES`` is set (``make api-fuzz`` sets 100, and ``.ci/run``
calls it), so the ordinary ``pytest`` run stays fast. CI runs it on SQLite and on PostgreSQL
(``DATABASE_URL``), where a query the paging code writes itself once failed with a 500.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis import checks
from schemathesis.openapi import checks as openapi_checks  # noqa: F401 - registers OpenAPI checks

from decks.services import organiser_grant

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "0"))
if not EXAMPLES:
    pytest.skip(
        "Schemathesis runs with `make api-fuzz` (SCHEMATHESIS_EXAMPLES=100)",
        allow_module_level=True,
    )
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())


@pytest.fixture
def _open_rates(settings) -> None:
    rates = {"anon": "1000000/minute", "user": "1000000/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()


@pytest.fixture
def _connection_kept_open():
    """The WSGI app closes the database connection around each request (Django's
    ``close_old_connections``), which on PostgreSQL would close the test's transaction under
    it: Django's test client unhooks it for the same reason, and so does this."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token_header(django_user_model) -> dict[str, str]:
    """Requests go in signed in (by token) as an organiser, so writes (event creation too) get
    past 401/403 and meet real validation."""
    user, _ = django_user_model.objects.get_or_create(username="schemathesis")
    organiser_grant(user=user)
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


@pytest.mark.slow
@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
def test_every_operation_conforms_to_the_schema(
    case, _open_rates, _connection_kept_open, token_header
):
    case.call_and_validate(checks=CHECKS, headers=token_header)
