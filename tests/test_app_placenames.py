"""Place names never overlap on the map: each is drawn at one of several spots around its hex, chosen by
one greedy pass, most important places first (app/placenames.py; pytest-qt, offscreen)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRectF, QSize  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402

from app import geometry as geo, theme  # noqa: E402

pytestmark = pytest.mark.gui

CLOSE = 15          # the names' size in scene units from zoom 0.5 in (MapView)


@pytest.fixture
def scene(qtbot):
    from app.mapview import MapScene

    return MapScene({"names": True})


@pytest.fixture
def board(scene):
    return scene.board


def rect(box) -> QRectF:
    left, top, right, bottom = box
    return QRectF(left, top, right - left, bottom - top)


def overlaps(rects: dict[str, QRectF]) -> list[tuple[str, str]]:
    names = sorted(rects)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if rects[a].intersects(rects[b])]


def painted(board, px: int) -> dict[str, QRectF]:
    """Paint every name at size ``px`` and return the bounding rect of what was drawn (letters and halo)."""
    img = QImage(QSize(64, 64), QImage.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    board._paint_names(p, geo.extent(), 1.0 if px == CLOSE else 11 / px)
    p.end()
    out = {}
    for n in board.name_layout(px):
        path, ring = board._name_cache[(n.name, px)]
        r = (ring if ring is not None else path).boundingRect()
        out[n.label] = r.translated(n.left + n.width / 2, n.baseline)
    return out


def test_no_two_place_names_overlap_anywhere_on_the_map(board):
    layout = board.name_layout(CLOSE)
    # close in, every name of the map is shown ...
    assert {n.label for n in layout} == set(board.info.names) and len(layout) > 50
    # ... and no two of their boxes (text and halo) intersect
    assert overlaps({n.label: rect(n.box) for n in layout}) == []
    # nor do the letters and halos actually drawn
    drawn = painted(board, CLOSE)
    assert overlaps(drawn) == []
    for n in layout:       # each box holds what is drawn
        assert rect(n.box).adjusted(-1, -1, 1, 1).contains(drawn[n.label]), n.name


def test_marble_arch_and_ras_es_ali_are_drawn_apart(board):
    """The three named hexes in a row on the Libyan coast: before, the names ran into each other."""
    names = board.info.names
    by_name = {v: k for k, v in names.items()}
    ma, rea, rl = by_name["Marble Arch"], by_name["Ras es Ali"], by_name["Ras Lanuf"]
    assert {geo.rec_of(ma).hex.distance(geo.rec_of(x).hex) for x in (rea, rl)} == {1}
    layout = {n.label: n for n in board.name_layout(CLOSE)}
    boxes = {lab: rect(layout[lab].box) for lab in (ma, rea, rl)}
    assert not boxes[ma].intersects(boxes[rea]) and not boxes[ma].intersects(boxes[rl])
    assert not boxes[rea].intersects(boxes[rl])
    drawn = painted(board, CLOSE)
    assert not drawn[ma].intersects(drawn[rea]) and not drawn[ma].intersects(drawn[rl])
    # each name stays next to its own hex: its box touches the hex's neighbourhood (within a hex of the centre)
    for lab in (ma, rea, rl):
        rec = geo.rec_of(lab)
        assert boxes[lab].intersects(QRectF(rec.x - geo.W, rec.y - geo.R, 2 * geo.W, 2 * geo.R))
    # Marble Arch (a town with an airfield) is placed first and keeps the usual spot under its hex
    assert layout[ma].spot == "below" and layout[rea].spot != "below"


def test_far_out_names_do_not_overlap_either_and_the_cities_stay(board):
    """Far out the letters are many hexes wide: minor names with no free spot are left out, never the cities."""
    cities = {lab for lab, f in board.info.features.items() if "city" in f and lab in board.info.names}
    assert cities
    for px in (20, 27, 46, 110):
        layout = board.name_layout(px)
        assert overlaps({n.label: rect(n.box) for n in layout}) == [], px
        assert cities <= {n.label for n in layout}, px
    assert overlaps(painted(board, 46)) == []


def test_the_layout_is_deterministic_and_prefers_the_usual_spot():
    from app import placenames

    def width(name: str) -> float:
        return 8.0 * len(name)

    a, b = geo.rec_of("S0931"), geo.rec_of("S0932")
    far = geo.rec_of("C0710")
    places = [("S0932", b.x, b.y, "Ras es Ali", {"town"}), ("S0931", a.x, a.y, "Marble Arch", {"town", "airfield"}),
              ("C0710", far.x, far.y, "Nowhere", set())]
    one = placenames.layout(places, width, 12.0, 3.0, pad=2.0)
    two = placenames.layout(list(reversed(places)), width, 12.0, 3.0, pad=2.0)
    assert one == two
    spots = {n.name: n.spot for n in one}
    # the town with the airfield first, the lone name keeps its usual spot
    assert [n.name for n in one][:2] == ["Marble Arch", "Ras es Ali"] and spots["Nowhere"] == "below"
    assert spots["Marble Arch"] == "below" and spots["Ras es Ali"] != "below"
    assert not rect(one[0].box).intersects(rect(one[1].box))


def test_the_map_view_draws_the_names_where_the_layout_puts_them(qtbot, scene, board):
    """The map view offscreen, close in on Marble Arch: the names' ink shows inside their boxes."""
    from app.mapview import MapView

    view = MapView(scene)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.set_zoom(1.0)
    layout = {n.name: n for n in board.name_layout(CLOSE)}
    view.centerOn(rect(layout["Marble Arch"].box).center())
    img = view.viewport().grab().toImage()
    ink = QColor(theme.PLACE_INK)
    for name in ("Marble Arch", "Ras es Ali", "Ras Lanuf"):
        box = view.mapFromScene(rect(layout[name].box)).boundingRect()
        assert img.rect().contains(box), name
        dark = sum(1 for x in range(box.left(), box.right()) for y in range(box.top(), box.bottom())
                   if max(abs(img.pixelColor(x, y).red() - ink.red()), abs(img.pixelColor(x, y).green() - ink.green()),
                          abs(img.pixelColor(x, y).blue() - ink.blue())) < 30)
        assert dark > 40, name
