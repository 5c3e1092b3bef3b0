"""The card browser: the query language, filters, sort, an image grid or a compact list."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from cards.selectors import card_browse, card_filter_choices
from web.cardrows import card_filters_html, card_rows_html
from web.forms import CardBrowserForm
from web.help import query_hints
from web.views import HtmxHttpRequest


def card_browser(request: HtmxHttpRequest) -> HttpResponse:
    """Search every game's cards; htmx requests get the results block and the filters that
    follow the chosen game (its types, branches, rarities and sets) only."""
    form = CardBrowserForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    query = request.GET.get("q", "") if not data else data.get("q", "")
    browse = card_browse(
        query=query,
        game=data.get("game"),
        card_type=data.get("type"),
        branch=data.get("branch"),
        rarity=data.get("rarity"),
        card_set=data.get("set"),
        sort=data.get("sort") or "name",
        direction=data.get("dir") or "asc",
        page=request.GET.get("page", 1),
        ids_only=True,
    )
    view = data.get("view") or "grid"
    # The rows are drawn once per card and catalogue generation (web.cardrows): catalogue data
    # only, the same for every visitor.
    rows = card_rows_html(browse.page.object_list if browse.page else [], view=view)
    error = browse.error
    context = {
        "form": form,
        "chosen_game": form.chosen_game,
        "browse": browse,
        "card_rows": rows,
        "view": view,
        "query": query,
        "error": error,
        "error_before": query[: error.position] if error else "",
        "error_at": query[error.position : error.position + error.length] if error else "",
        "error_after": query[error.position + error.length :] if error else "",
        "form_errors": form.errors if form.is_bound else {},
    }
    status = 400 if error or (form.is_bound and form.errors) else 200
    context.update(card_filter_choices(form.chosen_game))
    context["query_hints"] = query_hints(form.chosen_game)
    partial = bool(request.htmx and not request.htmx.history_restore_request)
    # drawn once per game and choice (web.cardrows)
    context["filters_html"] = card_filters_html(form.chosen_game, form.data, out_of_band=partial)
    if partial:
        # htmx swaps 2xx only by default; static/js/deckwright.js also swaps 400/422. The
        # filters that follow the game come along out of band, for the game now chosen.
        context["filters_out_of_band"] = True
        return render(request, "web/_card_results.html", context, status=status)
    return render(request, "web/card_browser.html", context, status=status)
