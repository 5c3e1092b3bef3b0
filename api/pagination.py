"""Page-number pagination with ``next``/``previous`` links and a client-chosen page size.

``CardPagination`` pages card searches through ``cards.search.paging.card_page``: no full count
of the matches past ``CARD_COUNT_EXACT_UP_TO`` (then ``count`` is an estimate and the response
says so in the ``Count-Estimated: true`` header), and exact ``next`` links either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from cards.search.paging import CardPage, PageNotFound, card_page, page_number


class PageNumberPagination(pagination.PageNumberPagination):
    """Pages of ``page_size`` items (1 to 200, a larger size cut to 200), 50 when it is not given.

    DRF's own reading falls back to the default for a size it cannot use (``0``, ``-3``,
    ``ten``), so a client would get 50 items and no word why; here such a size is a 400 whose
    field error names the parameter (code ``invalid``).
    """

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int | None:
        wanted = request.query_params.get(self.page_size_query_param)
        if wanted is None or wanted.strip() == "":
            return self.page_size
        try:
            size = int(wanted.strip())
        except ValueError:
            size = 0
        if size < 1:
            message = f"{wanted!r} is not a page size: give a whole number from 1 to {self.max_page_size}."
            raise ValidationError(
                {self.page_size_query_param: [ErrorDetail(message, code="invalid")]}
            )
        return min(size, self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "default": 50}
                parameter["description"] = (
                    f"Items a page: 1 to {self.max_page_size} (a larger size is cut to it)."
                )
        return parameters


class CardPagination(PageNumberPagination):
    """Pages of cards whose count is exact up to a threshold and estimated beyond it."""

    card_page: CardPage

    def paginate_queryset(
        self, queryset: QuerySet[Any, Any] | Sequence[Any], request: Request, view: Any = None
    ) -> list[Any]:
        assert isinstance(queryset, QuerySet)  # the card list pages a queryset only
        self.request = request
        page_size = self.get_page_size(request) or 50
        wanted = request.query_params.get(self.page_query_param)
        try:
            number = page_number(wanted)
            self.card_page = card_page(queryset, list(queryset.query.order_by), number, page_size)
        except PageNotFound as error:
            message = self.invalid_page_message.format(page_number=wanted, message=str(error))
            raise NotFound(message) from None
        return self.card_page.object_list

    def get_next_link(self) -> str | None:
        if not self.card_page.has_next:
            return None
        assert self.request is not None  # set by paginate_queryset, before any link
        url = self.request.build_absolute_uri()
        return replace_query_param(url, self.page_query_param, self.card_page.number + 1)

    def get_previous_link(self) -> str | None:
        if not self.card_page.has_previous:
            return None
        assert self.request is not None  # set by paginate_queryset, before any link
        url = self.request.build_absolute_uri()
        if self.card_page.number == 2:
            return remove_query_param(url, self.page_query_param)
        return replace_query_param(url, self.page_query_param, self.card_page.number - 1)

    def get_paginated_response(self, data: Any) -> Response:
        response = Response(
            {
                "count": self.card_page.count,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )
        if not self.card_page.count_exact:
            response["Count-Estimated"] = "true"
        return response
