from django.apps import AppConfig


class WebConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Web pages"

    def ready(self) -> None:
        """Connect the signal receivers (anonymous visitors' jobs claimed at login)."""
        from web import signals  # noqa: F401
