"""How a game is played: engines (pure Python), agents, simulation and test hands; the lab
(``rules.lab``): simulation jobs, plans, the doctor, quotas and Celery tasks."""

from rules.compiled import choose

choose()  # the compiled engines where a fresh build is there, else pure Python (rules/compiled.py)
