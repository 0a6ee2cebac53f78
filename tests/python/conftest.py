"""Where the suites find the built package, the command-line tool and the examples: CTest
sets LOOPLAB_PYTHON_PATH, LOOPLAB_CLI and LOOPLAB_SOURCE (python/CMakeLists.txt)."""

import os
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("LOOPLAB_SOURCE", Path(__file__).resolve().parents[2]))
if "LOOPLAB_PYTHON_PATH" in os.environ:
    sys.path.insert(0, os.environ["LOOPLAB_PYTHON_PATH"])


@pytest.fixture
def examples() -> Path:
    return SOURCE / "resources" / "examples"


@pytest.fixture
def cli() -> str:
    path = os.environ.get("LOOPLAB_CLI")
    if not path:
        pytest.fail("LOOPLAB_CLI is not set: run the suite through CTest")
    return path
