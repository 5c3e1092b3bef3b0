"""Authentication helpers: exchange a password for a token, and who am I."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


@extend_schema(tags=["auth"], responses=TokenSerializer)
class TokenView(ObtainAuthToken):
    """POST a username and password; get the API token scripts send as 'Authorization: Token …'."""

    throttle_classes = api_settings.DEFAULT_THROTTLE_CLASSES
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken names DRF's own


@extend_schema(tags=["auth"], responses=MeSerializer)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request: Request) -> Response:
    """The signed-in user (session or token)."""
    return Response(MeSerializer(request.user).data)
