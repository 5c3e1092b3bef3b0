"""The WebSocket routes (deckwright/asgi.py serves them next to the HTTP pages)."""

from typing import Any

from django.urls import path

from web.consumers import FriendTableConsumer
from web.watch import FriendSpectatorConsumer

# channels routes ASGI applications with Django's path(), as its docs do: django-stubs expect a
# view there, and channels' stubs their own pattern type in URLRouter (hence Any)
websocket_urlpatterns: list[Any] = [
    path("ws/play/friends/<int:pk>/", FriendTableConsumer.as_asgi()),  # type: ignore[arg-type]
    path("ws/play/friends/<int:pk>/watch/", FriendSpectatorConsumer.as_asgi()),  # type: ignore[arg-type]
]
