"""Deckwright: deck builder, card database and rules lab."""

from deckwright.celery import app as celery_app

__all__ = ("celery_app",)
