"""Views of the pages, one module per area. Each parses input, calls a service or selector and
renders a template."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware (on every request) leaves it: ``request.htmx`` says
    whether htmx sent it. Only an annotation, for the views that read it."""

    htmx: HtmxDetails


def message_page(request: HttpRequest, title: str, text: str, status: int) -> HttpResponse:
    """A page that only says something (a refusal, a missing game or table), with ``status``."""
    return render(request, "web/message.html", {"title": title, "text": text}, status=status)
