#!/usr/bin/env python3
"""Runs every shipped example with two builds of looplab-cli and compares the final states.

A change that restructures code without meaning to change a result is checked with it:

    scripts/compare-final-states.py OLD/looplab-cli NEW/looplab-cli [--t-end T] [--tolerance 1e-12]
                                    [--modes]

Each example runs with its own `run` block (method, integrator, tolerances, end time; with
--t-end, that span instead, for a quicker check). Every number under `final` in the JSON
(bodies, nodes, joint coordinates and reactions, driver efforts) and the step count are
compared; a difference above the tolerance, relative to the largest magnitude of that
quantity in the two runs (at least 1), fails. Prints one line per example and exits 1 if
any differs or either build fails where the other does not.

With --modes, each example's `looplab-cli modes --json` (the static equilibrium and six
modes about it) is compared instead: every number of the report (equilibrium, frequencies,
shapes, multipliers, residuals, condition estimates, counts of iterations and operations)
but its times (`timings`, keys ending in `_s`), with the same tolerance.
"""

import argparse
import json
import pathlib
import subprocess
import sys


def run(cli, model, t_end, modes=False):
    args = [cli, "simulate", str(model), "--json"]
    if modes:
        args = [cli, "modes", str(model), "--json"]
    elif t_end is not None:
        args += ["--t-end", str(t_end)]
    out = subprocess.run(args, capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"ok": False, "error": (out.stderr or out.stdout).strip()[:300]}


def numbers(value, path=""):
    """(path, number) for every number in a JSON value, in document order."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, (int, float)):
        yield path, float(value)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from numbers(v, f"{path}/{i}")
    elif isinstance(value, dict):
        for k in sorted(value):
            if k != "timings" and not k.endswith("_s"):  # times differ from run to run
                yield from numbers(value[k], f"{path}/{k}")


def largest_difference(a, b):
    """The largest scaled difference between two `final` objects and where, or None if
    their shapes differ."""
    na, nb = list(numbers(a)), list(numbers(b))
    if [p for p, _ in na] != [p for p, _ in nb]:
        return None
    worst, where = 0.0, ""
    for (path, x), (_, y) in zip(na, nb):
        d = abs(x - y) / max(1.0, abs(x), abs(y))
        if d > worst:
            worst, where = d, path
    return worst, where


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--t-end", type=float, default=None, help="simulate this span instead of each model's t_end")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--modes", action="store_true", help="compare the modes reports instead of the runs")
    parser.add_argument("--examples", default=str(pathlib.Path(__file__).resolve().parent.parent / "resources" / "examples"))
    args = parser.parse_args()

    failed = False
    for model in sorted(pathlib.Path(args.examples).glob("*.json")):
        a, b = run(args.old, model, args.t_end, args.modes), run(args.new, model, args.t_end, args.modes)
        if args.modes:
            # A model without modes (no degree of freedom, or a failure) must fail alike.
            result = largest_difference(a, b)
            if result is None:
                print(f"DIFFERS  {model.name}: the reports have different fields")
                failed = True
                continue
            worst, where = result
            bad = worst > args.tolerance or a.get("message") != b.get("message")
            failed |= bad
            print(f"{'DIFFERS' if bad else 'same'}  {model.name}: largest difference {worst:.3g}"
                  f"{' at ' + where if where else ''}; {len(a.get('modes', []))} modes"
                  f"{'' if a.get('ok', True) else ' (not ok: ' + str(a.get('message', a.get('error', '')))[:80] + ')'}")
            continue
        if not a.get("ok") or not b.get("ok"):
            same = a.get("ok") == b.get("ok") and a.get("error") == b.get("error")
            print(f"{'same' if same else 'DIFFERS'}  {model.name}: old {a.get('ok')} {a.get('error', '')!r}; "
                  f"new {b.get('ok')} {b.get('error', '')!r}")
            failed |= not same
            continue
        result = largest_difference(a["final"], b["final"])
        if result is None:
            print(f"DIFFERS  {model.name}: the final states have different fields")
            failed = True
            continue
        worst, where = result
        steps = (a.get("steps"), b.get("steps"))
        bad = worst > args.tolerance or steps[0] != steps[1]
        failed |= bad
        print(f"{'DIFFERS' if bad else 'same'}  {model.name}: largest difference {worst:.3g}"
              f"{' at ' + where if where else ''}; steps {steps[0]} / {steps[1]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
