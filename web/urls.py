"""URLs of the pages (mounted at the site root, before the card database's own pages)."""

from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from deckwright.inputs import ID_PATTERN
from web.views import (
    accounts,
    cards,
    catalogue,
    decks,
    events,
    help,
    matchups,
    simulations,
    testhands,
)

urlpatterns = [
    path("", catalogue.home, name="home"),
    path("games/<slug:slug>/", catalogue.game_detail, name="game-detail"),
    path("games/<slug:game>/cards/<slug:slug>/", catalogue.card_detail, name="card-detail"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/token/", accounts.api_token, name="account-token"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("cards/", cards.card_browser, name="card-browser"),
    path("help/query-language/", help.query_help, name="query-help"),
    path("decks/", decks.deck_list_public_view, name="deck-list-public"),
    path("decks/mine/", decks.deck_list_mine, name="deck-list-mine"),
    path("decks/new/", decks.deck_new, name="deck-new"),
    path("decks/<id:pk>/", decks.deck_detail, name="deck-detail"),
    path("decks/<id:pk>/workspace/", decks.deck_workspace_view, name="deck-workspace"),
    path("decks/<id:pk>/suggest/", decks.deck_card_suggest, name="deck-card-suggest"),
    path("decks/<id:pk>/cards/add/", decks.deck_card_add_view, name="deck-card-add"),
    path("decks/<id:pk>/cards/set/", decks.deck_card_set_view, name="deck-card-set"),
    path("decks/<id:pk>/paste/", decks.deck_paste, name="deck-paste"),
    path("decks/<id:pk>/settings/", decks.deck_settings, name="deck-settings"),
    path("decks/<id:pk>/clone/", decks.deck_clone_view, name="deck-clone"),
    path("decks/<id:pk>/delete/", decks.deck_delete_view, name="deck-delete"),
    path("decks/<id:pk>/versions/", decks.deck_versions_view, name="deck-versions"),
    path("decks/<id:pk>/doctor/", simulations.deck_doctor, name="deck-doctor"),
    path("decks/<id:pk>/test-hands/", testhands.deck_test_hands, name="deck-test-hands"),
    re_path(
        rf"^decks/(?P<pk>{ID_PATTERN})/export\.(?P<kind>text|csv|json)$",
        decks.deck_export_view,
        name="deck-export",
    ),
    path("matchups/", matchups.matchup_new, name="matchup-new"),
    path("matchups/<id:pk>/", matchups.matchup_detail, name="matchup-detail"),
    path("matchups/<id:pk>/step/", matchups.matchup_step, name="matchup-step"),
    path("matchups/<id:pk>/games/<id:number>/", matchups.matchup_game, name="matchup-game"),
    path("simulations/", simulations.simulation_new, name="simulation-new"),
    path("simulations/<id:pk>/", simulations.simulation_detail, name="simulation-detail"),
    path(
        "simulations/<id:pk>/progress/",
        simulations.simulation_progress,
        name="simulation-progress",
    ),
    path("simulations/<id:pk>/cancel/", simulations.simulation_cancel, name="simulation-cancel"),
    path(
        "simulations/<id:pk>/apply-swap/",
        simulations.simulation_apply_swap,
        name="simulation-apply-swap",
    ),
    path(
        "simulations/<id:pk>/matrix.<str:kind>",
        simulations.simulation_matrix,
        name="simulation-matrix",
    ),
    path("tournament/", events.tournament_check, name="tournament-check"),
    path(
        "tournament/reports/<str:token>.csv",
        events.tournament_report_csv,
        name="tournament-report-csv",
    ),
    path("events/", events.event_list, name="event-list"),
    path("events/new/", events.event_new, name="event-new"),
    path("events/<id:pk>/", events.event_detail, name="event-detail"),
    path("events/<id:pk>/edit/", events.event_edit, name="event-edit"),
    path("events/<id:pk>/delete/", events.event_delete_page, name="event-delete"),
    path(
        "events/<id:pk>/registrations/",
        events.event_registrations_page,
        name="event-registrations",
    ),
    path("events/<id:pk>/register/", events.event_register, name="event-register"),
    path("events/<id:pk>/withdraw/", events.event_withdraw, name="event-withdraw"),
]
