#!/usr/bin/env python3
"""Checks that the core's areas depend on each other in one order.

Each area of the core (core/include/looplab/<area>/ and core/src/<area>/) may include the
headers of the areas before it in AREA_ORDER and of no area after it, so no two areas
include each other and the order docs/architecture.md gives is the true one. The check also
fails when an area is missing from the order (a new folder must be given its place), when
the area table of docs/architecture.md lists the areas in another order, when the core
includes Qt, VTK or anything of ui/ or app/, and when a folder of ui/ other than
ui/workbench/ includes ui/workbench/ (the window: what features share lives in folders of
its own).

    check-include-order.py [--self-test] [REPOSITORY]
        checks a checkout (default: this one); --self-test first shows on a made-up tree
        that a backward include, a feature folder's include of ui/workbench/ and an
        unplaced area are caught (CTest runs both)

Exits 0 when every include respects the order, 1 with one line per problem.
"""

import os
import re
import sys
import tempfile

# Lowest first. Keep in step with the area table of docs/architecture.md.
AREA_ORDER = [
    "common",
    "bodies",
    "model",
    "linalg",
    "kinematics",
    "forces",
    "posing",
    "dynamics",
    "integrate",
    "simulation",
    "files",
    "scene",
    "sketch",
    "analysis",
    "exchange",
    "study",
]

PUBLIC_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]looplab/([A-Za-z_]+)/')
# Private headers of core/src are included by their path below core/src ("files/JsonLocator.h").
PRIVATE_INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z_]+)/')
FOREIGN_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](Q[A-Za-z]+|qt[A-Za-z]*/|vtk|ui/|app/|looplab/ui/)')

ARCHITECTURE_ROW = re.compile(r"^\| `([a-z_]+)` \|")
WORKBENCH_INCLUDE = re.compile(r'^\s*#\s*include\s*"workbench/')


def source_lines(root):
    """(top folder below root, path, line number, line) of every .h and .cpp file in the
    folders below root (files directly in root are left out)."""
    for folder, _, names in os.walk(root):
        relative = os.path.relpath(folder, root)
        if relative == ".":
            continue
        for name in sorted(names):
            if name.endswith((".h", ".cpp")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as source:
                    for number, line in enumerate(source, 1):
                        yield relative.split(os.sep)[0], path, number, line


def check_ui(repo):
    """Includes of ui/workbench/ from the other folders of ui/."""
    problems = []
    ui = os.path.join(repo, "ui")
    if not os.path.isdir(ui):
        return problems
    for folder, path, number, line in source_lines(ui):
        if folder != "workbench" and WORKBENCH_INCLUDE.match(line):
            problems.append(f"{os.path.relpath(path, repo)}:{number}: ui/{folder} includes ui/workbench/ (the "
                            f"window); what features share belongs in a folder of its own")
    return problems


def area_roots(repo):
    return [os.path.join(repo, "core", "include", "looplab"), os.path.join(repo, "core", "src")]


def check(repo):
    problems = []
    rank = {area: i for i, area in enumerate(AREA_ORDER)}
    for root in area_roots(repo):
        if not os.path.isdir(root):
            problems.append(f"{root}: missing")
            continue
        for area in sorted(os.listdir(root)):
            if os.path.isdir(os.path.join(root, area)) and area not in rank:
                problems.append(f"{os.path.join(root, area)}: area '{area}' has no place in AREA_ORDER "
                                f"(scripts/check-include-order.py and docs/architecture.md)")
        for area, path, number, line in source_lines(root):
            if area not in rank:
                continue
            where = f"{os.path.relpath(path, repo)}:{number}"
            if FOREIGN_INCLUDE.match(line):
                problems.append(f"{where}: the core includes {line.strip()[9:]}, which is not the core's")
                continue
            match = PUBLIC_INCLUDE.match(line) or PRIVATE_INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            if target == area or target not in rank:
                continue
            if rank[target] > rank[area]:
                problems.append(f"{where}: '{area}' includes '{target}', which comes after it "
                                f"({' < '.join(AREA_ORDER)})")
    problems += check_ui(repo)
    architecture = os.path.join(repo, "docs", "architecture.md")
    if os.path.exists(architecture):
        with open(architecture, encoding="utf-8") as text:
            listed = [m.group(1) for m in map(ARCHITECTURE_ROW.match, text) if m]
        listed = [area for area in listed if area in rank or area in AREA_ORDER]
        if listed != AREA_ORDER:
            problems.append(f"{architecture}: the area table lists {', '.join(listed)}; "
                            f"the order is {', '.join(AREA_ORDER)}")
    return problems


def self_test():
    """A tree with one backward include must fail, and the same tree without it pass."""
    with tempfile.TemporaryDirectory() as repo:
        for area in AREA_ORDER:
            os.makedirs(os.path.join(repo, "core", "include", "looplab", area))
            os.makedirs(os.path.join(repo, "core", "src", area))
        header = os.path.join(repo, "core", "include", "looplab", "model", "Model.h")
        source = os.path.join(repo, "core", "src", "bodies", "Beam.cpp")
        with open(header, "w") as f:
            f.write('#pragma once\n#include "looplab/bodies/Beam.h"\n')
        with open(source, "w") as f:
            f.write('#include "looplab/bodies/Beam.h"\n')
        clean = check(repo)
        if clean:
            print("self-test: a tree in order was refused:", *clean, sep="\n  ")
            return 1
        with open(source, "a") as f:
            f.write('#include "looplab/model/Model.h"\n')
        caught = check(repo)
        if len(caught) != 1 or "'bodies' includes 'model'" not in caught[0] or ":2:" not in caught[0]:
            print("self-test: the backward include bodies -> model was not reported alone:",
                  *caught, sep="\n  ")
            return 1
        os.makedirs(os.path.join(repo, "ui", "plotting"))
        os.makedirs(os.path.join(repo, "ui", "workbench"))
        with open(os.path.join(repo, "ui", "workbench", "MainWindow.cpp"), "w") as f:
            f.write('#include "plotting/Chart.h"\n')
        with open(os.path.join(repo, "ui", "plotting", "Chart.cpp"), "w") as f:
            f.write('#include "plotting/Chart.h"\n#include "workbench/MainWindow.h"\n')
        feature = [p for p in check(repo) if "ui/plotting includes ui/workbench/" in p]
        if len(feature) != 1 or "Chart.cpp:2:" not in feature[0]:
            print("self-test: a feature folder's include of ui/workbench/ was not reported alone:", *feature,
                  sep="\n  ")
            return 1
        os.remove(os.path.join(repo, "ui", "plotting", "Chart.cpp"))
        os.makedirs(os.path.join(repo, "core", "src", "extras"))
        unplaced = check(repo)
        if not any("area 'extras' has no place" in p for p in unplaced):
            print("self-test: an area missing from the order was not reported")
            return 1
    print("self-test: a backward include, a feature's include of ui/workbench/ and an unplaced area are "
          "reported; a tree in order passes")
    return 0


def main(argv):
    args = argv[1:]
    if "--self-test" in args:
        args.remove("--self-test")
        if self_test() != 0:
            return 1
    repo = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(os.path.abspath(repo))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) with the include order (docs/architecture.md)")
        return 1
    print(f"the core's {len(AREA_ORDER)} areas include only areas before them: "
          + " < ".join(AREA_ORDER) + "; no folder of ui/ but workbench/ includes ui/workbench/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
