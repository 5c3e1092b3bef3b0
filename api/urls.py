"""URLs of the REST API, mounted at /api/v1/ (namespace ``api``)."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from api.views import auth, cards, decks, events, matchups, meta, simulations

app_name = "api"

# A SimpleRouter: no "/decks.json"-style suffix routes (the actions never took a format argument),
# clients choose JSON with the Accept header or ?format=json; and the root is ours, listing
# every endpoint (api/endpoints.py), not DRF's list of router prefixes.
router = SimpleRouter()
router.register("games", cards.GameViewSet, basename="game")
router.register("sets", cards.CardSetViewSet, basename="set")
router.register("card-types", cards.CardTypeViewSet, basename="card-type")
router.register("branches", cards.BranchViewSet, basename="branch")
router.register("rarities", cards.RarityViewSet, basename="rarity")
router.register("subtypes", cards.SubtypeViewSet, basename="subtype")
router.register("cards", cards.CardViewSet, basename="card")
router.register("decks", decks.DeckViewSet, basename="deck")
router.register("formats", decks.FormatViewSet, basename="format")
router.register("events", events.EventViewSet, basename="event")
router.register("matchups", matchups.MatchupRunViewSet, basename="matchup")
router.register("simulations", simulations.SimulationJobViewSet, basename="simulation")

urlpatterns = [
    path("schema/", meta.SchemaView.as_view(), name="schema"),
    path("docs/", meta.SwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", meta.RedocView.as_view(url_name="api:schema"), name="redoc"),
    path("problems/<slug:code>/", meta.problem_detail, name="problem-detail"),
    path("auth/token/", auth.TokenView.as_view(), name="auth-token"),
    path("auth/token/rotate/", auth.token_rotate_view, name="auth-token-rotate"),
    path("me/", auth.me, name="me"),
    path("validate/", decks.validate_view, name="validate"),
    path("", meta.ApiRootView.as_view(), name="api-root"),
    path("", include(router.urls)),
]
