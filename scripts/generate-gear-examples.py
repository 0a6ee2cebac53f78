#!/usr/bin/env python3
# Writes the gear and drive examples of resources/examples/gears-and-drives.md from their
# dimensions (module 2 mm gears, pitch circles touching to rounding, the belt drive from
# four-bar.json): a gear train, a planetary set, a rack and pinion, a belt-driven
# crank-rocker, a screw jack, a rack-and-pinion steering and a bevel pair. Masses follow from the shapes and densities.
import json, math, os
ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "examples") + "/"
def disc(name, pos, r, color, z=-0.004, thick=0.006, angle=0.0):
    return {"name": name, "density": 7800.0,
            "position": [pos[0], pos[1], z],
            "orientation": [math.cos(angle/2), 0, 0, math.sin(angle/2)],
            "shape": {"type": "cylinder", "radius": r, "length": thick, "color": color}}
def rev(name, b1, b2, p, z=0.0):
    return {"name": name, "type": "revolute", "body1": b1, "body2": b2, "point": [p[0], p[1], z], "axis": [0,0,1]}
def write(path, d):
    open(path,'w').write(json.dumps(d, indent=2)+"\n")
# --- gear train: 20 -> 60 | 15 -> 45, module 2 mm
m = 0.002
rA, rB, rC, rD = m*20/2, m*60/2, m*15/2, m*45/2
oA, oB = (0.0, 0.0), (rA+rB, 0.0)
oD = (oB[0], -(rC+rD))
d = {"format": "looplab-model", "version": 1, "name": "Gear train",
 "description": ("A motor turns the input pinion (20 teeth) once a second. It meshes with a 60-tooth wheel; a 15-tooth pinion on the same shaft (one body, the compound gear) meshes with the 45-tooth output wheel one layer behind. "
  "Each stage divides the speed by 3, so the output turns 1/9 as fast as the input and the same way round (two external meshes). The output wheel sits in front, its mesh with the 15-tooth pinion drawn halfway between the two. "
  "Watch the compound wheel turn backwards at a third of the speed and the output at a ninth (the teeth and the mark on each wheel show it turn): plot the joint angles, their ratios hold to rounding. Module 2 mm. "
  "No degree of freedom is left: the motor decides everything."),
 "gravity": [0,0,0],
 "bodies": [disc("input", oA, rA, [0.85,0.25,0.2]), disc("compound", oB, rB, [0.2,0.45,0.85]), disc("output", oD, rD, [0.25,0.7,0.35], z=0.005)],
 "joints": [rev("input shaft", "ground", "input", oA), rev("compound shaft", "ground", "compound", oB), rev("output shaft", "ground", "output", oD, 0.02)],
 "drivers": [{"name": "motor", "joint": "input shaft", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}],
 "couplers": [
   {"name": "first stage", "type": "gear", "joints": ["input shaft", "compound shaft"], "teeth1": 20, "teeth2": 60},
   {"name": "second stage", "type": "gear", "joints": ["compound shaft", "output shaft"], "teeth1": 15, "teeth2": 45}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 3.0, "output_step": 0.01, "pace": 1.0}}
write(ex+'gear-train.json', d)
# --- planetary: sun 24, planets 24, ring 72, module 2 mm; ring fixed; carrier output
Ns, Np, Nr = 24, 24, 72
rs, rp, rr = m*Ns/2, m*Np/2, m*Nr/2
a = rs + rp
d = {"format": "looplab-model", "version": 1, "name": "Planetary gear set",
 "description": ("An epicyclic reduction: the motor turns the sun (24 teeth) once a second; the planet (24 teeth) rolls inside the fixed ring (72 teeth, part of the ground) and carries the arm round. "
  "By Willis' equation the carrier turns N_s/(N_s + N_r) = 1/4 as fast as the sun, the same way, and the planet turns backwards relative to the arm. "
  "Each mesh is a linear coupler written in the carrier's frame: sun-planet 24 (sun - carrier) + 24 planet = 0, ring-planet 72 carrier + 24 planet = 0 (docs/model-format.md). "
  "The sun and the planet are drawn as bars across their pitch circles (24 teeth, module 2 mm: 48 mm). Watch the planet spin against the arm's direction; plot the carrier's angle against the sun's: a straight line of slope 1/4."),
 "gravity": [0,0,0],
 "bodies": [{"name": "sun", "density": 7800.0, "position": [0, 0, -0.004], "orientation": [1,0,0,0],
             "shape": {"type": "box", "size": [2*rs, 0.008, 0.006], "color": [0.85,0.25,0.2]}},
            {"name": "carrier", "density": 2700.0, "position": [a/2, 0, 0.015], "orientation": [1,0,0,0],
             "shape": {"type": "box", "size": [a+0.02, 0.012, 0.006], "color": [0.5,0.5,0.55]}},
            {"name": "planet", "density": 7800.0, "position": [a, 0, -0.004], "orientation": [1,0,0,0],
             "shape": {"type": "box", "size": [2*rp, 0.008, 0.006], "color": [0.25,0.7,0.35]}}],
 "joints": [rev("sun shaft", "ground", "sun", (0,0)), rev("carrier shaft", "ground", "carrier", (0,0), 0.015), rev("planet pin", "carrier", "planet", (a,0))],
 "drivers": [{"name": "motor", "joint": "sun shaft", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}],
 "couplers": [
   {"name": "sun-planet mesh", "type": "linear", "joints": ["sun shaft", "carrier shaft", "planet pin"], "coefficients": [Ns, -Ns, Np]},
   {"name": "ring-planet mesh", "type": "linear", "joints": ["carrier shaft", "planet pin"], "coefficients": [Nr, Np]}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 4.0, "output_step": 0.01, "pace": 1.0}}
write(ex+'planetary-gear.json', d)
# --- rack and pinion: pinion r = 0.03 m on ground, rack slides along x below it
rp_ = 0.03
d = {"format": "looplab-model", "version": 1, "name": "Rack and pinion",
 "description": ("A pinion of pitch radius 30 mm turns back and forth (a harmonic law, 90 degrees either way) and drives a rack that slides along x beneath it. "
  "Rolling without slip gives the rack's travel s = r theta: turning anticlockwise (seen from +z), the pinion's lowest point, and the rack with it, moves towards +x; a quarter turn moves it 47.1 mm. "
  "Plot the rack's displacement against the pinion's angle: a straight line of slope 0.03 m/rad."),
 "gravity": [0,0,0],
 "bodies": [disc("pinion", (0,0), rp_, [0.85,0.25,0.2]),
            {"name": "rack", "density": 7800.0, "position": [0, -rp_-0.01, -0.004], "orientation": [1,0,0,0],
             "shape": {"type": "box", "size": [0.3, 0.02, 0.006], "color": [0.2,0.45,0.85]}}],
 "joints": [rev("pinion shaft", "ground", "pinion", (0,0)),
            {"name": "rack slide", "type": "prismatic", "body1": "ground", "body2": "rack", "point": [0, -rp_-0.01, 0], "axis": [1,0,0]}],
 "drivers": [{"name": "hand", "joint": "pinion shaft", "law": {"type": "harmonic", "amplitude": math.pi/2, "frequency": math.pi, "phase": 0.0, "offset": 0.0}}],
 "couplers": [{"name": "mesh", "type": "rack_and_pinion", "joints": ["pinion shaft", "rack slide"], "radius1": rp_}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 4.0, "output_step": 0.01, "pace": 1.0}}
write(ex+'rack-and-pinion.json', d)
# --- belt drive: a motor pulley (r 30 mm) drives the crank of the crank-rocker through an open belt (r 90 mm)
fb = json.load(open(ex+'four-bar.json'))
d = fb
d["name"] = "Belt-driven crank-rocker"
d["description"] = ("The crank-rocker four-bar (crank 0.1 m, coupler 0.4 m, rocker 0.3 m, ground 0.4 m) driven by a motor through an open belt: "
  "the motor pulley (radius 30 mm) turns three times a second, the crank's pulley (radius 90 mm, the disc about the crank's pivot) once, the same way round. "
  "Watch the rocker swing once per crank turn while the motor runs steadily; plot the motor's angle against the crank's: slope 1/3. "
  "The planar loop still makes three of the joint equations redundant; the belt and the motor leave no degree of freedom.")
for b in d["bodies"]:
    if b["name"] == "crank":
        b["shape"] = {"type": "cylinder", "radius": 0.09, "length": 0.004, "offset": [-0.05, 0.0, -0.012], "color": [0.85, 0.25, 0.2]}
d["bodies"].append(disc("motor pulley", (-0.25, -0.1), 0.03, [0.5, 0.5, 0.55], z=-0.012, thick=0.004))
d["joints"].append(rev("motor shaft", "ground", "motor pulley", (-0.25, -0.1), -0.01))
d["drivers"] = [{"name": "motor", "joint": "motor shaft", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 6*math.pi}}]
d["couplers"] = [{"name": "belt", "type": "belt", "joints": ["motor shaft", "A"], "radius1": 0.03, "radius2": 0.09, "crossed": False}]
d["expected"] = {"dof": 0, "redundant": 3}
d["run"] = {"method": "projection", "integrator": "dopri5", "t_end": 3.0, "output_step": 0.01, "pace": 1.0}
write(ex+'belt-drive.json', d)
# --- screw jack: a ram on a screw joint in a fixed nut, lead 5 mm, turned once a second under a 1 kN load
c45 = math.cos(math.pi/4)
d = {"format": "looplab-model", "version": 1, "name": "Screw jack",
 "description": ("A ram threaded into a fixed nut (a screw joint along y, lead 5 mm a turn, right-handed) is turned once a second and lifts a 1 kN load. "
  "Each turn raises it by the lead: 5 mm/s. Without friction the torque that lifts it is the load times lead/2 pi, (1000 N + its weight, 20.7 N) x 0.005 m / 2 pi = 0.81 N m: "
  "plot the driver's effort, steady because the ram turns at constant speed about its own axis of symmetry. "
  "A screw is a cylindrical joint whose slide follows its turn: 6 coordinates less 5 equations, and the motor takes the last."),
 "gravity": [0, -9.81, 0],
 "bodies": [{"name": "ram", "density": 7800.0, "position": [0, 0.15, 0], "orientation": [c45, -c45, 0, 0],
             "shape": {"type": "box", "size": [0.03, 0.03, 0.3], "color": [0.5, 0.5, 0.55]}}],
 "joints": [{"name": "thread", "type": "screw", "body1": "ground", "body2": "ram", "point": [0, 0, 0], "axis": [0, 1, 0], "lead": 0.005}],
 "drivers": [{"name": "handle", "joint": "thread", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}],
 "forces": [{"name": "load", "type": "body_force", "body": "ram", "point": [0, 0, 0], "vector": [0, -1000.0, 0]}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 4.0, "output_step": 0.01, "pace": 1.0}}
write(ex+'screw-jack.json', d)
# --- rack-and-pinion steering: a pinion moves the rack, tie rods (distance joints) turn the two wheels' knuckles
rs_ = 0.02
def wheel(name, x):
    return {"name": name, "density": 900.0, "position": [x, 0, 0], "orientation": [1, 0, 0, 0],
            "shape": {"type": "box", "size": [0.06, 0.24, 0.1], "color": [0.15, 0.15, 0.17]}}
def tie_rod(name, wheel_body, rack_end, arm_end):
    return {"name": name, "type": "distance", "body1": "rack", "body2": wheel_body,
            "point": [rack_end[0], rack_end[1], 0], "point2": [arm_end[0], arm_end[1], 0]}
d = {"format": "looplab-model", "version": 1, "name": "Rack-and-pinion steering",
 "description": ("Seen from above, the front axle of a car (track 1.2 m, forward is +y): the steering column's pinion (pitch radius 20 mm) moves the rack sideways, "
  "and two tie rods (distance joints, drawn as rods) pull the steering arms that turn the wheels about their kingpins. "
  "The pinion swings half a turn either way (a harmonic law, 0.5 Hz): turned anticlockwise it moves the rack 31.4 mm to the right (s = r theta) and both wheels steer right, "
  "the inner (right) wheel more, 18.4 degrees against 15.1: the steering arms lean outwards towards the rear axle, 1 m behind (a partial Ackermann geometry). "
  "Each side is a slider-crank loop closed through the rack: plot the two kingpins' angles against the rack's displacement. "
  "Four bodies (24 coordinates) less four joints (20), two tie rods, the mesh and the driver: no degree of freedom is left."),
 "gravity": [0, 0, 0],
 "bodies": [disc("pinion", (0, 0.1), rs_, [0.85, 0.25, 0.2]),
            {"name": "rack", "density": 7800.0, "position": [0, 0.07, -0.004], "orientation": [1, 0, 0, 0],
             "shape": {"type": "box", "size": [0.6, 0.02, 0.015], "color": [0.2, 0.45, 0.85]}},
            wheel("left wheel", -0.6), wheel("right wheel", 0.6)],
 "joints": [rev("steering shaft", "ground", "pinion", (0, 0.1)),
            {"name": "rack guide", "type": "prismatic", "body1": "ground", "body2": "rack", "point": [0, 0.07, 0], "axis": [1, 0, 0]},
            rev("left kingpin", "ground", "left wheel", (-0.6, 0)),
            rev("right kingpin", "ground", "right wheel", (0.6, 0)),
            tie_rod("left tie rod", "left wheel", (-0.3, 0.07), (-0.672, 0.12)),
            tie_rod("right tie rod", "right wheel", (0.3, 0.07), (0.672, 0.12))],
 "drivers": [{"name": "steering wheel", "joint": "steering shaft", "law": {"type": "harmonic", "amplitude": math.pi/2, "frequency": math.pi, "phase": 0.0, "offset": 0.0}}],
 "couplers": [{"name": "steering gear", "type": "rack_and_pinion", "joints": ["steering shaft", "rack guide"], "radius1": rs_}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 4.0, "output_step": 0.01, "pace": 1.0},
 "camera": {"position": [0, 0.02, 2], "focal_point": [0, 0.02, 0], "view_up": [0, 1, 0], "parallel": True, "parallel_scale": 0.45}}
write(ex+'rack-and-pinion-steering.json', d)
# --- bevel pair at right angles: a 40-tooth crown wheel about y drives a 20-tooth pinion about x
c45 = math.cos(math.pi/4)
d = {"format": "looplab-model", "version": 1, "name": "Bevel gears",
 "description": ("A bevel pair at right angles, as in a hand drill: the motor turns the large wheel (40 teeth) about the vertical axis once a second; "
  "the pinion (20 teeth) on the horizontal shaft turns twice as fast. The axes meet at the apex of the two pitch cones (half-angles 63.4 and 26.6 degrees, "
  "tan g = 20/40); the pitch circles are drawn at the cones' bases, 50 mm and 25 mm in radius, touching where the cones roll on each other. "
  "Plot the two shafts' angles: the ratio is 2 exactly, the pinion turning one way seen from its end when the wheel turns the other seen from above."),
 "gravity": [0, 0, 0],
 "bodies": [{"name": "wheel", "density": 7800.0, "position": [0, 0.025, 0], "orientation": [c45, -c45, 0, 0],
             "shape": {"type": "cylinder", "radius": 0.045, "length": 0.006, "color": [0.85, 0.25, 0.2]}},
            {"name": "pinion", "density": 7800.0, "position": [0.05, 0, 0], "orientation": [c45, 0, c45, 0],
             "shape": {"type": "cylinder", "radius": 0.02, "length": 0.006, "color": [0.2, 0.45, 0.85]}}],
 "joints": [{"name": "wheel shaft", "type": "revolute", "body1": "ground", "body2": "wheel", "point": [0, 0.025, 0], "axis": [0, 1, 0]},
            {"name": "pinion shaft", "type": "revolute", "body1": "ground", "body2": "pinion", "point": [0.05, 0, 0], "axis": [1, 0, 0]}],
 "drivers": [{"name": "motor", "joint": "wheel shaft", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}],
 "couplers": [{"name": "bevel mesh", "type": "gear", "joints": ["wheel shaft", "pinion shaft"], "teeth1": 40, "teeth2": 20}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 3.0, "output_step": 0.01, "pace": 1.0},
 "camera": {"position": [0.25, 0.2, 0.3], "focal_point": [0.02, 0.01, 0], "view_up": [0, 1, 0], "parallel": False}}
write(ex+'bevel-gears.json', d)
