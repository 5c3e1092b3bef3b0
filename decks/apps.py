from pathlib import Path

from django.apps import AppConfig


def _load_formats(*, slug: str, fixtures_dir: Path) -> str | None:
    """``load_game_data`` step: a game's ``formats.yaml``, after its cards (``cards.loaders``)."""
    from cards.gamedata import GameDataError
    from decks.services import DeckError, format_data_load

    try:
        report = format_data_load(slug=slug, fixtures_dir=fixtures_dir)
    except DeckError as exc:
        raise GameDataError(exc.problems) from exc
    return None if report is None else report.summary()


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        from cards.loaders import register_game_data_loader
        from decks import signals

        signals.connect()
        register_game_data_loader("formats")(_load_formats)
