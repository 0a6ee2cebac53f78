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


def test_a_setting_of_the_wrong_type_is_named_with_the_type_it_wants():
    # pybind11's "Unable to cast Python instance to C++ type" named no setting.
    model = looplab.load(pendulum())
    wrong = [
        (lambda: looplab.simulate(model, t_end=1.0, max_rows="many"), "max_rows must be a whole number, not str 'many'"),
        (lambda: looplab.simulate(model, t_end=1.0, max_steps=2.5), "max_steps must be a whole number, not float 2.5"),
        (lambda: looplab.simulate(model, t_end=1.0, nodes="bob"), "nodes must be a list of node names"),
        (lambda: looplab.simulate(model, t_end=1.0, nodes=[1, 2]), "nodes must be a list of node names"),
        (lambda: looplab.simulate(model, t_end="1"), "t_end must be a number, not str '1'"),
        (lambda: looplab.simulate(model, t_end=1.0, method=3), "method must be a string, not int 3"),
        (lambda: looplab.kinematics(model, t_end="1"), "t_end must be a number, not str '1'"),
        (lambda: looplab.statics(model, tolerance="tight"), "tolerance must be a number, not str 'tight'"),
        (lambda: looplab.statics(model, method=None), "method must be a string, not NoneType None"),
        (lambda: looplab.modes(model, count=2.0), "count must be a whole number, not float 2.0"),
        (lambda: looplab.modes(model, shift="low"), "shift must be a number, not str 'low'"),
        (lambda: looplab.modes(model, along="pivot", from_=0, to="1", steps=2), "to must be a number, not str '1'"),
        (lambda: looplab.study({}, threads="2"), "threads must be a whole number, not str '2'"),
    ]
    for call, message in wrong:
        with pytest.raises(TypeError) as e:
            call()
        assert message in str(e.value)
        assert "Unable to cast" not in str(e.value)


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
