"""The Celery application; long simulations run here when CELERY_BROKER_URL is set.

A worker started from the command line also sweeps for lost work, as a serving process does
(``rules.lab.jobs.simulation_resumer_start``): a chunk whose worker died (its lease stopped beating)
is queued again, so it plays again within a couple of minutes instead of waiting out the
broker's visibility timeout.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")

app = Celery("deckwright")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each installed app's ``tasks`` module
# the lab is a package inside the ``rules`` app, not an app of its own: its tasks module is
# ``rules.lab.tasks``, so it is named here (the worker imports it as it starts)
app.autodiscover_tasks(["rules.lab"])

_COMMAND_LINE: dict[str, bool] = {}


@worker_init.connect
def _command_line_worker(**kwargs: Any) -> None:
    # sent by ``celery worker`` only, not by the in-process workers of the tests
    _COMMAND_LINE["worker"] = True


@worker_ready.connect
def _sweep_for_lost_work(**kwargs: Any) -> None:
    # once the pool's processes are forked, so that none inherits the sweeping thread
    if _COMMAND_LINE.get("worker"):
        from rules.lab.jobs import simulation_resumer_start

        simulation_resumer_start()
