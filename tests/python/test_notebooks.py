"""The classroom notebooks in examples/notebooks run from top to bottom (their own asserts
check their numbers against closed forms and Grashof's condition) and write their figures."""

import os

import pytest
from conftest import SOURCE

nbformat = pytest.importorskip("nbformat", reason="needs python3-nbformat (scripts/install-deps.sh)")
nbclient = pytest.importorskip("nbclient", reason="needs python3-nbclient (scripts/install-deps.sh)")
pytest.importorskip("matplotlib", reason="needs python3-matplotlib (scripts/install-deps.sh)")

NOTEBOOKS = SOURCE / "examples" / "notebooks"
FIGURES = {
    "four-bar-grashof.ipynb": ["grashof-swing.png", "coupler-curves.png"],
    "cantilever-modes.ipynb": ["cantilever-modes.png"],
    "method-comparison.ipynb": ["method-comparison.png"],
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_the_notebook_runs_and_draws(name, tmp_path, monkeypatch):
    # The kernel is a process of its own: it finds the package and the figure folder
    # through its environment.
    if "LOOPLAB_PYTHON_PATH" in os.environ:
        monkeypatch.setenv("PYTHONPATH", os.path.abspath(os.environ["LOOPLAB_PYTHON_PATH"]))
    monkeypatch.setenv("LOOPLAB_FIGURES_DIR", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=None, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    for figure in FIGURES[name]:
        png = tmp_path / figure
        assert png.exists(), figure
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    # What the notebook printed has no traceback (an assert would have stopped it anyway).
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error"
