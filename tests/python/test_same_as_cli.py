"""The module gives the command line's numbers to the last digit: the CSV carries 17
significant digits, so every double read back from it is the one the tool computed."""

import json
import subprocess

import numpy as np
import pytest
import looplab


def run_cli(cli, *args):
    out = subprocess.run([cli, *map(str, args)], check=True, capture_output=True, text=True)
    return out.stdout


def read_csv(path):
    with open(path) as f:
        lines = f.readlines()
    columns = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:]])
    return columns, data


def without_wall_time(summary):
    return {k: v for k, v in summary.items() if k not in ("wall_time_s", "file")}


def test_four_bar_simulation_equals_the_command_line(cli, examples, tmp_path):
    model = examples / "four-bar.json"
    csv = tmp_path / "four-bar.csv"
    summary = json.loads(run_cli(cli, "simulate", model, "--t-end", 1.0, "--rtol", 1e-10, "--out", csv, "--json"))
    columns, data = read_csv(csv)
    run = looplab.simulate(str(model), t_end=1.0, rtol=1e-10)
    assert run.ok
    assert run.columns == columns
    np.testing.assert_array_equal(run.data, data)
    assert without_wall_time(run.summary) == without_wall_time(summary)
    assert len(run) == 101 and run.t[-1] == 1.0


def test_andrews_mechanism_with_its_own_run_block_equals_the_command_line(cli, examples, tmp_path):
    # Andrews' squeezing mechanism under the model's run block (projection, BDF, rtol 1e-8).
    model = examples / "andrews.json"
    csv = tmp_path / "andrews.csv"
    summary = json.loads(run_cli(cli, "simulate", model, "--out", csv, "--json"))
    columns, data = read_csv(csv)
    run = looplab.simulate(model)
    assert run.columns == columns
    np.testing.assert_array_equal(run.data, data)
    assert run.settings["integrator"] == {"value": "bdf", "from": "model"}
    assert without_wall_time(run.summary) == without_wall_time(summary)


def test_slider_crank_kinematics_equals_the_command_line(cli, examples, tmp_path):
    model = examples / "slider-crank.json"
    csv = tmp_path / "slider.csv"
    run_cli(cli, "kinematics", model, "--t-end", 0.5, "--step", 0.01, "--out", csv)
    columns, data = read_csv(csv)
    run = looplab.kinematics(model, t_end=0.5, step=0.01)
    assert run.ok and run.columns == columns
    np.testing.assert_array_equal(run.data, data)


def test_cantilever_modes_equal_the_command_line_and_the_beam_formula(cli, examples):
    model = examples / "cantilever-beam.json"
    report = json.loads(run_cli(cli, "modes", model, "--count", 4, "--json"))
    modes = looplab.modes(model, 4)
    assert modes.ok
    np.testing.assert_array_equal(modes.frequencies_hz, [m["frequency_hz"] for m in report["modes"]])
    # Euler-Bernoulli cantilever: f_k = (beta_k L)^2 / (2 pi L^2) sqrt(E I / (rho A)).
    beam = looplab.load(model).to_dict()["beams"][0]
    E, rho = beam["material"]["young_modulus"], beam["material"]["density"]
    b, h = beam["section"]["width"], beam["section"]["height"]
    L = 1.0
    scale = np.sqrt(E * b * h**3 / 12 / (rho * b * h)) / (2 * np.pi * L**2)
    expected = np.array([1.87510407, 1.87510407, 4.69409113, 4.69409113]) ** 2 * scale
    # Eight cable elements: the first pair within 1e-5, the second within 1e-4.
    np.testing.assert_allclose(modes.frequencies_hz[:2], expected[:2], rtol=1e-5)
    np.testing.assert_allclose(modes.frequencies_hz[2:], expected[2:], rtol=1e-4)
    assert modes.shapes.shape == (4, len(modes.coordinates))


def test_check_and_statics_equal_the_command_line(cli, examples):
    model = examples / "bricard.json"
    report = json.loads(run_cli(cli, "check", model, "--json"))
    mine = looplab.check(model)
    assert without_wall_time(mine) == without_wall_time({k: v for k, v in report.items() if k != "ok"})
    assert mine["dof"] == 1 and len(mine["redundant"]) == 1
    pendulum = examples / "pendulum.json"
    report = json.loads(run_cli(cli, "statics", pendulum, "--json"))
    eq = looplab.statics(pendulum)
    assert eq.ok and without_wall_time(eq.report) == without_wall_time(report)
    # Hanging straight down: the bob's centre 1 m below the pivot.
    np.testing.assert_allclose(eq.report["bodies"]["bob"]["position"], [0, -1, 0], atol=1e-9)


def test_a_study_equals_the_command_line(cli, tmp_path):
    from conftest import SOURCE
    study = SOURCE / "resources" / "studies" / "spring-mass-monte-carlo.json"
    csv, summary = tmp_path / "mc.csv", tmp_path / "mc.json"
    run_cli(cli, "study", study, "--out", csv, "--summary", summary)
    with open(csv) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    assert header[-1] == "reason"
    result = looplab.study(study, threads=2)
    assert result.columns == header[:-1]
    rows = [line.split(",") for line in lines[1:]]
    expected = np.array([[float(x) if x else np.nan for x in r[:-1]] for r in rows])
    np.testing.assert_array_equal(result.data, expected)
    assert result.reasons == [r[-1] for r in rows]
    assert result.summary == json.loads(summary.read_text())


def test_modes_along_a_driver_equal_the_command_line(cli, examples, tmp_path):
    model = examples / "flexible-slider-crank.json"
    csv = tmp_path / "along.csv"
    report = json.loads(run_cli(cli, "modes", model, "--count", 2, "--along", "motor", "--from", 0, "--to", 1.5,
                                "--steps", 3, "--out", csv, "--json"))
    columns, data = read_csv(csv)
    along = looplab.modes(model, 2, along="motor", from_=0, to=1.5, steps=3)
    assert along.ok and along.columns == columns
    np.testing.assert_array_equal(along.data, data)
    assert along.steps == report["steps"]
    with pytest.raises(ValueError, match="no driver named 'nope'"):
        looplab.modes(model, 2, along="nope", from_=0, to=1, steps=2)
    with pytest.raises(TypeError, match="need along=DRIVER"):
        looplab.modes(model, 2, steps=2)


def test_one_version_everywhere(cli, examples):
    """The package, the command line and every JSON report say the same version, the one
    project() in CMakeLists.txt sets (docs/install.md, "Versions")."""
    source = (examples.parent.parent / "CMakeLists.txt").read_text()
    declared = source.split("project(LoopLab VERSION ", 1)[1].split()[0]
    assert looplab.__version__ == declared
    assert run_cli(cli, "--version").strip() == f"looplab-cli {declared}"
    report = json.loads(run_cli(cli, "check", examples / "pendulum.json", "--json"))
    assert report["looplab_version"] == declared
    assert looplab.check(looplab.load(examples / "pendulum.json"))["looplab_version"] == declared


def test_motor_outputs_equal_the_command_line(cli, examples, tmp_path):
    # A DC motor's torque, speed, power, current and heat are columns (and the summary's
    # final forces) as the tool writes them; check reports its no-load speed and stall torque.
    model = examples / "slider-crank-dc-motor.json"
    csv = tmp_path / "motor.csv"
    summary = json.loads(run_cli(cli, "simulate", model, "--t-end", 0.3, "--out", csv, "--json"))
    columns, data = read_csv(csv)
    run = looplab.simulate(model, t_end=0.3)
    assert run.ok
    assert [c for c in run.columns if c.startswith("motor.")] == [
        "motor.torque", "motor.speed", "motor.power", "motor.current", "motor.heat"]
    assert run.columns == columns
    np.testing.assert_array_equal(run.data, data)
    assert without_wall_time(run.summary) == without_wall_time(summary)
    # From rest: the stall torque n η k V / R = 10 · 0.9 · 0.02 · 6 / 1 and current V / R.
    assert run["motor.torque"][0] == pytest.approx(1.08, rel=1e-15)
    assert run["motor.current"][0] == pytest.approx(6.0, rel=1e-15)
    np.testing.assert_allclose(run["motor.power"], run["motor.torque"] * run["motor.speed"], rtol=1e-15, atol=0)
    motors = looplab.check(model)["motors"]["motor"]
    assert motors["no_load_speed"] == pytest.approx(30.0, rel=1e-15)
    assert motors["stall_torque"] == pytest.approx(1.08, rel=1e-15)
    assert motors["stall_current"] == pytest.approx(6.0, rel=1e-15)
