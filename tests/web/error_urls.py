"""The site's URLs plus views that fail on purpose, for the error-page tests."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from deckwright import urls as site


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a deliberate failure for the 500 page test")


def forbid(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


handler400 = site.handler400
handler403 = site.handler403
handler404 = site.handler404
handler500 = site.handler500

urlpatterns = [
    path("fail/", fail),
    path("api/v1/fail/", fail),
    path("forbidden/", forbid),
    *site.urlpatterns,
]
