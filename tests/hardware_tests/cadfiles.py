"""What the CAD tests share: the cad extra, checked with a sentence, and the
board generated from the shipped board.json once a pitch for the whole run
(generating the solids is the slowest part of these tests)."""

import json
import os

import pytest

from host_tools.hardware.cad import generate as cadgen
from host_tools.hardware.cad import params
import paths


def shipped():
    """The shipped hardware/board.json."""
    with open(os.path.join(paths.ROOT, "hardware", "board.json"), encoding="utf-8") as f:
        return json.load(f)


def cad_libraries():
    """The cad extra: the test fails, saying what to install, without it."""
    import importlib
    for name in ("build123d", "ezdxf", "trimesh"):
        try:
            importlib.import_module(name)
        except ImportError:
            pytest.fail("%s is not installed: run scripts/test.sh, or pip install -e '.[cad]'"
                        % name)


@pytest.fixture(scope="session", params=[40, 30], ids=["pitch40", "pitch30"])
def made(request, tmp_path_factory):
    """The files generated from board.json at a pitch, into a temp folder;
    read only (every CAD test module shares them)."""
    cad_libraries()
    data = shipped()
    data["pitch"] = request.param
    out = tmp_path_factory.mktemp("cad%d" % request.param)
    path = out / "board.json"
    path.write_text(json.dumps(data))
    written = cadgen.write_all(out=str(out), board_path=str(path))
    return {"data": data, "out": out, "cad": out / "hardware" / "cad", "written": written,
            "board": params.Board(data)}
