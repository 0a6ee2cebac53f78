#!/usr/bin/env python3
# Writes the examples of joint limits and stops (resources/examples/demonstrations.md,
# "Limits, stops and impacts")
# from their dimensions: a pendulum settling against a stop, a door swinging against its
# stop and shut by a closer, and Newton's cradle with restitution 1 and 0.9. Poses are
# exact to rounding, so assembly changes nothing.
import json, math, os
ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "examples") + "/"
def write(path, d):
    open(path, 'w').write(json.dumps(d, indent=2) + "\n")
def ball(name, x, y, r, mass, color, angle=0.0):
    i = 0.4 * mass * r * r
    return {"name": name, "mass": mass, "inertia": [i, i, i], "position": [x, y, 0.0],
            "orientation": [math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)],
            "shape": {"type": "sphere", "radius": r, "color": color}}

# --- a pendulum settling against a stop
stop = -1.2
d = {"format": "looplab-model", "version": 1, "name": "Pendulum settling against a stop",
 "description": ("A pendulum (1 kg bob, a ball of radius 0.05 m, 1 m from the pivot) is released from rest horizontal. Its revolute's limits are "
  "[-1.2, 1.0] rad from that start, so it meets the lower limit 1.2 rad below the horizontal, 0.37 rad before the bottom, and gravity keeps pressing it "
  "there. With restitution 0.5 each bounce leaves at half the speed it came in with and takes a quarter of the kinetic energy; the bounces get shorter "
  "and shorter (infinitely many in finite time), until one comes in slower than the plastic-impact speed (1e-3 sqrt(g L)) and the stop holds: "
  "the run reports each impact with its impulse and energy lost, then stop_engaged, and the pendulum rests on the stop. Plot energy and dissipated: "
  "their sum stays at the start's energy."),
 "gravity": [0, -9.81, 0],
 "bodies": [ball("bob", 1.0, 0.0, 0.05, 1.0, [0.85, 0.25, 0.2])],
 "joints": [{"name": "pivot", "type": "revolute", "body1": "ground", "body2": "bob", "point": [0, 0, 0], "axis": [0, 0, 1],
             "limits": [stop, 1.0], "restitution": 0.5}],
 "expected": {"dof": 1, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 4.0, "output_step": 0.01, "pace": 1.0},
 "camera": {"position": [0.2, -0.3, 3.5], "focal_point": [0.2, -0.3, 0], "view_up": [0, 1, 0], "parallel": False}}
write(ex + 'pendulum-against-stop.json', d)

# --- a door with a stop and a closer
m, w, h, t = 20.0, 0.8, 2.0, 0.04
d = {"format": "looplab-model", "version": 1, "name": "Door with a stop",
 "description": ("A door (20 kg, 0.8 m wide, 2 m tall, 40 mm thick) on a vertical hinge at its edge is pushed open at 3 rad/s. Its hinge's limits are "
  "[0, 1.6] rad: closed at 0 (the frame), the door stop at 1.6 rad (92 degrees). A door closer (a rotational spring of 2 N m/rad with 1 N m s/rad of "
  "damping, relaxed 0.5 rad beyond shut so that it still presses the door against the frame) slows it; it strikes the stop, rebounds with "
  "restitution 0.3, and the closer swings it shut against the frame, where it settles in a few ever shorter bounces and stays shut "
  "(stop_engaged). Gravity acts along the hinge and does no work."),
 "gravity": [0, -9.81, 0],
 "bodies": [{"name": "door", "mass": m,
             "inertia": [m / 12 * (h * h + t * t), m / 12 * (w * w + t * t), m / 12 * (w * w + h * h)],
             "position": [w / 2, h / 2, 0.0], "orientation": [1, 0, 0, 0],
             "velocity": [0.0, 0.0, -3.0 * w / 2], "angular_velocity": [0.0, 3.0, 0.0],
             "shape": {"type": "box", "size": [w, h, t], "color": [0.65, 0.45, 0.3]}}],
 "joints": [{"name": "hinge", "type": "revolute", "body1": "ground", "body2": "door", "point": [0, 0, 0], "axis": [0, 1, 0],
             "limits": [0.0, 1.6], "restitution": 0.3}],
 "forces": [{"name": "closer", "type": "rotational_spring_damper", "joint": "hinge", "stiffness": 2.0, "damping": 1.0,
             "free_angle": -0.5}],
 "expected": {"dof": 1, "redundant": 0},
 "run": {"method": "projection", "integrator": "dopri5", "t_end": 8.0, "output_step": 0.01, "pace": 1.0},
 "camera": {"position": [2.5, 3.0, 3.0], "focal_point": [0.2, 1.0, -0.2], "view_up": [0, 1, 0], "parallel": False}}
write(ex + 'door-with-stop.json', d)

# --- Newton's cradle
def cradle(e, name, path):
    r, L, mass, phi = 0.05, 0.5, 0.2, 0.5
    bodies, joints, stops = [], [], []
    centres = []
    for i in range(5):
        x = 2 * r * i
        if i == 0:
            cx, cy, a = x - L * math.sin(phi), L - L * math.cos(phi), -phi
        else:
            cx, cy, a = x, 0.0, 0.0
        centres.append((cx, cy))
        bodies.append(ball("ball%d" % (i + 1), cx, cy, r, mass, [0.75, 0.75, 0.8], a))
        joints.append({"name": "string%d" % (i + 1), "type": "revolute", "body1": "ground", "body2": "ball%d" % (i + 1),
                       "point": [x, L, 0.0], "axis": [0, 0, 1]})
    for i in range(4):
        stops.append({"name": "contact%d%d" % (i + 1, i + 2), "body1": "ball%d" % (i + 1), "body2": "ball%d" % (i + 2),
                      "point1": [centres[i][0], centres[i][1], 0.0], "point2": [centres[i + 1][0], centres[i + 1][1], 0.0],
                      "min": 2 * r, "restitution": e})
    text = ("Five steel balls (0.2 kg, radius 50 mm) hang touching in a row, each on a 0.5 m string (a revolute to the frame above it). "
            "The first is drawn aside by 0.5 rad and let go. A stop of min distance 0.1 m (the sum of the radii) between neighbours keeps them "
            "apart; its impacts are struck one after another along the row, so the momentum passes from ball to ball. ")
    if e == 1.0:
        text += ("With restitution 1 the last ball leaves with the first ball's speed and the others stay still; it swings up as high as the first "
                 "started, comes back and sends the first out again, for as long as the run goes (no energy is lost: dissipated stays 0).")
    else:
        text += ("With restitution 0.9 each impact keeps 81% of the approach's kinetic energy in the relative motion: the balls behind the front "
                 "one move a little after each strike, and the swing spreads over the row as the dissipated energy grows.")
    d = {"format": "looplab-model", "version": 1, "name": name, "description": text,
         "gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints, "stops": stops,
         "expected": {"dof": 5, "redundant": 0},
         "run": {"method": "projection", "integrator": "dopri5", "t_end": 5.0, "output_step": 0.005, "pace": 1.0},
         "camera": {"position": [0.2, 0.2, 2.0], "focal_point": [0.2, 0.15, 0], "view_up": [0, 1, 0], "parallel": True,
                    "parallel_scale": 0.5}}
    write(ex + path, d)
cradle(1.0, "Newton's cradle", "newtons-cradle.json")
cradle(0.9, "Newton's cradle, restitution 0.9", "newtons-cradle-lossy.json")
