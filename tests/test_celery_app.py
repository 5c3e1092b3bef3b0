"""The Celery app finds the lab's task (``deckwright/celery.py``): the lab is a package inside the
``rules`` app, so installed-app autodiscovery alone would look for ``rules.tasks`` and miss
``rules.lab.tasks``; the task keeps its registered name, ``rules.simulation_chunk_play``, which
queued messages carry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from deckwright.celery import app
from rules.lab.jobs import simulation_chunk_play

ROOT = Path(__file__).resolve().parent.parent

#: what a command-line worker does as it starts (``WorkController`` calls the loader's
#: ``init_worker``, which imports the default modules and so runs autodiscovery), in a fresh
#: process where nothing has imported the lab yet
WORKER_START = """
import json, sys
import django
django.setup()
from deckwright.celery import app
before = "rules.lab.tasks" in sys.modules
app.loader.init_worker()
task = app.tasks.get("rules.simulation_chunk_play")
print(json.dumps({
    "before": before,
    "after": "rules.lab.tasks" in sys.modules,
    "module": task.run.__module__ if task is not None else None,
}))
"""


def test_a_worker_discovers_the_chunk_task_of_the_lab() -> None:
    # given a fresh process with Django set up and the Celery app loaded
    done = subprocess.run(
        [sys.executable, "-c", WORKER_START], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    # when the worker starts, then autodiscovery imports the lab's tasks module and the task is
    # registered under its old name, played by the code of rules.lab.jobs
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"before": False, "after": True, "module": "rules.lab.jobs"}


def test_the_in_process_path_finds_the_same_task_by_name() -> None:
    # the jobs queue (or, with no broker, run eagerly) the task they import; Celery names it so
    assert simulation_chunk_play.name == "rules.simulation_chunk_play"
    assert "rules.simulation_chunk_play" in app.tasks
    assert app.tasks["rules.simulation_chunk_play"].name == simulation_chunk_play.name
