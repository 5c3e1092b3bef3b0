"""API tokens expire, rotate and revoke; the password exchange shares the log-in lockout."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _token(api_client, password="pw-alice-123"):
    return api_client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": password}, format="json"
    )


def _as(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_token_says_when_it_expires(api_client, user, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    before = timezone.now()
    body = _token(api_client).json()
    expires = dt.datetime.fromisoformat(body["expires"])
    assert dt.timedelta(days=29, hours=23) < expires - before <= dt.timedelta(days=30, minutes=1)


def test_an_expired_token_is_a_401_saying_expired(api_client, user, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    token = Token.objects.create(user=user)
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(days=31))

    response = _as(token.key).get("/api/v1/me/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    body = response.json()
    assert body["code"] == "token-expired"
    assert "expired" in body["detail"] and "POST /api/v1/auth/token/" in body["detail"]
    # the password exchange then issues a new token, which works
    fresh = _token(api_client).json()["token"]
    assert fresh != token.key
    assert _as(fresh).get("/api/v1/me/").json()["username"] == "alice"


def test_a_token_still_in_its_lifetime_is_the_same_token(api_client, user):
    assert _token(api_client).json()["token"] == _token(api_client).json()["token"]


def test_rotate_issues_a_new_token_and_the_old_one_stops_working(api_client, user):
    old = _token(api_client).json()["token"]

    response = _as(old).post("/api/v1/auth/token/rotate/")

    assert response.status_code == 200
    new = response.json()["token"]
    assert new != old
    assert _as(old).get("/api/v1/me/").status_code == 401
    assert _as(new).get("/api/v1/me/").status_code == 200


def test_revoke_logs_every_script_out(api_client, user):
    key = _token(api_client).json()["token"]

    response = _as(key).delete("/api/v1/auth/token/")

    assert response.status_code == 204
    assert _as(key).get("/api/v1/me/").json()["code"] == "authentication-failed"
    assert not Token.objects.filter(user=user).exists()


def test_rotate_and_revoke_need_a_user(api_client):
    assert api_client.post("/api/v1/auth/token/rotate/").status_code == 401
    assert api_client.delete("/api/v1/auth/token/").status_code == 401


def test_the_token_endpoint_locks_out_after_repeated_failures_even_the_right_password(
    api_client, user, settings
):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = dt.timedelta(minutes=15)
    statuses = [_token(api_client, "wrong").status_code for _ in range(3)]
    assert statuses == [400, 400, 429]

    response = _token(api_client)  # the right password, during the lockout

    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    body = response.json()
    assert body["code"] == "locked-out" and body["retry_after"] == 900
    assert "try again at" in body["detail"] and "in 15 minutes" in body["detail"]
    assert "token" not in body


def test_the_token_endpoint_is_throttled_per_address(api_client, user, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "token": "2/hour"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    statuses = [_token(api_client).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    # other endpoints keep their own, wider limits
    assert api_client.get("/api/v1/games/").status_code == 200


def test_the_schema_documents_rotation_revocation_and_the_new_problems(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    token_path = schema["paths"]["/api/v1/auth/token/"]
    assert {"post", "delete"} <= set(token_path)
    assert "post" in schema["paths"]["/api/v1/auth/token/rotate/"]
    examples = token_path["post"]["responses"]["429"]["content"]["application/problem+json"]
    assert "locked-out" in examples["examples"]
    me_401 = schema["paths"]["/api/v1/me/"]["get"]["responses"]["401"]["content"]
    assert "token-expired" in me_401["application/problem+json"]["examples"]
