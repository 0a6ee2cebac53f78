#!/usr/bin/env python3
# Writes the demonstration linkages of resources/examples/demonstrations.md from their
# dimensions: joint points, body poses and (for the coasting four-bars) velocities exact
# to rounding, each bar 2 kg/m with the inertia of its box.
import json, math, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "examples") + "/"
RHO = 2.0  # kg per metre of bar
W = 0.02

def bar(name, p1, p2, color, width=W, mass=None):
    dx, dy = p2[0]-p1[0], p2[1]-p1[1]
    L = math.hypot(dx, dy); phi = math.atan2(dy, dx)
    m = mass if mass is not None else RHO*L
    return {"name": name, "mass": m,
            "inertia": [m*(width**2+width**2)/12, m*(L**2+width**2)/12, m*(L**2+width**2)/12],
            "position": [(p1[0]+p2[0])/2, (p1[1]+p2[1])/2, 0.0],
            "orientation": [math.cos(phi/2), 0.0, 0.0, math.sin(phi/2)],
            "shape": {"type": "box", "size": [L, width, width], "color": color}}

def block(name, c, phi, size, m, color):
    a, b, h = size
    return {"name": name, "mass": m,
            "inertia": [m*(b*b+h*h)/12, m*(a*a+h*h)/12, m*(a*a+b*b)/12],
            "position": [c[0], c[1], 0.0],
            "orientation": [math.cos(phi/2), 0.0, 0.0, math.sin(phi/2)],
            "shape": {"type": "box", "size": list(size), "color": color}}

def rev(name, b1, b2, p):
    return {"name": name, "type": "revolute", "body1": b1, "body2": b2, "point": [p[0], p[1], 0.0], "axis": [0, 0, 1]}

def four_bar_pose(A, D, a, b, c, theta, left=True):
    B = (A[0]+a*math.cos(theta), A[1]+a*math.sin(theta))
    BD = (D[0]-B[0], D[1]-B[1]); d = math.hypot(*BD); u = (BD[0]/d, BD[1]/d)
    x = (b*b - c*c + d*d)/(2*d); h = math.sqrt(b*b - x*x); s = 1 if left else -1
    C = (B[0]+x*u[0]-s*h*u[1], B[1]+x*u[1]+s*h*u[0])
    return B, C

RED, BLUE, GREEN, GREY, ORANGE = [0.85,0.25,0.2], [0.2,0.45,0.85], [0.25,0.7,0.35], [0.55,0.55,0.6], [0.9,0.6,0.15]

def write(fname, doc):
    with open(OUT+fname, "w") as f:
        json.dump(doc, f, indent=2); f.write("\n")

def set_consistent_velocities(doc, A, D, a, b, c, theta0, omega):
    """Every body's velocity from the crank's rate omega, by central differences of the
    closed-form pose (so the projection of the initial velocities changes nothing)."""
    h = 1e-6
    def frames(th):
        B, C = four_bar_pose(A, D, a, b, c, th, left=True)
        out = []
        for p1, p2 in ((A, B), (B, C), (D, C)):
            out.append(((p1[0]+p2[0])/2, (p1[1]+p2[1])/2, math.atan2(p2[1]-p1[1], p2[0]-p1[0])))
        return out
    fp, fm = frames(theta0 + h), frames(theta0 - h)
    for body, p, m in zip(doc["bodies"], fp, fm):
        dphi = (p[2] - m[2] + math.pi) % (2*math.pi) - math.pi
        body["velocity"] = [(p[0]-m[0])/(2*h)*omega, (p[1]-m[1])/(2*h)*omega, 0.0]
        body["angular_velocity"] = [0.0, 0.0, dphi/(2*h)*omega]

def four_bar_doc(name, desc, A, D, a, b, c, theta0, gravity, extra_bodies=None):
    B, C = four_bar_pose(A, D, a, b, c, theta0, left=True)
    bodies = [bar("crank", A, B, RED), bar("coupler", B, C, BLUE), bar("rocker", D, C, GREEN)]
    joints = [rev("A", "ground", "crank", A), rev("B", "crank", "coupler", B),
              rev("C", "coupler", "rocker", C), rev("D", "ground", "rocker", D)]
    return {"format": "looplab-model", "version": 1, "name": name, "description": desc,
            "gravity": gravity, "bodies": bodies, "joints": joints}, B, C

# --- crank-rocker with a coupler point ---------------------------------------------------
A, D = (0.0, 0.0), (0.4, 0.0)
a, b, c = 0.1, 0.3, 0.35
along, across = 0.15, 0.12
doc, B, C = four_bar_doc("Crank-rocker with a coupler point",
    "Grashof crank-rocker (ground 0.40 m, crank 0.10 m, coupler 0.30 m, rocker 0.35 m) driven at one turn per second. "
    "The marker 'coupler-point' sits 0.15 m along the coupler from the crank pin and 0.12 m to its left: trace it to draw the coupler curve.",
    A, D, a, b, c, math.pi/2, [0, -9.81, 0])
phi = math.atan2(C[1]-B[1], C[0]-B[0])
# Marker in the coupler's body frame (origin at the bar's middle, x along BC).
doc["markers"] = [{"name": "coupler-point", "body": "coupler", "position": [along - b/2, across, 0.0]}]
doc["drivers"] = [{"name": "motor", "joint": "A", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}]
doc["expected"] = {"dof": 0, "redundant": 3}
write("crank-rocker-coupler-curve.json", doc)

# --- Grashof and non-Grashof, coasting --------------------------------------------------
doc, B, C = four_bar_doc("Grashof four-bar (crank-rocker), coasting",
    "Grashof four-bar: ground 0.40 m, input 0.10 m, coupler 0.35 m, rocker 0.30 m; s + l = 0.50 m < p + q = 0.65 m with the shortest link "
    "next to the ground, so the input link turns fully (a crank). No gravity and no driver: started with the input turning at 6 rad/s (the other links' velocities to match), it keeps turning round.",
    A, D, 0.10, 0.35, 0.30, math.pi/2, [0, 0, 0])
set_consistent_velocities(doc, A, D, 0.10, 0.35, 0.30, math.pi/2, 6.0)
doc["expected"] = {"dof": 1, "redundant": 3}
write("grashof-four-bar.json", doc)

doc, B, C = four_bar_doc("Non-Grashof four-bar (triple rocker), coasting",
    "Non-Grashof four-bar: ground 0.40 m, input 0.28 m, coupler 0.35 m, rocker 0.30 m; s + l = 0.68 m > p + q = 0.65 m, so no link turns fully. "
    "No gravity and no driver: started with the input turning at 6 rad/s (the other links' velocities to match), the input link swings between its limit angles of +/-145.3 degrees, where coupler and rocker lie in line.",
    A, D, 0.28, 0.35, 0.30, 0.0, [0, 0, 0])
set_consistent_velocities(doc, A, D, 0.28, 0.35, 0.30, 0.0, 6.0)
doc["expected"] = {"dof": 1, "redundant": 3}
write("non-grashof-four-bar.json", doc)

# --- quick-return (crank and slotted lever) ---------------------------------------------
O2, O4, r, lever = (0.0, 0.2), (0.0, 0.0), 0.1, 0.35
th = 0.0
Apt = (O2[0]+r*math.cos(th), O2[1]+r*math.sin(th))
phi = math.atan2(Apt[1]-O4[1], Apt[0]-O4[0])
tip = (O4[0]+lever*math.cos(phi), O4[1]+lever*math.sin(phi))
bodies = [bar("crank", O2, Apt, RED),
          block("block", Apt, phi, (0.05, 0.03, 0.03), 0.1, ORANGE),
          bar("lever", O4, tip, GREEN, width=0.015)]
u = [math.cos(phi), math.sin(phi), 0.0]
joints = [rev("O2", "ground", "crank", O2), rev("A", "crank", "block", Apt),
          {"name": "slot", "type": "prismatic", "body1": "lever", "body2": "block", "point": [Apt[0], Apt[1], 0.0], "axis": u},
          rev("O4", "ground", "lever", O4)]
write("quick-return.json", {"format": "looplab-model", "version": 1, "name": "Quick-return mechanism (crank and slotted lever)",
    "description": "Crank 0.10 m turning about O2, 0.20 m above the slotted lever's pivot O4; the block on the crank pin slides in the lever. "
                   "The lever swings +/-30 degrees (sin 30 deg = 0.10/0.20); its forward swing takes 240 degrees of crank turn and its return 120: "
                   "a time ratio of 2. Driven at one turn per second.",
    "gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints,
    "drivers": [{"name": "motor", "joint": "O2", "law": {"type": "constant_velocity", "initial": 0.0, "rate": 2*math.pi}}],
    "expected": {"dof": 0, "redundant": 3}})

# --- toggle clamp (push type: crank, link, plunger) -------------------------------------
r, l = 0.06, 0.12
th0 = -0.6
O = (0.0, 0.0)
P = (r*math.cos(th0), r*math.sin(th0))
xs = r*math.cos(th0) + math.sqrt(l*l - (r*math.sin(th0))**2)
S = (xs, 0.0)
bodies = [bar("handle", O, P, RED, width=0.025), bar("link", P, S, BLUE),
          block("plunger", (xs + 0.04, 0.0), 0.0, (0.08, 0.03, 0.03), 0.2, GREY)]
joints = [rev("O", "ground", "handle", O), rev("P", "handle", "link", P), rev("S", "link", "plunger", S),
          {"name": "guide", "type": "prismatic", "body1": "ground", "body2": "plunger", "point": [S[0], S[1], 0.0], "axis": [1, 0, 0]}]
over = math.radians(10.0)
write("toggle-clamp.json", {"format": "looplab-model", "version": 1, "name": "Toggle clamp passing its dead centre",
    "description": "Push-type toggle clamp: handle 0.06 m about O, link 0.12 m to a plunger sliding along x. The handle is turned from -34.4 degrees "
                   "through the dead centre (handle and link in line, plunger fully out at 0.18 m) to 10 degrees beyond it, where a stop would "
                   "hold it: the clamping force then pushes the handle against the stop instead of opening the clamp.",
    "gravity": [0, -9.81, 0], "bodies": bodies, "joints": joints,
    "drivers": [{"name": "handle drive", "joint": "O", "law": {"type": "smooth_step", "t0": 0.0, "h0": 0.0, "t1": 1.0, "h1": -th0 + over}}],
    "expected": {"dof": 0, "redundant": 3}})
