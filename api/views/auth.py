"""Authentication: exchange a password for a token, rotate or revoke it, and who am I.

The password exchange goes through ``django.contrib.auth.authenticate`` with the Django request,
so the log-in lockout (django-axes, ``accounts.lockout``) counts its failures and refuses a locked-out
address, and the per-account guess limit (``accounts.guard``) slows guessing at one account
from many addresses, exactly as on the log-in page; it is also throttled per address (``token``
rate).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.guard import failed_attempts, refused_message, refused_wait
from accounts.lockout import LOCKED_OUT_CODE, lockout_message, retry_after_seconds
from accounts.throttling import TokenRateThrottle
from accounts.tokens import token_expires_at, token_issue, token_revoke, token_rotate
from accounts.users import signed_in

ACCOUNT_GUARDED_CODE = "account-guarded"


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expires = serializers.DateTimeField(help_text="After this the token is refused (401).")


class TokenIssuedSerializer(TokenSerializer):
    failed_attempts = serializers.IntegerField(
        help_text="Failed attempts to log in to your account since your last log-in (web or "
        "API): wrong passwords, and guesses refused unchecked. More than 0 you did not make "
        "means someone is guessing your password."
    )


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class AccountGuarded(exceptions.APIException):
    """Too many password checks at this account from addresses it never logged in from."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = ACCOUNT_GUARDED_CODE

    def __init__(self, seconds: int) -> None:
        super().__init__(detail=refused_message(seconds), code=ACCOUNT_GUARDED_CODE)
        self.wait = seconds
        self.problem_extra = {"retry_after": seconds}


class LockedOut(exceptions.APIException):
    """Too many failed password exchanges from this address (django-axes' lockout)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = LOCKED_OUT_CODE

    def __init__(self, seconds: int) -> None:
        super().__init__(detail=lockout_message(seconds), code=LOCKED_OUT_CODE)
        self.wait = seconds  # DRF turns this into the Retry-After header
        self.problem_extra = {"retry_after": seconds}


def _token_body(token: Any) -> dict[str, Any]:
    return TokenSerializer({"token": token.key, "expires": token_expires_at(token)}).data


class TokenView(APIView):
    """POST a username and password for the API token; DELETE revokes your token."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(TokenRateThrottle())
        return throttles

    @extend_schema(
        tags=["auth"],
        request=CredentialsSerializer,
        responses=TokenIssuedSerializer,
        description=(
            "Exchange a username and password for the API token scripts send as "
            "'Authorization: Token …' (the current one while it lasts, else a new one). Failed "
            "attempts count towards the log-in lockout: a locked-out address gets a 429 "
            "locked-out problem with Retry-After. Too many guesses at one account from "
            "addresses it never logged in from get a 429 account-guarded problem. "
            "failed_attempts says how many attempts failed since your last log-in."
        ),
    )
    def post(self, request: Request) -> Response:
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(django_request, **credentials.validated_data)
        if user is None:
            if getattr(django_request, "axes_locked_out", False):
                raise LockedOut(retry_after_seconds(django_request))
            wait = refused_wait(django_request)
            if wait is not None:
                raise AccountGuarded(wait)
            raise exceptions.ValidationError(
                {"non_field_errors": ["Unable to log in with provided credentials."]},
                code="authorization",
            )
        attempts = failed_attempts(django_request)
        body = _token_body(token_issue(user=user))
        body["failed_attempts"] = attempts.total if attempts else 0
        return Response(body)

    @extend_schema(
        tags=["auth"],
        request=None,
        responses={204: None},
        description="Revoke your token: every script using it gets 401 from now on.",
    )
    def delete(self, request: Request) -> Response:
        token_revoke(user=signed_in(request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["auth"],
    request=None,
    responses=TokenSerializer,
    description="A new token for you (token or session); the old one stops working at once.",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token_rotate_view(request: Request) -> Response:
    return Response(_token_body(token_rotate(user=signed_in(request.user))))


@extend_schema(tags=["auth"], responses=MeSerializer)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request: Request) -> Response:
    """The signed-in user (session or token)."""
    return Response(MeSerializer(request.user).data)
