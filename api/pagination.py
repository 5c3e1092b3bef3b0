"""Page-number pagination with ``next``/``previous`` links and a client-chosen page size."""

from __future__ import annotations

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200
