"""Authentication (session with CSRF, tokens), throttling and the one error shape."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_password_for_token_then_token_authenticates(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/v1/me/").json()["username"] == "alice"


def test_wrong_password_is_a_validation_problem(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "validation-error"


def test_anonymous_is_told_401_with_the_scheme(api_client):
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "not-authenticated"


def test_bad_token_is_401_authentication_failed(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get("/api/v1/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication-failed"


def test_session_writes_need_the_csrf_token(user):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "permission-denied"
    assert "CSRF" in response.json()["detail"]


def test_token_writes_need_no_csrf_token(user):
    token = Token.objects.create(user=user)
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "pw-alice-123"}, format="json"
    )
    assert response.status_code == 200


@pytest.fixture
def tight_rates(settings):
    rates = {"anon": "3/minute", "user": "5/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_anonymous_clients_are_throttled_with_retry_after(api_client, tight_rates):
    statuses = [api_client.get("/api/v1/games/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = api_client.get("/api/v1/games/")
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 60
    body = response.json()
    assert body["code"] == "throttled" and body["retry_after"] == int(response["Retry-After"])


def test_signed_in_clients_have_their_own_higher_rate(api_client, user, tight_rates):
    api_client.force_authenticate(user)
    statuses = [api_client.get("/api/v1/games/").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]


def test_malformed_json_body_is_a_parse_problem(api_client):
    response = api_client.post(
        "/api/v1/auth/token/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse-error"


def test_wrong_method_is_a_405_problem(api_client):
    response = api_client.delete("/api/v1/games/")
    assert response.status_code == 405
    assert response.json()["code"] == "method-not-allowed"


def test_every_problem_has_the_rfc_9457_members(api_client):
    for response in (
        api_client.get("/api/v1/nothing/"),
        api_client.get("/api/v1/cards/?q=(("),
        api_client.get("/api/v1/me/"),
    ):
        body = response.json()
        assert {"type", "title", "status", "detail", "code"} <= set(body)
        assert body["status"] == response.status_code
        assert response["Content-Type"] == "application/problem+json"


def test_non_api_pages_keep_html_errors(client):
    response = client.get("/games/no-such-game/")
    assert response.status_code == 404
    assert "problem+json" not in response["Content-Type"]


def test_server_errors_on_api_paths_are_problem_json(rf):
    from api.errors import handler500

    response = handler500(rf.get("/api/v1/cards/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/problem+json"


def test_a_browser_gets_the_browsable_page_for_an_error_not_mislabelled_html(client):
    response = client.get("/api/v1/cards/?q=((", HTTP_ACCEPT="text/html")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
