"""The tables app: a table people sit at to play each other, with AI seats filling the rest."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"
