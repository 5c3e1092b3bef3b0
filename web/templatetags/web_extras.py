"""Template helpers of the pages: query strings for paging links, percentages of fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.http import QueryDict

register = template.Library()


@register.simple_tag(takes_context=True)
def query_with(context: dict[str, Any], **changes: Any) -> str:
    """The current query string with some parameters replaced (``None`` or "" removes one)."""
    params: QueryDict = context["request"].GET.copy()
    for key, value in changes.items():
        if value in (None, ""):
            params.pop(key, None)
        else:
            params[key] = str(value)
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.filter
def percent(value: Fraction | float | None, places: int = 1) -> str:
    """``Fraction(1, 3)`` -> ``33.3%``."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.{places}f}%"


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    """``mapping[key]`` in a template (``None`` when absent)."""
    return mapping.get(key) if hasattr(mapping, "get") else None
