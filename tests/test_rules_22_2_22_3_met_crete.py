"""22.2.1 and 22.3, sentence by sentence, from rommels-war's set-up (32.0; MET SW Asia active at GT 11), tracks and
cards changed by hand where a sentence needs them:

* 22.2.1 "Ground and air units may not be deployed to the Pacific Track."
* "Axis air units may be deployed to the Greece Track on any GT it is active."
* "Axis air units may be deployed to the Syria, SW Asia and Levant Tracks after AXC-13 (Crete Garrison) is activated.
  Each air unit adds 1 to the situation DR."
* 22.3 "Crete becomes an Axis controlled area immediately." "AXC-13 (Crete Garrison) is activated." (put in play the
  GT after, 23.2 AXC-13)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS
from core.rules import air, events, met, offmap
from core.state import UnitState
from tests.playpath import Play


def start() -> Play:
    p = Play("rommels-war")
    p.to(step="II.1")
    assert met.track(p.eng, "SW Asia") and not met.track(p.eng, "Greece")
    return p


def test_22_2_1_no_deployment_to_the_pacific_track():
    p = start()
    met.activate_track(p.eng, "Pacific", "test")
    assert met.track(p.eng, "Pacific")
    assert met.track_box("Pacific") not in air.met_boxes(p.eng, ALLIED) + air.met_boxes(p.eng, AXIS)
    assert met.track_box("SW Asia") in air.met_boxes(p.eng, ALLIED)


def test_22_2_1_axis_air_to_greece_while_active_and_to_sw_asia_only_after_axc_13():
    p = start()
    assert air.met_boxes(p.eng, AXIS) == []                       # SW Asia active, AXC-13 not in play
    met.activate_track(p.eng, "Greece", "test")
    assert air.met_boxes(p.eng, AXIS) == [met.track_box("Greece")]
    events.put_in_play(p.eng, "AXC-13", "test")
    assert set(air.met_boxes(p.eng, AXIS)) == {met.track_box("Greece"), met.track_box("SW Asia")}


def test_22_2_1_each_axis_air_unit_on_sw_asia_adds_1_to_the_situation_dr():
    p = start()
    events.put_in_play(p.eng, "AXC-13", "test")
    base = sum(v for v, _ in met._drm(p.eng, "SW Asia"))
    for i, uid in enumerate(("GE-XFK", "IT-2AS")):
        p.state.units[uid] = UnitState(id=uid, side=AXIS, loc=met.track_box("SW Asia"))
        assert sum(v for v, _ in met._drm(p.eng, "SW Asia")) == base + i + 1


def test_22_3_crete_axis_controlled_when_greece_is_deactivated_and_axc_13_follows_the_gt_after():
    p = start()
    met.activate_track(p.eng, "Greece", "test")
    assert not offmap.crete_in_play(p.eng)
    met.deactivate(p.eng, "Greece")
    assert offmap.crete_in_play(p.eng)                            # "immediately"
    sched = [s for s in p.state.vars.get("card_schedule", []) if s["card"] == "AXC-13"]
    assert sched and sched[0]["gt"] == p.state.gt + 1 and sched[0]["what"] == "play"


def test_22_3_crete_becomes_axis_when_greece_is_deactivated_play_path():
    """The play-path twin of the test above: Desert War (28.0) played through ``Engine.apply``, the Axis declaring
    AXC-5 and the Allies ALC-12 when offered (5.0); ALC-16 (MET Greece) is put in play the GT after both were played
    and its track is deactivated at the end of GT 12 (R-MET-RANGES); from then Crete is Axis controlled (22.3
    "immediately") and AXC-13 is in play on GT 13 (ALC-16 f, 23.2 AXC-13 "the GT after")."""
    def play(d):
        return next((o.action for o in d.options
                     if o.action.kind == "play_card" and o.action.args.get("card") in ("AXC-5", "ALC-12")), None)

    p = Play("desert-war", seed=1)
    p.run(lambda e: e.state.cards["ALC-16"]["status"] == "in_play", script={"events": play})
    assert not offmap.crete_in_play(p.eng) and met.track(p.eng, "Greece")
    p.run(lambda e: offmap.crete_in_play(e), script={"events": play})
    g = p.state.vars["met"]["Greece"]
    assert not g["active"] and g["deactivated_gt"] == 12 and p.state.gt == 13
    assert events.status(p.eng, "AXC-13") == "in_play" and p.state.cards["AXC-13"]["played_gt"] == 13
