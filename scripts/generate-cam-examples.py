#!/usr/bin/env python3
# Writes the cam examples of resources/examples/gears-and-drives.md from their dimensions:
# a disc cam with a translating roller follower on a cycloidal rise-dwell-return-dwell law,
# and one with a translating flat-faced follower on a 3-4-5 polynomial law. Masses follow
# from the shapes and densities.
import json, math, os
ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "examples") + "/"
def write(path, d):
    open(path, 'w').write(json.dumps(d, indent=2) + "\n")
def cam_body(radius, color):
    return {"name": "cam", "density": 7800.0, "position": [0, 0, -0.006], "orientation": [1, 0, 0, 0],
            "shape": {"type": "cylinder", "radius": radius, "length": 0.006, "color": color}}
def follower_body(y, length, width, color):
    return {"name": "follower", "density": 7800.0, "position": [0, y, 0], "orientation": [1, 0, 0, 0],
            "shape": {"type": "box", "size": [width, length, 0.006], "color": color}}
joints = [
    {"name": "camshaft", "type": "revolute", "body1": "ground", "body2": "cam", "point": [0, 0, 0], "axis": [0, 0, 1]},
    {"name": "guide", "type": "prismatic", "body1": "ground", "body2": "follower", "point": [0, 0.1, 0], "axis": [0, 1, 0]}]
motor = {"name": "motor", "joint": "camshaft", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2 * math.pi}}
# --- roller follower: base circle 40 mm, roller 12 mm, lift 25 mm
base, roller, lift = 0.040, 0.012, 0.025
prime = base + roller
d = {"format": "looplab-model", "version": 1, "name": "Cam with a roller follower",
 "description": ("A disc cam turns anticlockwise once a second (seen from +z; the law runs forward as the cam joint's angle grows) and lifts a roller follower 25 mm along a vertical guide: a cycloidal rise over 120 degrees, a dwell of 60, a cycloidal return over 120 and a dwell of 60 "
  "(base circle 40 mm, roller 12 mm). The cam's profile is drawn from the law, with the roller riding on it and a mark from the cam's axis. "
  "Plot the guide's displacement: it is the law, exactly (s = h(x - sin(2 pi x)/(2 pi)) on the rise). Plot the cam's contact force: gravity alone holds the follower down; "
  "the follower decelerates at most 2 pi h omega^2/beta^2 = 1.41 m/s^2 (at the end of the rise and the start of the return), less than g, so the force stays positive. Run the motor at 3 turns a second (rate 18.85) and the follower "
  "would need 12.7 m/s^2, more than gravity gives: the contact force turns negative near the top of the rise, the sign that a real follower would jump off (the model holds it on and says so). "
  "The pressure angle reaches 20.6 degrees in the rise (tan a = f'/(r + f), f the lift, r the prime circle's 52 mm)."),
 "gravity": [0, -9.81, 0],
 "bodies": [cam_body(base, [0.85, 0.55, 0.2]), follower_body(prime + 0.06, 0.12, 0.010, [0.25, 0.45, 0.85])],
 "joints": joints,
 "drivers": [motor],
 "couplers": [{"name": "cam contact", "type": "cam", "joints": ["camshaft", "guide"], "follower": "roller",
               "roller_radius": roller, "follower_point": [0, prime, 0],
               "law": [{"motion": "cycloidal", "angle": 120, "lift": lift}, {"motion": "dwell", "angle": 60},
                       {"motion": "cycloidal", "angle": 120, "lift": -lift}, {"motion": "dwell", "angle": 60}]}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 3.0, "output_step": 0.005, "pace": 1.0},
 "camera": {"position": [0, 0.06, 1], "focal_point": [0, 0.06, 0], "view_up": [0, 1, 0], "parallel": True, "parallel_scale": 0.13}}
write(ex + 'cam-roller-follower.json', d)
# --- flat-faced follower: base circle 50 mm, lift 20 mm
base, lift = 0.050, 0.020
d = {"format": "looplab-model", "version": 1, "name": "Cam with a flat-faced follower",
 "description": ("A disc cam turns anticlockwise once a second (seen from +z; the law runs forward as the cam joint's angle grows) under a flat-faced follower (a mushroom follower) on a vertical guide: a 3-4-5 polynomial rise of 20 mm over 150 degrees, "
  "a dwell of 30, the same return and a dwell of 30 (base circle 50 mm). The face touches the cam off the follower's axis, by f' = df/d(phi) (up to 14.3 mm here; the face is drawn that wide with a margin), "
  "so the pressure angle is zero but the guide feels a moment. The profile is convex wherever r + f + f'' > 0 (the support function's radius of curvature); "
  "`looplab-cli check` reports its smallest value. Plot the guide's displacement and the contact force; gravity holds the follower on the cam."),
 "gravity": [0, -9.81, 0],
 "bodies": [cam_body(base, [0.3, 0.65, 0.35]), follower_body(base + 0.06, 0.12, 0.008, [0.55, 0.35, 0.75])],
 "joints": joints,
 "drivers": [motor],
 "couplers": [{"name": "cam contact", "type": "cam", "joints": ["camshaft", "guide"], "follower": "flat_face",
               "follower_point": [0, base, 0],
               "law": [{"motion": "polynomial345", "angle": 150, "lift": lift}, {"motion": "dwell", "angle": 30},
                       {"motion": "polynomial345", "angle": 150, "lift": -lift}, {"motion": "dwell", "angle": 30}]}],
 "expected": {"dof": 0, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 3.0, "output_step": 0.005, "pace": 1.0},
 "camera": {"position": [0, 0.06, 1], "focal_point": [0, 0.06, 0], "view_up": [0, 1, 0], "parallel": True, "parallel_scale": 0.13}}
write(ex + 'cam-flat-follower.json', d)
