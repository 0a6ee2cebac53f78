"""LoopLab from Python: mechanisms with closed kinematic loops.

Load a model (a file in LoopLab's model format, or a dict of the same shape), or draft one
in code, then check it, run it and analyse it with the solvers of ``looplab-cli``: the
numbers are the command line's to the last digit. Time series come back as NumPy arrays
with named columns, summaries as dicts::

    import looplab
    model = looplab.load("resources/examples/four-bar.json")
    run = looplab.simulate(model, t_end=2.0, rtol=1e-10)
    run["crank.angle"]            # a column, one value per output time
    run.summary["max_violation"]  # what `looplab-cli simulate --json` prints

Long solves release the GIL; ``progress`` callbacks, a :class:`StopFlag` and Ctrl-C stop
them cleanly. docs/python.md has the whole interface.
"""

from ._looplab import StopFlag, __version__
from ._model import Diagnostic, Model, ModelDraft, ModelError, State, load
from ._results import ModesAlongResult, ModesResult, RunResult, StaticsResult, StudyResult, TimeSeries
from ._analyses import StudyError, check, kinematics, methods, modes, simulate, statics, study
from ._session import Session

__all__ = [
    "__version__", "Diagnostic", "Model", "ModelDraft", "ModelError", "ModesAlongResult", "ModesResult", "RunResult", "Session", "State",
    "StaticsResult", "StopFlag", "StudyError", "StudyResult", "TimeSeries", "check", "kinematics", "load",
    "methods", "modes", "simulate", "statics", "study",
]
