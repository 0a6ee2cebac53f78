"""URDF and MJCF from Python and the command line: each test file's mechanism moves as its
twin in the model format (tests/data/exchange), and a model taken through MJCF and back
moves as before."""

import json
import subprocess

import numpy as np
import pytest
import looplab
from conftest import SOURCE

EXCHANGE = SOURCE / "tests" / "data" / "exchange"


def body_paths(run, bodies):
    return np.column_stack([run[f"{b}.{c}"] for b in bodies for c in "xyz"])


@pytest.mark.parametrize("name", ["four-bar-connect.xml", "delta-three-loops.xml", "serial-arm.urdf"])
def test_an_imported_mechanism_moves_as_its_twin(name):
    imported = looplab.load(EXCHANGE / name)
    twin = looplab.load(EXCHANGE / (name.rsplit(".", 1)[0] + ".json"))
    assert imported.import_report  # every file here says something LoopLab leaves out
    a, b = looplab.check(imported), looplab.check(twin)
    assert (a["dof"], len(a["redundant"])) == (b["dof"], len(b["redundant"]))
    settings = dict(t_end=0.2, output_step=0.01, rtol=1e-11, atol=1e-13)
    ra, rb = looplab.simulate(imported, **settings), looplab.simulate(twin, **settings)
    assert ra.ok and rb.ok
    np.testing.assert_allclose(body_paths(ra, twin.bodies), body_paths(rb, twin.bodies), rtol=0, atol=1e-9)


def test_a_round_trip_through_mjcf_keeps_the_motion(examples, tmp_path):
    original = looplab.load(examples / "four-bar.json")
    text, report = original.export("mjcf")
    assert any("closes a loop: written as a connect" in r for r in report)
    path = tmp_path / "four-bar.xml"
    path.write_text(text)
    again = looplab.load(path)
    settings = dict(t_end=1.0, output_step=0.05, rtol=1e-12, atol=1e-14)
    ra, rb = looplab.simulate(original, **settings), looplab.simulate(again, **settings)
    np.testing.assert_allclose(body_paths(rb, original.bodies), body_paths(ra, original.bodies), rtol=0, atol=1e-10)


def test_the_command_line_imports_and_exports(cli, tmp_path, examples):
    out = tmp_path / "arm.json"
    done = subprocess.run([cli, "import", str(EXCHANGE / "serial-arm.urdf"), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "note: joint limits enforced as end stops that hold what strikes them (restitution 0; give 'restitution' for a bounce): shoulder, elbow, wrist" in done.stderr
    assert [j.get("limits") for j in looplab.load(out).to_dict()["joints"]] == [None] + [[-3.1, 3.1]] * 3
    assert looplab.load(out).to_dict() == looplab.load(EXCHANGE / "serial-arm.urdf").to_dict()
    done = subprocess.run([cli, "export", str(examples / "four-bar.json"), "--format", "urdf", "--json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    exported = json.loads(done.stdout)
    assert exported["ok"] and "<loop_joint name=\"C\" type=\"revolute\">" in exported["text"]
    done = subprocess.run([cli, "import", str(EXCHANGE / "nothing.xml")], capture_output=True, text=True)
    assert done.returncode == 2 and "cannot open the file" in done.stderr


def test_import_errors_name_the_element(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n  <worldbody>\n    <body name="arm">\n      <joint type="hinge"/>\n'
                   "    </body>\n  </worldbody>\n</mujoco>\n")
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(bad)
    assert e.value.location == "mujoco/worldbody/body[arm]"
    assert "moves but has no mass" in str(e.value)
    assert e.value.diagnostics[0].line == 3


def urdf_chain(links, extra=""):
    inertial = ('<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>'
                "</inertial>")
    parts = ['<robot name="chain">', '<link name="l0"/>']
    for k in range(1, links):
        parts.append(f'<link name="l{k}">{inertial}</link><joint name="j{k}" type="continuous">'
                     f'<parent link="l{k - 1}"/><child link="l{k}"/><origin xyz="0.1 0 0"/><axis xyz="0 0 1"/></joint>')
    return "\n".join(parts) + extra + "\n</robot>\n"


def test_a_long_urdf_chain_loads(tmp_path):
    # 8 000 links overflowed the import's stack and ended the interpreter.
    path = tmp_path / "chain.urdf"
    path.write_text(urdf_chain(8000))
    model = looplab.load(path)
    assert len(model.bodies) == 7999
    assert model.bodies[-1] == "l7999"


def test_urdf_links_in_a_cycle_are_refused(tmp_path):
    # urdfdom reads it; the import went round the cycle until its stack ran out.
    path = tmp_path / "cycle.urdf"
    path.write_text(urdf_chain(4, '<joint name="back" type="continuous"><parent link="l3"/><child link="l1"/>'
                                  '<axis xyz="0 0 1"/></joint>'))
    with pytest.raises(looplab.ModelError) as e:
        looplab.load(path)
    assert "cycle.urdf" in str(e.value)
    assert "the links form a cycle, 'l1' → 'l2' → 'l3' → 'l1'" in str(e.value)


LATIN1_URDF = (b'<robot name="latin1">\n<link name="base"/>\n<link name="Arm\xe4"><inertial><mass value="1"/>'
               b'<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>\n'
               b'<joint name="Gel\xe4nk" type="continuous"><parent link="base"/><child link="Arm\xe4"/>'
               b'<origin xyz="0.1 0 0"/><axis xyz="0 0 1"/></joint>\n</robot>\n')


def test_names_that_are_not_utf8_are_replaced_and_named(tmp_path, cli):
    # A Latin-1 joint name: `import --json` ended on the JSON writer's type_error.316, and
    # Python on a UnicodeDecodeError.
    path = tmp_path / "latin1.urdf"
    path.write_bytes(LATIN1_URDF)
    model = looplab.load(path)
    assert model.bodies == ["Arm\ufffd"]
    assert any("not UTF-8" in r and "/joints/0/name 'Gel\ufffdnk'" in r for r in model.import_report)
    done = subprocess.run([cli, "import", str(path), "--json"], capture_output=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["model"]["joints"][0]["name"] == "Gel\ufffdnk"
    assert any("/bodies/0/name 'Arm\ufffd'" in r for r in report["report"])


def test_save_refuses_a_file_the_model_reads(tmp_path):
    # Model.save() onto a mesh file of the model replaced the mesh with the model's JSON.
    import shutil
    shutil.copytree(EXCHANGE / "meshes", tmp_path / "meshes")
    shutil.copy(EXCHANGE / "serial-arm.urdf", tmp_path / "serial-arm.urdf")
    shutil.copy(EXCHANGE / "serial-arm.json", tmp_path / "serial-arm.json")
    mesh = tmp_path / "meshes" / "link1.stl"
    before = mesh.read_bytes()
    (tmp_path / "link.stl").symlink_to(mesh)
    for source in ("serial-arm.urdf", "serial-arm.json"):
        model = looplab.load(tmp_path / source)
        for target in (mesh, tmp_path / "meshes" / ".." / "meshes" / "link1.stl", tmp_path / "link.stl"):
            with pytest.raises(ValueError, match="is the file .*link1.stl' the model reads"):
                model.save(target)
        assert mesh.read_bytes() == before
    imported = looplab.load(tmp_path / "serial-arm.urdf")
    with pytest.raises(ValueError, match="serial-arm.urdf' the model reads"):
        imported.save(tmp_path / "serial-arm.urdf")
    imported.save(tmp_path / "arm.json")
    assert looplab.load(tmp_path / "arm.json").bodies == imported.bodies
