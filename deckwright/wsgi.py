"""WSGI entry point."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
application = get_wsgi_application()

# Serving from here on: finish the in-process simulation jobs a stopped server left unfinished
# (a sweep now and every SIMULATION_RESUME_INTERVAL seconds; rules/lab/jobs.py, docs/scaling.md).
from rules.lab.jobs import simulation_resumer_start  # noqa: E402  (needs the apps loaded)

simulation_resumer_start()
