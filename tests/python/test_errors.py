"""Errors are Python exceptions that say where the model is wrong."""

import pytest
import looplab


def pendulum(**bob):
    body = {"name": "bob", "mass": 1.0, "inertia": [1e-3] * 3, "position": [1, 0, 0]}
    body.update(bob)
    return {
        "format": "looplab-model", "version": 1, "gravity": [0, -9.81, 0], "bodies": [body],
        "joints": [{"name": "pivot", "type": "revolute", "body1": "ground", "body2": "bob",
                    "point": [0, 0, 0], "axis": [0, 0, 1]}],
    }


def test_a_bad_value_in_a_dict_names_its_json_location():
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(pendulum(mass=-1.0))
    assert e.value.location == "/bodies/0/mass"
    assert "mass" in str(e.value)


def test_a_syntax_error_in_a_file_names_its_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "looplab-model",\n  "version": 1,\n  "bodies": [ }\n')
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(path)
    d = e.value.diagnostics[0]
    assert d.file == str(path) and d.line == 4 and d.column > 0
    assert str(d).startswith(f"{path}:4:")


def test_a_missing_file_and_a_model_that_does_not_close_are_explained(tmp_path, examples):
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(tmp_path / "nothing.json")
    assert str(tmp_path / "nothing.json") in str(e.value)
    # A four-bar whose coupler (0.95 m) is longer than the other links can span (0.80 m).
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(examples.parent.parent / "tests" / "data" / "four-bar-long-coupler.json")
    assert e.value.location == "/joints"
    assert e.value.explanation[0].startswith("coupler 0.95 m is longer than the 0.80 m the other links can span")


def test_settings_are_checked_by_name():
    model = looplab.load(pendulum())
    with pytest.raises(TypeError, match="'rtoll' is not a simulation setting"):
        looplab.simulate(model, t_end=1.0, rtoll=1e-9)
    with pytest.raises(ValueError, match="rtol must be a positive number not above 1"):
        looplab.simulate(model, t_end=1.0, rtol=2.0)
    with pytest.raises(ValueError, match="t_end is needed"):
        looplab.simulate(model)
    with pytest.raises(ValueError, match="tlismni"):
        looplab.simulate(model, t_end=1.0, method="tlismni", integrator="dopri5")


def test_a_changed_value_is_checked_where_it_is():
    model = looplab.load(pendulum())
    heavier = model.with_value("/bodies/0/mass", 2.0)
    assert heavier.to_dict()["bodies"][0]["mass"] == 2.0
    with pytest.raises(looplab.ModelError) as e:
        model.with_value("/bodies/0/mass", -2.0)
    assert e.value.location == "/bodies/0/mass"
    with pytest.raises(looplab.ModelError, match="no value here"):
        model.with_value("/bodies/3/mass", 1.0)


def test_an_unknown_node_is_named_as_python_spells_the_setting(examples):
    with pytest.raises(ValueError, match=r"^nodes: 'beam.node99' is not a node of the model's beams or solids"):
        looplab.simulate(examples / "cantilever-beam.json", t_end=0.01, nodes=["beam.node99"])
