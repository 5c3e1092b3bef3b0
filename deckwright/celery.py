"""The Celery application; long simulations run here when CELERY_BROKER_URL is set."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")

app = Celery("deckwright")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
