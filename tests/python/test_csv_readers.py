"""The command line's CSV opens in the readers users load it with, at their defaults: the
column names are its first line (a comment line with the run's settings there made pandas
name one column after the comment, and numpy fail on every row)."""

import subprocess

import numpy as np
import pandas as pd

T_END = 0.5
STEP = 0.01  # the example's output step


def simulated_pendulum(cli, examples, tmp_path):
    csv = tmp_path / "pendulum.csv"
    subprocess.run([cli, "simulate", str(examples / "pendulum.json"), "--t-end", str(T_END), "--out", str(csv)],
                   check=True, capture_output=True)
    return csv


def test_pandas_reads_the_default_csv(cli, examples, tmp_path):
    table = pd.read_csv(simulated_pendulum(cli, examples, tmp_path))
    assert list(table.columns[:3]) == ["t", "bob.x", "bob.y"]
    assert len(table) == round(T_END / STEP) + 1
    np.testing.assert_allclose(table["t"], np.arange(len(table)) * STEP, rtol=0, atol=1e-12)
    # Released at 120° from the downward vertical, 1 m from the pivot.
    assert abs(table["bob.x"].iloc[0] - np.sin(np.radians(120))) < 1e-12
    np.testing.assert_allclose(np.hypot(table["bob.x"], table["bob.y"]), 1.0, rtol=0, atol=1e-7)


def test_numpy_reads_the_default_csv_with_names(cli, examples, tmp_path):
    table = np.genfromtxt(simulated_pendulum(cli, examples, tmp_path), names=True, delimiter=",")
    # numpy drops the dots of the column names.
    assert table.dtype.names[:3] == ("t", "bobx", "boby")
    assert not np.isnan(table["t"]).any()
    np.testing.assert_allclose(table["t"], np.arange(len(table)) * STEP, rtol=0, atol=1e-12)
    assert table["t"][-1] == T_END
    np.testing.assert_allclose(np.hypot(table["bobx"], table["boby"]), 1.0, rtol=0, atol=1e-7)
