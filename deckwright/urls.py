from django.contrib import admin
from django.urls import include, path, register_converter

from common.inputs import IdConverter

# <id:pk> in every app's URLs: a database id of at most 18 digits (longer ones are a 404).
register_converter(IdConverter, "id")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("", include("web.urls")),
    path("", include("cards.urls")),
]

# /api/ paths answer errors as problem details (api/errors.py); other paths get Django's pages.
handler400 = "api.errors.handler400"
handler403 = "api.errors.handler403"
handler404 = "api.errors.handler404"
handler500 = "api.errors.handler500"
