"""What the analyses return: time series with named columns, and the summaries the
command line's --json prints, as dicts."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np


class TimeSeries:
    """Rows of numbers, one per output time, under named columns (the command line's CSV
    header: ``t``, ``BODY.x`` … ``BODY.qz``, joint coordinates such as ``crank.angle``,
    violations, energy, reactions ``JOINT.fx`` …, efforts, rank, step statistics).

    ``series["crank.angle"]`` is a column (a view into ``data``); ``data`` the whole array,
    rows × columns; ``to_pandas()`` a DataFrame where pandas is installed.
    """

    def __init__(self, columns: Sequence[str], data: np.ndarray):
        self.columns: list[str] = list(columns)
        self.data: np.ndarray = data
        self._index = {name: k for k, name in enumerate(self.columns)}

    def __getitem__(self, column: str) -> np.ndarray:
        try:
            return self.data[:, self._index[column]]
        except KeyError:
            close = [c for c in self.columns if column.split(".")[0] in c][:8]
            hint = f"; columns like it: {', '.join(close)}" if close else ""
            raise KeyError(f"no column {column!r}{hint}") from None

    def __contains__(self, column: object) -> bool:
        return column in self._index

    def __len__(self) -> int:
        return self.data.shape[0]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    @property
    def t(self) -> np.ndarray:
        """The output times [s]."""
        return self["t"]

    def to_pandas(self) -> Any:
        """A pandas DataFrame of the rows, indexed by nothing (``t`` is a column)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (Debian: python3-pandas)") from e
        return pandas.DataFrame(self.data, columns=self.columns)


class RunResult(TimeSeries):
    """A simulation or kinematic run: its rows, and what ``--json`` reports of it.

    ``ok`` is False when the run stopped before its end (a failure, a limit, a stop flag);
    ``message`` then says why, and the rows up to that point are kept. ``summary`` is the
    command line's JSON object (settings and where each came from, statistics, largest
    violations, energy, final state, events).
    """

    def __init__(self, columns: Sequence[str], data: np.ndarray, summary: dict, ok: bool, message: str):
        super().__init__(columns, data)
        self.summary: dict = summary
        self.ok: bool = ok
        self.message: str = message

    @property
    def events(self) -> list[dict]:
        """Events in the order raised: {t, kind, joints, detail}."""
        return list(self.summary.get("events", []))

    @property
    def warnings(self) -> list[str]:
        return list(self.summary.get("warnings", []))

    @property
    def statistics(self) -> dict:
        """Steps, rejected steps, right-hand-side evaluations, Newton iterations, wall time."""
        keys = ("steps", "rejected_steps", "rhs_evaluations", "jacobian_evaluations", "outer_iterations",
                "inner_iterations", "repartitions", "wall_time_s")
        return {k: self.summary[k] for k in keys if k in self.summary}

    @property
    def settings(self) -> dict:
        """Each setting the run used, {name: {"value", "from"}} (call, model or default)."""
        return dict(self.summary.get("settings", {}))

    @property
    def final(self) -> dict | None:
        return self.summary.get("final")

    def raise_if_failed(self) -> "RunResult":
        """Raises RuntimeError with the reason if the run did not reach its end."""
        if not self.ok:
            t = self.data[-1, 0] if len(self) else float("nan")
            raise RuntimeError(f"the run stopped at t = {t:g} s: {self.message}")
        return self

    def __repr__(self) -> str:
        state = "ok" if self.ok else f"stopped: {self.message}"
        return f"<looplab.RunResult {len(self)} rows × {len(self.columns)} columns, {state}>"


class StaticsResult:
    """A static equilibrium: ``ok``, ``report`` (the command line's JSON: outcome,
    iterations, residuals, bodies) and ``q``, the positions at the equilibrium."""

    def __init__(self, report: dict, q: np.ndarray):
        self.report = report
        self.q = q
        self.ok: bool = bool(report.get("ok"))
        self.outcome: str = report.get("outcome", "")

    def __repr__(self) -> str:
        return f"<looplab.StaticsResult {self.outcome}>"


class ModesResult:
    """Vibration modes about the equilibrium: ``frequencies_hz`` and ``damping_ratios``
    (arrays, lowest first), ``shapes`` (one mode per row over ``coordinates``, the velocity
    coordinates ``BODY.x`` … ``BODY.rz`` or ``BEAM.q<k>``), ``multipliers`` (one row per
    mode) and ``report``, the command line's JSON."""

    def __init__(self, report: dict, shapes: np.ndarray, coordinates: Sequence[str], multipliers: np.ndarray):
        self.report = report
        self.ok: bool = bool(report.get("ok"))
        modes = report.get("modes", [])
        self.frequencies_hz = np.array([m["frequency_hz"] for m in modes], dtype=float)
        self.damping_ratios = np.array([m["damping_ratio"] for m in modes], dtype=float)
        self.shapes = shapes
        self.coordinates = list(coordinates)
        self.multipliers = multipliers

    def __repr__(self) -> str:
        f = ", ".join(f"{x:.6g}" for x in self.frequencies_hz[:6])
        return f"<looplab.ModesResult {len(self.frequencies_hz)} modes: {f} Hz>"


class StudyResult(TimeSeries):
    """A design study: one row per case in case order (``case``, the parameters, ``ok``
    and ``assembled`` as 1 or 0, event counts and outputs, NaN where a failed case has no
    value), ``reasons`` (why each case failed, empty when ok) and ``summary``, the
    statistics the command line's ``--summary`` writes."""

    def __init__(self, columns: Sequence[str], data: np.ndarray, reasons: Sequence[str], summary: dict):
        super().__init__(columns, data)
        self.reasons: list[str] = list(reasons)
        self.summary: dict = summary

    @property
    def t(self) -> np.ndarray:
        raise AttributeError("a study's rows are cases, not times: use study['case']")

    def __repr__(self) -> str:
        ok = int(np.sum(self["ok"])) if len(self) else 0
        return f"<looplab.StudyResult {len(self)} cases, {ok} ok>"


class ModesAlongResult(TimeSeries):
    """The lowest frequencies along a driver's motion: one row per posture, the driver's
    value, ``f1_hz`` … ``fK_hz``, ``zeta1`` … ``zetaK`` and ``ok`` (−1 where a track has no
    mode), as ``modes --along --out`` writes them; ``steps`` the per-posture JSON (the
    equilibrium's outcome, each track's correlation) and ``report`` the whole of it."""

    def __init__(self, columns: Sequence[str], data: np.ndarray, report: dict):
        super().__init__(columns, data)
        self.report = report
        self.ok: bool = bool(report.get("ok"))
        self.message: str = report.get("error", "")
        self.steps: list[dict] = list(report.get("steps", []))

    def __repr__(self) -> str:
        return f"<looplab.ModesAlongResult {len(self)} postures along {self.columns[0]!r}>"
