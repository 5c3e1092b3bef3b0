"""Evaluation weights as data: a game's evaluation reads the weights of its features from a JSON
file beside its module (``weights.json``), which ``bench/tune.py`` writes after tuning them by
self-play. No weight is set by hand in code; the file also says how it was tuned.

The engine keeps the weights in one module-level dict that its evaluation reads on every call.
An agent playing other weights (a tuning candidate) installs them for its own decisions only
(``WeightedAgent``): agents decide one at a time in a process, so the dict is swapped in and
back around each decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rules.engines.core.api import Action, State

FILE = "weights.json"


def load_weights(path: Path) -> dict[str, float]:
    """The weights stored at ``path`` (raises ``ValueError`` naming the file when unreadable)."""
    try:
        data = json.loads(path.read_text())
        return {str(name): float(value) for name, value in data["weights"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: no evaluation weights ({error})") from error


def weights_beside(module_file: str) -> dict[str, float]:
    """The weights of the ``weights.json`` beside the module whose ``__file__`` is given: what
    an engine's evaluation module loads as it is imported."""
    return load_weights(Path(module_file).with_name(FILE))


def save_weights(path: Path, weights: Mapping[str, float], tuned: Mapping[str, Any]) -> None:
    """Store ``weights`` at ``path`` with ``tuned``: how they were found (command, games ...)."""
    data = {"weights": {name: round(value, 6) for name, value in weights.items()}, "tuned": tuned}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


@contextmanager
def installed(target: MutableMapping[str, float], values: Mapping[str, float]) -> Iterator[None]:
    """``target`` holds ``values`` inside the block, and its own values again after it."""
    saved = dict(target)
    target.update(values)
    try:
        yield
    finally:
        target.clear()
        target.update(saved)


class WeightedAgent:
    """An agent that decides with its own evaluation weights."""

    def __init__(
        self, agent: Any, target: MutableMapping[str, float], values: Mapping[str, float]
    ) -> None:
        self.agent = agent
        self.name = f"{agent.name} (own weights)"
        self.target = target
        self.values = dict(values)

    def act(self, state: State) -> Action:
        with installed(self.target, self.values):
            action: Action = self.agent.act(state)
        return action
