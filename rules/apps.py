from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"

    def ready(self) -> None:
        """Register the engines' card checks with the fixture loader."""
        from rules import engines_checks  # noqa: F401
