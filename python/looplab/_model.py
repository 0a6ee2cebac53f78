"""Models: loading, the errors that name where a model is wrong, and drafting one in code."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, Union

import numpy as np

from . import _looplab


@dataclass(frozen=True)
class Diagnostic:
    """One problem of a model: where it is (file, JSON pointer, or line and column for a
    syntax error) and what is wrong, in words a user can act on."""

    file: str
    location: str
    message: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        source = self.file or "model"
        if self.line and not self.column:  # an element of an imported XML file
            return f"{source}:{self.line}: {self.location}: {self.message}" if self.location else \
                f"{source}:{self.line}: {self.message}"
        if self.line:
            return f"{source}:{self.line}:{self.column}: {self.message}"
        return f"{source}: {self.location or '/'}: {self.message}"


class ModelError(ValueError):
    """A model that could not be read, built or assembled.

    ``diagnostics`` lists every problem with its location; ``location`` is the first one's
    JSON pointer; ``explanation`` says, for a model that builds but does not close, which
    joints leave gaps and why (a four-bar's link too long to be spanned, a repeated joint).
    """

    def __init__(self, diagnostics: Iterable[Mapping[str, Any]], explanation: Sequence[str] = (),
                 report: Sequence[str] = ()):
        self.diagnostics = [Diagnostic(**d) for d in diagnostics]
        self.explanation = list(explanation)
        self.import_report = list(report)
        lines = [str(d) for d in self.diagnostics] + ["  " + s for s in self.explanation]
        super().__init__("\n".join(lines) if lines else "the model could not be loaded")

    @property
    def location(self) -> str:
        return self.diagnostics[0].location if self.diagnostics else ""


@dataclass(frozen=True)
class State:
    """Time [s], positions q and velocities v in the model's coordinates (a rigid body:
    centre of mass [m] and unit quaternion w, x, y, z in q; centre-of-mass velocity [m/s]
    and angular velocity in body axes [rad/s] in v)."""

    t: float
    q: np.ndarray
    v: np.ndarray


ModelSource = Union["Model", str, os.PathLike, Mapping[str, Any]]


class Model:
    """A built and assembled model. Made by :func:`load`; immutable (``with_value`` gives
    a changed copy)."""

    def __init__(self, handle: "_looplab.ModelHandle", report: Sequence[str] = ()):
        self._handle = handle
        self.import_report: list[str] = list(report)
        """For a model imported from URDF or MJCF: what the file said that was not taken over."""

    @property
    def name(self) -> str:
        return self._handle.name

    @property
    def file(self) -> str:
        """The file it was read from; empty for a model given as a dict."""
        return self._handle.file

    @property
    def bodies(self) -> list[str]:
        """The moving bodies' names (ground excluded), rigid and flexible."""
        return list(self._handle.bodies)

    @property
    def joints(self) -> list[str]:
        return list(self._handle.joints)

    @property
    def drivers(self) -> list[str]:
        return list(self._handle.drivers)

    @property
    def initial(self) -> State:
        """The assembled initial state."""
        t, q, v = self._handle.initial
        return State(t, np.array(q), np.array(v))

    def to_dict(self) -> dict:
        """The model in the model format (docs/model-format.md), as a dict."""
        return json.loads(self._handle.to_json())

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the model in the model format. A path that is a file the model reads (a
        mesh file of its bodies, or the URDF or MJCF file it was imported from), however it
        is spelled or linked, raises ValueError and writes nothing."""
        target = os.fspath(path)
        reads = list(self._handle.mesh_files)
        if self.file and os.path.splitext(self.file)[1].lower() in (".urdf", ".xml", ".mjcf"):
            reads.append(self.file)
        for source in reads:
            try:
                same = os.path.samefile(target, source)
            except OSError:  # one of them does not exist: not one file
                same = False
            if same:
                raise ValueError(f"save: '{target}' is the file '{source}' the model reads; "
                                 "refusing to overwrite it (choose another file)")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=2)
            f.write("\n")

    def export(self, format: str = "mjcf") -> tuple[str, list[str]]:
        """The model as MJCF or URDF text at its assembled configuration, and what the
        format could not take (drivers, forces, couplers, loop joints it has no equality
        for); docs/import-export.md."""
        text, report = _looplab.export_model(self._handle, format)
        return text, list(report)

    def with_value(self, pointer: str, value: float) -> "Model":
        """A copy with the number at ``pointer`` (a JSON pointer into the model format,
        e.g. ``"/drivers/0/law/speed"``) set to ``value``, built again but keeping this
        model's initial state (it is not assembled again). Raises :class:`ModelError`
        naming the pointer if there is no number there, the new value is refused, or it
        would change the model's coordinates."""
        handle, diagnostics, explanation, _ = _looplab.with_number(self._handle, pointer, float(value))
        if handle is None:
            raise ModelError(diagnostics, explanation)
        return Model(handle)

    def __repr__(self) -> str:
        return f"<looplab.Model {self.name!r}: {len(self.bodies)} bodies, {len(self.joints)} joints>"


def load(source: ModelSource) -> Model:
    """A model from a file path or from a dict in the model format (docs/model-format.md),
    built and assembled; a .urdf, .xml or .mjcf file is imported first (URDF, MJCF;
    ``model.import_report`` says what it left out). Raises :class:`ModelError` with every
    diagnostic (file, JSON location or XML element, message) if it cannot be read, built
    or assembled."""
    if isinstance(source, Model):
        return source
    report: list[str] = []
    if isinstance(source, Mapping):
        handle, diagnostics, explanation, report = _looplab.load_text(json.dumps(source), "")
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.splitext(path)[1].lower() in (".urdf", ".xml", ".mjcf"):
            handle, diagnostics, explanation, report = _looplab.import_file(path)
        else:
            handle, diagnostics, explanation, report = _looplab.load_file(path)
    else:
        raise TypeError(f"load() takes a path or a dict in the model format, not {type(source).__name__}")
    if handle is None:
        raise ModelError(diagnostics, explanation, report)
    return Model(handle, report)


class ModelDraft:
    """A model written in code, section by section, in the model format's own field names
    (docs/model-format.md)::

        draft = looplab.ModelDraft("pendulum", gravity=[0, -9.81, 0])
        draft.body(name="bob", mass=1.0, inertia=[1e-3] * 3, position=[1, 0, 0])
        draft.joint(name="pivot", type="revolute", body1="ground", body2="bob",
                    point=[0, 0, 0], axis=[0, 0, 1])
        model = draft.build()

    Each method appends one entry to its section and returns the draft; ``build`` loads the
    whole as :func:`load` loads a dict, so an error names the entry by its JSON pointer.
    """

    _sections = ("bodies", "markers", "joints", "drivers", "couplers", "forces", "beams", "solids",
                 "node_sets", "traces")

    def __init__(self, name: str = "", **fields: Any):
        self._doc: dict[str, Any] = {"format": "looplab-model", "version": 1, "name": name}
        self._doc.update(_plain(fields))

    def _add(self, section: str, fields: Mapping[str, Any]) -> "ModelDraft":
        self._doc.setdefault(section, []).append(_plain(dict(fields)))
        return self

    def body(self, **fields: Any) -> "ModelDraft":
        return self._add("bodies", fields)

    def marker(self, **fields: Any) -> "ModelDraft":
        return self._add("markers", fields)

    def joint(self, **fields: Any) -> "ModelDraft":
        return self._add("joints", fields)

    def driver(self, **fields: Any) -> "ModelDraft":
        return self._add("drivers", fields)

    def coupler(self, **fields: Any) -> "ModelDraft":
        return self._add("couplers", fields)

    def force(self, **fields: Any) -> "ModelDraft":
        return self._add("forces", fields)

    def beam(self, **fields: Any) -> "ModelDraft":
        return self._add("beams", fields)

    def solid(self, **fields: Any) -> "ModelDraft":
        return self._add("solids", fields)

    def set(self, **fields: Any) -> "ModelDraft":
        """Top-level fields: gravity, expected, run, camera, description."""
        self._doc.update(_plain(fields))
        return self

    def to_dict(self) -> dict:
        return json.loads(json.dumps(self._doc))

    def build(self) -> Model:
        return load(self._doc)


def _plain(value: Any) -> Any:
    """NumPy arrays and scalars as lists and floats, so that a draft takes them too."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
