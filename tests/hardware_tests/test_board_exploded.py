"""The exploded assembly drawing: every part a maker cuts or prints, drawn
from its solid, pulled apart along the height in the order it goes together,
and named as the parts list (hardware/bom.csv) names it."""

import csv
import io
import re

import pytest

from host_tools.hardware.cad import bom, params
from hardware_tests.cadfiles import cad_libraries


@pytest.fixture(scope="module")
def drawing(tmp_path_factory):
    from host_tools.hardware.cad import generate as cadgen
    cad_libraries()
    out = tmp_path_factory.mktemp("exploded")
    written = cadgen.write_all(out=str(out))
    assert "hardware/cad/exploded.svg" in written
    return (out / "hardware" / "cad" / "exploded.svg").read_text()


def solid_parts():
    """The BOM's rows made from the generated files (cut or printed), by the
    name before the first comma of their description."""
    rows = csv.DictReader(io.StringIO(bom.render_csv(params.load())))
    return [r["description"].split(",")[0] for r in rows
            if "hardware/cad/" in r["mpn"] + r["notes"]]


def test_every_solid_part_of_the_bom_is_drawn_and_named(drawing):
    names = solid_parts()
    assert len(names) >= 8                     # 5 panels, the diffuser, 2 pieces at least
    labels = re.findall(r'<text class="label"[^>]*>([^<]+)</text>', drawing)
    for name in names:
        assert labels.count(name) == 1, (name, labels)
        group = re.search(r'<g class="part" data-name="%s">(.*?)</g>' % re.escape(name),
                          drawing, re.S)
        assert group, name
        assert group.group(1).count("<polyline") >= 4, name     # drawn from its solid


def test_the_parts_are_pulled_apart_in_the_order_they_go_together(drawing):
    """Bottom of the page to the top: cover, walls, bottom panel, frame,
    diffuser, top panel, pieces."""
    order = ["Cover panel", "Walls panel", "Bottom panel", "Frame panel",
             "Diffuser strips for the LED windows", "Top panel"]
    ys = []
    for name in order:
        m = re.search(r'<text class="label" x="[-\d.]+" y="([-\d.]+)"[^>]*>%s</text>'
                      % re.escape(name), drawing)
        ys.append(float(m.group(1)))
    assert ys == sorted(ys, reverse=True), list(zip(order, ys))
