from django.urls import include, path

urlpatterns = [
    path("cards/", include("cards.images.urls")),
]
