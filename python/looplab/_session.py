"""A run taken a stretch at a time: for control loops and for teaching."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _looplab
from ._analyses import Progress
from ._model import Model, ModelSource, State, load
from ._results import RunResult


class Session:
    """A model and its state, advanced to one time after another::

        s = looplab.Session("four-bar.json", method="projection", rtol=1e-10)
        for k in range(1, 11):
            s.advance(0.1 * k)
            s.set_value("/drivers/0/law/speed", 2.0 + 0.1 * k)   # between stretches

    Each ``advance`` runs the simulation from the current state to ``t`` with the
    session's settings (the same keywords as :func:`simulate`, ``t_end`` excepted) and
    returns that stretch's rows. The integrator starts afresh on each stretch; with short
    stretches an adaptive integrator spends a few extra steps finding its step size again.
    """

    def __init__(self, model: ModelSource, **settings: Any):
        if "t_end" in settings:
            raise TypeError("a Session's end is the t given to advance(), not t_end")
        self._model: Model = load(model)
        self._settings = settings
        initial = self._model.initial
        self._t, self._q, self._v = initial.t, initial.q, initial.v
        self._last_angles: dict[str, float] = {}

    @property
    def model(self) -> Model:
        return self._model

    @property
    def t(self) -> float:
        return self._t

    @property
    def state(self) -> State:
        return State(self._t, self._q.copy(), self._v.copy())

    def set_state(self, q: Optional[np.ndarray] = None, v: Optional[np.ndarray] = None) -> None:
        """Replaces positions and/or velocities. The next stretch starts from them (a
        projecting method first projects them onto the constraints)."""
        if q is not None:
            q = np.asarray(q, dtype=float)
            if q.shape != self._q.shape:
                raise ValueError(f"q needs {self._q.size} values, got {q.size}")
            self._q = q.copy()
        if v is not None:
            v = np.asarray(v, dtype=float)
            if v.shape != self._v.shape:
                raise ValueError(f"v needs {self._v.size} values, got {v.size}")
            self._v = v.copy()

    def set_value(self, pointer: str, value: float) -> None:
        """Changes a number of the model (a JSON pointer into the model format, e.g. a
        driver's speed or a spring's stiffness) for the stretches that follow; the state
        stays as it is."""
        self._model = self._model.with_value(pointer, value)

    def advance(self, t: float, *, progress: Optional[Progress] = None,
                stop: Optional[_looplab.StopFlag] = None) -> RunResult:
        """Runs to time ``t`` [s] and returns the stretch's rows (its first row the state
        it started from). The session's state is the last row's, also when the stretch
        stopped early (``ok`` False)."""
        if not t >= self._t:
            raise ValueError(f"advance() goes forward: t = {t:g} s is before the session's {self._t:g} s")
        settings = dict(self._settings, t_end=t - self._t)
        columns, data, summary, ok, message, t1, q1, v1 = _looplab.simulate_from(
            self._model._handle, settings, self._t, self._q, self._v, progress, stop)
        self._t, self._q, self._v = t1, np.array(q1), np.array(v1)
        self._count_turns_on(columns, data)
        return RunResult(columns, data, summary, ok, message)

    def _count_turns_on(self, columns: list[str], data: np.ndarray) -> None:
        """Each stretch counts a revolute joint's angle afresh within one turn; its first
        row is the previous stretch's last state, so whole turns are added to go on from
        where the previous stretch ended."""
        if len(data):
            for k, name in enumerate(columns):
                if name.endswith(".angle") and name in self._last_angles:
                    turns = np.round((self._last_angles[name] - data[0, k]) / (2 * np.pi))
                    data[:, k] += turns * 2 * np.pi
            self._last_angles = {name: data[-1, k] for k, name in enumerate(columns) if name.endswith(".angle")}
