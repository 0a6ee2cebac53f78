"""Writes the import tests' mechanisms twice each: in the exchange format (MJCF or URDF, the
way those formats' users write them: frames relative to parents, inertials beside the body
frame) and in LoopLab's model format (bodies at their centres of mass, joints at global
points). The numbers come from one description below, so the pair is the same mechanism;
the importer must turn the first into the second. Run: /usr/bin/python3 make_exchange_models.py"""

import json
import math

import numpy as np

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def rod_inertia(m, length, radius):
    """A rod along x of its own frame: about its centre, x along the rod."""
    along = m * radius**2 / 2
    across = m * length**2 / 12 + m * radius**2 / 4
    return [along, across, across]


def rotation_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def quat_z(angle):
    return [math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)]


def quat_from_matrix(R):
    """[w, x, y, z] of a rotation matrix, from its largest component (Shepperd)."""
    t = np.trace(R)
    candidates = [t, R[0, 0], R[1, 1], R[2, 2]]
    k = int(np.argmax(candidates))
    if k == 0:
        w = math.sqrt(1 + t) / 2
        q = [w, (R[2, 1] - R[1, 2]) / (4 * w), (R[0, 2] - R[2, 0]) / (4 * w), (R[1, 0] - R[0, 1]) / (4 * w)]
    else:
        i, j, l = [(0, 1, 2), (1, 2, 0), (2, 0, 1)][k - 1]
        r = math.sqrt(1 + R[i, i] - R[j, j] - R[l, l]) / 2
        v = [0.0, 0.0, 0.0]
        v[i] = r
        v[j] = (R[j, i] + R[i, j]) / (4 * r)
        v[l] = (R[l, i] + R[i, l]) / (4 * r)
        q = [(R[l, j] - R[j, l]) / (4 * r)] + v
    return q if q[0] >= 0 else [-c for c in q]


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def model_file(name, gravity, bodies, joints, expected=None, markers=None):
    doc = {"format": "looplab-model", "version": 1, "name": name, "gravity": gravity, "bodies": bodies, "joints": joints}
    if markers:
        doc["markers"] = markers
    if expected:
        doc["expected"] = expected
    return doc


def four_bar():
    """Crank 0.1 m at 60 degrees, coupler to C, rocker to D = (0.4, 0, 0); a planar loop under
    gravity along -y. MJCF: the chain A-B-C as nested bodies, D as a connect equality."""
    A = np.array([0.0, 0.0, 0.0])
    B = np.array([0.05, 0.08660254037844387, 0.0])
    C = np.array([0.3884615384615386, 0.29977802438692114, 0.0])
    D = np.array([0.4, 0.0, 0.0])
    links = [("crank", A, B, 0.2), ("coupler", B, C, 0.5), ("rocker", C, D, 0.4)]
    bodies, mj = [], []
    for name, p, q, m in links:
        d = q - p
        angle = math.atan2(d[1], d[0])
        bodies.append({"name": name, "mass": m, "inertia": rod_inertia(m, np.linalg.norm(d), 0.005),
                       "position": list((p + q) / 2), "orientation": quat_z(angle)})
        mj.append((name, p, d, m, angle))
    joints = [{"name": n, "type": "revolute", "body1": b1, "body2": b2, "point": list(pt), "axis": [0, 0, 1]}
              for n, b1, b2, pt in [("A", "ground", "crank", A), ("B", "crank", "coupler", B),
                                    ("C", "coupler", "rocker", C)]]
    looplab = model_file("four-bar closed by a connect", [0, -9.81, 0], bodies,
                         joints + [{"name": "D", "type": "spherical", "body1": "rocker", "body2": "ground",
                                    "point": list(D)}])
    xml = ['<mujoco model="four-bar closed by a connect">', '  <compiler angle="radian"/>',
           '  <option gravity="0 -9.81 0"/>', "  <worldbody>"]
    indent = "    "
    previous = A
    for (name, p, d, m, angle), joint in zip(mj, "ABC"):
        xml.append(f'{indent}<body name="{name}" pos="{fmt(p - previous)}">')
        xml.append(f'{indent}  <joint name="{joint}" type="hinge" axis="0 0 1" range="-3 3"/>')
        xml.append(f'{indent}  <inertial pos="{fmt(d / 2)}" quat="{fmt(quat_z(angle))}" mass="{m!r}" '
                   f'diaginertia="{fmt(rod_inertia(m, np.linalg.norm(d), 0.005))}"/>')
        xml.append(f'{indent}  <geom type="capsule" fromto="0 0 0 {fmt(d)}" size="0.005" rgba="0.2 0.4 0.8 1"/>')
        previous = p
        indent += "  "
    for k in range(3):
        indent = indent[:-2]
        xml.append(f"{indent}</body>")
    xml += ["  </worldbody>", "  <equality>", f'    <connect name="D" body1="rocker" anchor="{fmt(D - C)}"/>',
            "  </equality>", '  <actuator><motor joint="A" gear="1"/></actuator>', "</mujoco>"]
    return "\n".join(xml) + "\n", looplab


def delta():
    """Three arms at 120 degrees: each an upper arm on a hinge at the base circle (radius
    0.2 m, 0.3 m above the platform's plane), a forearm on a ball at the elbow, and a
    connect from the forearm's end to the platform (radius 0.05 m), a free body: three loops
    through the platform."""
    base_r, plat_r, upper, z0 = 0.2, 0.05, 0.15, 0.3
    plat_centre = np.array([0.0, 0.0, 0.0])
    bodies, joints, xml_arms, equalities = [], [], [], []
    for k in range(3):
        phi = 2 * math.pi * k / 3
        u = np.array([math.cos(phi), math.sin(phi), 0.0])
        hinge_axis = np.array([-math.sin(phi), math.cos(phi), 0.0])
        shoulder = base_r * u + np.array([0, 0, z0])
        elbow = shoulder + upper * u
        wrist = plat_r * u + plat_centre
        fore = wrist - elbow
        # Upper arm: a rod from shoulder to elbow; forearm: a rod from elbow to wrist.
        for name, p, q, m in [(f"upper{k}", shoulder, elbow, 0.3), (f"fore{k}", elbow, wrist, 0.2)]:
            d = q - p
            L = np.linalg.norm(d)
            x = d / L
            y = np.cross([0, 0, 1.0], x) if abs(x[2]) < 0.9 else np.cross([1.0, 0, 0], x)
            y /= np.linalg.norm(y)
            R = np.column_stack([x, y, np.cross(x, y)])
            qv = quat_from_matrix(R)
            bodies.append({"name": name, "mass": m, "inertia": rod_inertia(m, L, 0.01), "position": list((p + q) / 2),
                           "orientation": qv})
            if name.startswith("upper"):
                xml_arms.append(f'    <body name="{name}" pos="{fmt(shoulder)}">\n'
                                f'      <joint name="shoulder{k}" type="hinge" axis="{fmt(hinge_axis)}"/>\n'
                                f'      <inertial pos="{fmt(d / 2)}" quat="{fmt(qv)}" mass="{m!r}" '
                                f'diaginertia="{fmt(rod_inertia(m, L, 0.01))}"/>\n'
                                f'      <geom type="capsule" fromto="0 0 0 {fmt(d)}" size="0.01"/>\n')
            else:
                xml_arms[-1] += (f'      <body name="{name}" pos="{fmt(elbow - shoulder)}">\n'
                                 f'        <joint name="elbow{k}" type="ball"/>\n'
                                 f'        <inertial pos="{fmt(d / 2)}" quat="{fmt(qv)}" mass="{m!r}" '
                                 f'diaginertia="{fmt(rod_inertia(m, L, 0.01))}"/>\n'
                                 f'        <geom type="capsule" fromto="0 0 0 {fmt(d)}" size="0.008"/>\n'
                                 f'      </body>\n    </body>')
        joints.append({"name": f"shoulder{k}", "type": "revolute", "body1": "ground", "body2": f"upper{k}",
                       "point": list(shoulder), "axis": list(hinge_axis)})
        joints.append({"name": f"elbow{k}", "type": "spherical", "body1": f"upper{k}", "body2": f"fore{k}",
                       "point": list(elbow)})
        joints.append({"name": f"wrist{k}", "type": "spherical", "body1": f"fore{k}", "body2": "platform",
                       "point": list(wrist)})
        equalities.append(f'    <connect name="wrist{k}" body1="fore{k}" body2="platform" anchor="{fmt(fore)}"/>')
    platform = {"name": "platform", "mass": 0.5, "inertia": [0.5 * 0.5 * plat_r**2 / 2] * 2 + [0.5 * plat_r**2 / 2],
                "position": list(plat_centre), "orientation": [1, 0, 0, 0]}
    looplab = model_file("delta robot, three loops", [0, 0, -9.81], bodies + [platform], joints)
    I = platform["inertia"]
    xml = ['<mujoco model="delta robot, three loops">', '  <option gravity="0 0 -9.81"/>', "  <worldbody>",
           *xml_arms,
           '    <body name="platform" pos="0 0 0">', '      <freejoint/>',
           f'      <inertial pos="0 0 0" mass="0.5" diaginertia="{fmt(I)}"/>',
           '      <geom type="cylinder" size="0.05 0.005" rgba="0.8 0.3 0.2 1"/>', "    </body>",
           "  </worldbody>", "  <equality>", *equalities, "  </equality>", "</mujoco>"]
    return "\n".join(xml) + "\n", looplab


BOX_TRIANGLES = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4),
                 (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)]


def write_box_stl(path, lower, upper):
    """An ASCII STL of the box between two corners, its triangles turned outwards."""
    corners = [[upper[i] if k >> i & 1 else lower[i] for i in range(3)] for k in range(8)]
    with open(path, "w") as f:
        f.write("solid box\n")
        for t in BOX_TRIANGLES:
            f.write("  facet normal 0 0 0\n    outer loop\n")
            for k in t:
                f.write("      vertex " + fmt(corners[k]) + "\n")
            f.write("    endloop\n  endfacet\n")
        f.write("endsolid box\n")


def serial_arm():
    """A three-link arm in URDF: a base fixed to the world, a shoulder turning about z, an
    elbow and a wrist about y, links drawn by STL meshes (which the import reports), the
    inertials offset from the link frames."""
    lengths, masses = [0.3, 0.25, 0.1], [2.0, 1.5, 0.5]
    import os
    os.makedirs(f"{HERE}/meshes", exist_ok=True)
    # The base in millimetres (the URDF scales it by 0.001), the links in metres, each along
    # its link from the joint.
    write_box_stl(f"{HERE}/meshes/base.stl", [-50, -50, 0], [50, 50, 100])
    write_box_stl(f"{HERE}/meshes/link1.stl", [-0.03, -0.03, 0], [0.03, 0.03, 0.3])
    write_box_stl(f"{HERE}/meshes/link2.stl", [0, -0.03, -0.03], [0.25, 0.03, 0.03])
    write_box_stl(f"{HERE}/meshes/link3.stl", [0, -0.02, -0.02], [0.1, 0.02, 0.02])
    urdf = ['<?xml version="1.0"?>', '<robot name="serial arm">', '  <link name="world"/>',
            '  <link name="base">', '    <inertial><origin xyz="0 0 0.05"/><mass value="5"/>'
            '<inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial>',
            '    <visual><geometry><mesh filename="meshes/base.stl" scale="0.001 0.001 0.001"/></geometry></visual>',
            '  </link>',
            '  <joint name="bolted" type="fixed"><parent link="world"/><child link="base"/>'
            '<origin xyz="0 0 0.1"/></joint>']
    bodies, joints = [], []
    base = {"name": "base", "mass": 5.0, "inertia": [0.02, 0.02, 0.02], "position": [0, 0, 0.15],
            "orientation": [1, 0, 0, 0],
            "shape": {"type": "mesh", "file": "meshes/base.stl", "scale": [0.001] * 3, "offset": [0, 0, -0.05]}}
    bodies.append(base)
    joints.append({"name": "bolted", "type": "fixed", "body1": "ground", "body2": "base", "point": [0, 0, 0.1],
                   "axis": [0, 0, 1]})
    parent, origin_z, axes = "base", 0.1, [("shoulder", [0, 0, 1]), ("elbow", [0, 1, 0]), ("wrist", [0, 1, 0])]
    link_origin = np.array([0.0, 0.0, 0.1])
    offsets = [np.array([0, 0, 0.1]), np.array([0, 0, 0.3]), np.array([0.25, 0, 0])]
    for k, ((joint, axis), L, m) in enumerate(zip(axes, lengths, masses)):
        name = f"link{k + 1}"
        link_origin = link_origin + offsets[k]
        com_local = np.array([L / 2, 0, 0]) if k else np.array([0, 0, L / 2])
        I = rod_inertia(m, L, 0.03)
        inertia = [I[1], I[1], I[0]] if k == 0 else I
        urdf += [f'  <link name="{name}">',
                 f'    <inertial><origin xyz="{fmt(com_local)}" rpy="0 0 0"/><mass value="{m!r}"/>'
                 f'<inertia ixx="{inertia[0]!r}" iyy="{inertia[1]!r}" izz="{inertia[2]!r}" ixy="0" ixz="0" iyz="0"/>'
                 "</inertial>",
                 f'    <visual><geometry><mesh filename="meshes/{name}.stl"/></geometry></visual>', "  </link>",
                 f'  <joint name="{joint}" type="revolute"><parent link="{parent}"/><child link="{name}"/>'
                 f'<origin xyz="{fmt(offsets[k])}" rpy="0 0 0"/><axis xyz="{fmt(axis)}"/>'
                 '<limit lower="-3.1" upper="3.1" effort="50" velocity="3"/><dynamics damping="0.1"/></joint>']
        bodies.append({"name": name, "mass": m, "inertia": inertia, "position": list(link_origin + com_local),
                       "orientation": [1, 0, 0, 0],
                       "shape": {"type": "mesh", "file": f"meshes/{name}.stl", "offset": list(-com_local)}})
        joints.append({"name": joint, "type": "revolute", "body1": parent, "body2": name,
                       "point": list(link_origin), "axis": axis})
        parent = name
    urdf += ["</robot>"]
    looplab = model_file("serial arm", [0, 0, -9.81], bodies, joints)
    return "\n".join(urdf) + "\n", looplab


if __name__ == "__main__":
    for stem, (text, looplab), ext in [("four-bar-connect", four_bar(), "xml"), ("delta-three-loops", delta(), "xml"),
                                       ("serial-arm", serial_arm(), "urdf")]:
        with open(f"{HERE}/{stem}.{ext}", "w") as f:
            f.write(text)
        with open(f"{HERE}/{stem}.json", "w") as f:
            json.dump(looplab, f, indent=2)
            f.write("\n")
