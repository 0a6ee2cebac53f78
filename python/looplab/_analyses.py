"""The analyses: the command line's commands as functions (docs/cli.md gives each
setting's meaning; here they are keywords with underscores)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from . import _looplab
import json
import os
from typing import Mapping, Union

from ._model import ModelError, ModelSource, load
from ._results import ModesAlongResult, ModesResult, RunResult, StaticsResult, StudyResult

Progress = Callable[[float, float], Optional[bool]]


def _number(name: str, value: Any) -> float:
    """A setting that is a number, or TypeError naming it (pybind11's own conversion error
    names neither the setting nor the type it wants)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} {value!r}")
    return float(value)


def _whole(name: str, value: Any) -> int:
    """A setting that is a whole number, or TypeError naming it."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__} {value!r}")
    return int(value.__index__())


def _text(name: str, value: Any) -> str:
    """A setting that is a string, or TypeError naming it."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, not {type(value).__name__} {value!r}")
    return value


def check(model: ModelSource, linear_algebra: str = "automatic") -> dict:
    """Mobility at the assembled configuration: counts, rank, degrees of freedom,
    redundant equations with their joints, a four-bar's Grashof class, findings — the
    JSON of ``looplab-cli check --json``."""
    return _looplab.check(load(model)._handle, _text("linear_algebra", linear_algebra))


def simulate(model: ModelSource, *, progress: Optional[Progress] = None, stop: Optional[_looplab.StopFlag] = None,
             **settings: Any) -> RunResult:
    """Forward dynamics from the model's assembled initial state.

    Settings (each overrides the model's ``run`` block, which overrides the method's
    defaults): ``t_end`` (the span [s]), ``method``, ``integrator``, ``rtol``, ``atol``,
    ``step``, ``output_step``, every method and integrator parameter by its name
    (``hht_alpha``, ``penalty_factor``, …; :func:`methods` lists them), and
    ``singular_threshold``, ``rank_tolerance``, ``linear_algebra``, ``on_stiff``
    ("stop" or "warn"), ``max_rows``, ``max_steps``, ``max_wall_time``, ``nodes`` (beam and
    solid nodes to give columns).

    ``progress(t, fraction)`` is called about ten times a second (returning False stops
    the run); ``stop`` ends the run when set from another thread; Ctrl-C ends it and
    raises KeyboardInterrupt. A run that fails or is stopped returns ``ok`` False with its
    rows so far. Raises TypeError for an unknown setting and ValueError for a value out of
    range or a method and integrator that do not go together.
    """
    columns, data, summary, ok, message = _looplab.simulate(load(model)._handle, settings, progress, stop)
    return RunResult(columns, data, summary, ok, message)


def kinematics(model: ModelSource, t_end: float = 1.0, step: float = 0.01, *, max_wall_time: float = 0.0,
               progress: Optional[Progress] = None, stop: Optional[_looplab.StopFlag] = None) -> RunResult:
    """Kinematic motion of a fully driven model (no degree of freedom left), a sample every
    ``step`` over ``t_end`` seconds."""
    columns, data, summary, ok, message = _looplab.kinematics(load(model)._handle, _number("t_end", t_end),
                                                              _number("step", step),
                                                              _number("max_wall_time", max_wall_time), progress, stop)
    return RunResult(columns, data, summary, ok, message)


def statics(model: ModelSource, method: str = "automatic", tolerance: float = 1e-10, *,
            max_wall_time: float = 0.0) -> StaticsResult:
    """Static equilibrium under the applied loads, from the initial state (``method``:
    automatic, newton or relaxation). ``max_wall_time`` [s] (0: none) ends the search
    between iterations with ``ok`` False and the reason, as ``statics --max-wall-time``."""
    report, q = _looplab.statics(load(model)._handle, _text("method", method), _number("tolerance", tolerance),
                                 _number("max_wall_time", max_wall_time))
    return StaticsResult(report, q)


def modes(model: ModelSource, count: int = 6, *, shift: Optional[float] = None, scaling: Any = "auto",
          factorization: str = "auto", statics_method: str = "automatic", along: Optional[str] = None,
          from_: Optional[float] = None, to: Optional[float] = None, steps: Optional[int] = None,
          max_wall_time: float = 0.0, progress: Optional[Progress] = None,
          stop: Optional[_looplab.StopFlag] = None) -> Union[ModesResult, ModesAlongResult]:
    """The ``count`` lowest vibration modes about the static equilibrium (shift-invert
    iteration on the linearised constrained equations; ``scaling`` "auto", "none" or a
    number; ``shift`` on ω² [rad²/s²]). ``max_wall_time`` [s] (0: none) bounds the
    equilibrium search, as ``modes --max-wall-time``.

    With ``along="DRIVER"``, ``from_``, ``to`` and ``steps``: the lowest frequencies at
    ``steps`` postures of the driver's motion (the driver locked at each), as a
    :class:`ModesAlongResult`; ``progress`` and ``stop`` as for :func:`simulate`."""
    handle = load(model)._handle
    count = _whole("count", count)
    if shift is not None:
        shift = _number("shift", shift)
    if not isinstance(scaling, str):
        scaling = repr(_number("scaling", scaling))
    factorization = _text("factorization", factorization)
    statics_method = _text("statics_method", statics_method)
    max_wall_time = _number("max_wall_time", max_wall_time)
    if along is None:
        if from_ is not None or to is not None or steps is not None:
            raise TypeError("from_, to and steps need along=DRIVER")
        report, shapes, coordinates, multipliers = _looplab.modes(handle, count, shift, scaling,
                                                                  factorization, statics_method, max_wall_time)
        return ModesResult(report, shapes, coordinates, multipliers)
    if from_ is None or to is None or steps is None:
        raise TypeError("along=DRIVER needs from_, to and steps")
    columns, data, report = _looplab.modes_along(handle, count, _text("along", along), _number("from_", from_),
                                                 _number("to", to), _whole("steps", steps), shift, scaling,
                                                 factorization, statics_method, max_wall_time, progress, stop)
    return ModesAlongResult(columns, data, report)


def methods() -> dict:
    """The constraint methods, the integrators and the parameters a run may be given."""
    return _looplab.registry()


class StudyError(ModelError):
    """A study file that could not be read: every diagnostic with its location."""


def study(source: Union[str, os.PathLike, Mapping[str, Any]], *, threads: int = 1,
          progress: Optional[Progress] = None, stop: Optional[_looplab.StopFlag] = None) -> StudyResult:
    """Runs a design study (docs/study-format.md: a model, the parameters varied, the
    analysis and its outputs), from a file or a dict of the same shape (a relative model
    path in a dict is taken from the current folder), on ``threads`` threads.
    ``progress(done, fraction)`` is called as cases finish; a stop or Ctrl-C ends the study
    with the cases done so far."""
    threads = _whole("threads", threads)
    if isinstance(source, Mapping):
        columns, data, reasons, summary = _looplab.study(json.dumps(source), True, "", threads, progress, stop)
    else:
        columns, data, reasons, summary = _looplab.study(os.fspath(source), False, "", threads, progress, stop)
    if columns is None:
        raise StudyError(data)
    return StudyResult(columns, data, reasons, summary)
