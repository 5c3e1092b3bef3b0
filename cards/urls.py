from django.urls import include, path

from cards import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:slug>/", views.game_detail, name="game-detail"),
    path("games/<slug:game>/cards/<slug:slug>/", views.card_detail, name="card-detail"),
    path("cards/", include("cards.images.urls")),
]
