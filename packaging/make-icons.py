"""Draws LoopLab's icon (a four-bar linkage on its two ground pivots) as SVG and as the PNG
sizes desktop menus use. Run with Debian's python3 (matplotlib); the outputs are committed."""
import os
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyBboxPatch

here = os.path.dirname(os.path.abspath(__file__))


def draw():
    fig = plt.figure(figsize=(1, 1), dpi=100)
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    ax.add_patch(FancyBboxPatch((0.04, 0.04), 0.92, 0.92, boxstyle="round,pad=0,rounding_size=0.18",
                                facecolor="#1f3b57", edgecolor="none"))
    a, b = (0.24, 0.26), (0.76, 0.26)      # ground pivots
    c, d = (0.30, 0.62), (0.70, 0.74)      # crank and rocker tips
    ax.plot([0.14, 0.86], [0.26, 0.26], color="#9fb3c8", lw=3, solid_capstyle="round")
    for p, q, col in ((a, c, "#f2a541"), (c, d, "#e4572e"), (b, d, "#76b041")):
        ax.plot([p[0], q[0]], [p[1], q[1]], color=col, lw=7, solid_capstyle="round")
    for p in (a, b, c, d):
        ax.add_patch(Circle(p, 0.045, facecolor="white", edgecolor="#1f3b57", lw=1.5, zorder=3))
    return fig


fig = draw()
fig.savefig(os.path.join(here, "icons", "looplab.svg"), transparent=True)
for size in (16, 22, 24, 32, 48, 64, 128, 256):
    fig.savefig(os.path.join(here, "icons", f"looplab-{size}.png"), dpi=size, transparent=True)
