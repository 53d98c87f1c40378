"""The real geography behind the six DFD hex maps, as shapely-ready data in latitude/longitude.

Everything here is *input* to ``resources/maps/build.py``; nothing at run time reads it.
Coordinates are ``(lat, lon)`` in decimal degrees (WGS84), written from general
geographic knowledge of North Africa (approximate: a few km is well under a hex,
which is 10 miles / 16 km, 2.2).  Hex labels (``"C0701"``) given as route waypoints
or place hexes are **authoritative**: they come from the rules (gazetteer) or are
rulings recorded in ``docs/rulings.d/maps.md``.

Conventions
-----------
* ``PLACES``: named points.  A place with a rules hex (``source="rules"``) is an
  anchor of the least-squares fit of its map's (row, column) <-> (lat, lon)
  transform; a place with ``hex=None`` is put on the hex nearest its lat/lon.
* ``REGIONS``: in-hex terrain polygons, painted on land hexes in list order (later
  wins) by the hex centre.  Default land terrain is ``desert``.
* ``HEXSIDE_LINES``: escarpments, wadis, ridges.  A hexside gets the terrain when
  the line crosses the segment joining the two hex centres.
* ``ROUTES``: roads, tracks and railways as waypoint lists; a waypoint is a hex
  label (exact) or a ``(lat, lon)`` (snapped to the nearest hex); consecutive
  waypoints are joined by a straight hex line.
* ``AREAS``: polygons that flag hexes (French North Africa 2.2.4, the winter and
  temperate/desert lines of Map T 6.3/21.1).
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------
# Named places.  port = (standard boxes, limited boxes) (20.1); airfield: "N" marks a
# Cyrenaica naval airfield (19.1.3), "Y" an ordinary airfield; fort: printed fort level.
# --------------------------------------------------------------------------------------
R = "rules"
X = "reconstructed"

PLACES: list[dict] = [
    # ---- Map L (Libya / Tripolitania) ----
    dict(name="Tripoli", hex="L2817", lat=32.89, lon=13.19, kind="city", port=(4, 2), airfield="Y", source=R,
         reason="25.3, 30.1, EoP: port and Axis primary base; capacity >= 3 is needed for a primary base (12.2.4)"),
    dict(name="Homs", hex="L2624", lat=32.65, lon=14.26, kind="town", port=(0, 1), source=R, reason="EoP start hex"),
    dict(name="Misurata", hex="L2429", lat=32.38, lon=15.09, kind="town", port=(0, 1), airfield="Y", source=R,
         reason="EoP start hex"),
    dict(name="Beurat", hex="L1633", lat=31.41, lon=15.73, kind="town", port=(0, 1), source=R,
         reason="31.1, EoP: west end of the 23 primary-road hexes to El Agheila"),
    dict(name="Zuwara", hex=None, lat=32.93, lon=12.08, kind="town", port=(0, 1), source=X, reason="small port"),
    dict(name="Sabratha", hex=None, lat=32.79, lon=12.48, kind="town", source=X, reason="coast road town"),
    dict(name="Zliten", hex=None, lat=32.47, lon=14.57, kind="town", source=X, reason="coast road town"),
    dict(name="Castel Benito", hex=None, lat=32.66, lon=13.16, kind=None, airfield="Y", source=X,
         reason="Tripoli's airfield"),
    dict(name="Gharyan", hex=None, lat=32.17, lon=13.02, kind="town", source=X, reason="Jebel Nafusa town"),
    dict(name="Nalut", hex=None, lat=31.87, lon=10.98, kind="town", source=X, reason="Jebel Nafusa town"),
    # ---- Map S (Sirte) ----
    dict(name="Sirte", hex="S1420", lat=31.21, lon=16.59, kind="town", port=(0, 1), airfield="Y", source=R,
         reason="EoP (Brescia at Sirte S1420); 31.1 prints S1410, see docs/rulings.d/maps.md"),
    dict(name="Marble Arch", hex="S0931", lat=30.50, lon=18.70, kind="town", airfield="Y", source=R, reason="30.1"),
    dict(name="Ras es Ali", hex="S0932", lat=30.48, lon=18.80, kind="town", source=R, reason="EoP"),
    dict(name="En Nofilia", hex=None, lat=30.78, lon=17.84, kind="town", source=X, reason="coast road village"),
    dict(name="Ras Lanuf", hex=None, lat=30.50, lon=18.57, kind=None, source=X, reason="coast road"),
    # ---- Map C (Cyrenaica) ----
    dict(name="El Agheila", hex="C0701", lat=30.27, lon=19.20, kind="town", source=R,
         reason="24.1, 26.1, EoP (also S0734)"),
    dict(name="Mersa Brega", hex="C0803", lat=30.41, lon=19.57, kind="town", port=(0, 1), source=R,
         reason="24.1, 26.2, EoP 'bottleneck'"),
    dict(name="Agedabia", hex="C0907", lat=30.76, lon=20.23, kind="town", airfield="Y", source=R,
         reason="EoP ('Agadabia')"),
    dict(name="Jalo", hex="C0117", lat=29.03, lon=21.55, kind="oasis", source=R, reason="16.2.1, AXC-2"),
    dict(name="Msus", hex="C1812", lat=31.58, lon=21.02, kind="town", source=R, reason="26.2 dump; on a track"),
    dict(name="Benghazi", hex="C2308", lat=32.12, lon=20.07, kind="city", port=(2, 2), airfield="N", source=R,
         reason="19.1.3 naval airfield; AXC-2; port (EoP 'take Benghazi')"),
    dict(name="Benina", hex="C2309", lat=32.10, lon=20.27, kind=None, airfield="N", source=R,
         reason="19.1.3 naval airfield C2309 (Benina, beside Benghazi)"),
    dict(name="Barce", hex="C2410", lat=32.50, lon=20.83, kind="town", airfield="Y", source=R, reason="AXC-2, 26.2"),
    dict(name="Mechili", hex="C2319", lat=32.16, lon=22.30, kind="town", source=R, reason="26.2 dump; on a track"),
    dict(name="Tmimi", hex="C2423", lat=32.32, lon=23.07, kind="town", source=R, reason="26.2 dump"),
    dict(name="Cyrene", hex="C2718", lat=32.82, lon=21.86, kind="town", source=R, reason="26.2 dump"),
    dict(name="Derna", hex="C2821", lat=32.76, lon=22.64, kind="town", port=(1, 1), airfield="N", source=R,
         reason="19.1.3 naval airfield; 26.2 dump"),
    dict(name="Tobruk", hex="C2331", lat=32.08, lon=23.96, kind="city", port=(3, 1), airfield="Y", fort=1, source=R,
         reason="2.2.2, AXC-2, 18.2, 20.1 example; printed perimeter fort reconstructed"),
    dict(name="Gazala", hex=None, lat=32.15, lon=23.37, kind=None, airfield="Y", source=X, reason="airfield"),
    dict(name="Acroma", hex=None, lat=32.05, lon=23.73, kind=None, source=R, reason="18.3 Tobruk Bypass"),
    dict(name="El Adem", hex=None, lat=31.86, lon=23.92, kind=None, airfield="Y", source=R,
         reason="18.3 Tobruk Bypass; airfield reconstructed"),
    dict(name="Sidi Rezegh", hex=None, lat=31.93, lon=24.07, kind=None, source=R, reason="18.3 Tobruk Bypass"),
    dict(name="Antelat", hex=None, lat=31.28, lon=20.16, kind=None, airfield="Y", source=X, reason="airfield"),
    dict(name="Tocra", hex=None, lat=32.53, lon=20.58, kind="town", source=X, reason="coast town"),
    dict(name="Bir Hakeim", hex=None, lat=31.60, lon=23.48, kind=None, source=X, reason="track junction"),
    dict(name="Aujila", hex=None, lat=29.11, lon=21.29, kind="oasis", source=X, reason="oasis beside Jalo"),
    # ---- Map W (Western Desert) ----
    dict(name="Bardia", hex="W2104", lat=31.76, lon=25.09, kind="town", port=(1, 0), fort=1, source=R,
         reason="AXC-2, 24.3; printed perimeter fort reconstructed"),
    dict(name="Fort Capuzzo", hex="W2002", lat=31.60, lon=25.00, kind=None, fort=1, source=R,
         reason="AXC-2 garrison hex W2002 (printed 'Giarabub'): the frontier fort beside Sollum and Bardia"),
    dict(name="Sollum", hex="W2004", lat=31.55, lon=25.15, kind="town", port=(0, 1), source=R, reason="18.3"),
    dict(name="Sidi Barrani", hex="W2110", lat=31.61, lon=25.93, kind="town", port=(0, 1), airfield="Y", source=R,
         reason="18.3"),
    dict(name="Mersa Matruh", hex="W2118", lat=31.35, lon=27.24, kind="town", port=(2, 1), airfield="Y", fort=1,
         source=R, reason="3.1, 18.2 railhead; fortress reconstructed"),
    dict(name="Alexandria", hex="W2232", lat=31.20, lon=29.92, kind="city", port=(4, 2), airfield="Y", source=R,
         reason="18.2 railway terminus"),
    dict(name="Siwa", hex="W0106", lat=29.20, lon=25.52, kind="oasis", source=R, reason="16.2.1"),
    dict(name="Giarabub", hex="W0303", lat=29.74, lon=24.52, kind="oasis", source=R, reason="AXC-2"),
    dict(name="Fuka", hex=None, lat=31.08, lon=27.92, kind=None, airfield="Y", source=X, reason="airfield"),
    dict(name="El Daba", hex=None, lat=31.03, lon=28.45, kind=None, airfield="Y", source=X, reason="airfield"),
    dict(name="El Alamein", hex=None, lat=30.83, lon=28.95, kind="town", source=X, reason="railway station"),
    dict(name="Amiriya", hex=None, lat=31.02, lon=29.80, kind=None, source=X, reason="road junction"),
    # ---- Map T (Tunisia) ----
    dict(name="Tunis", hex="T6017", lat=36.81, lon=10.18, kind="city", port=(3, 1), airfield="Y", source=R,
         reason="29.3 victory hex; 20.2.6"),
    dict(name="Bizerte", hex=None, lat=37.27, lon=9.87, kind="city", port=(3, 1), airfield="Y", source=X,
         reason="naval base"),
    dict(name="Mateur", hex=None, lat=37.04, lon=9.67, kind="town", source=X, reason="rail junction"),
    dict(name="Medjez el Bab", hex=None, lat=36.65, lon=9.61, kind="town", source=X, reason="rail/road town"),
    dict(name="Beja", hex=None, lat=36.73, lon=9.18, kind="town", source=X, reason="rail/road town"),
    dict(name="Souk el Arba", hex=None, lat=36.50, lon=8.78, kind="town", airfield="Y", source=X, reason="rail town"),
    dict(name="Tabarka", hex=None, lat=36.95, lon=8.76, kind="town", port=(0, 1), source=X, reason="small port"),
    dict(name="Bone", hex=None, lat=36.90, lon=7.76, kind="city", port=(2, 1), airfield="Y", source=X,
         reason="port (Annaba)"),
    dict(name="Souk Ahras", hex=None, lat=36.29, lon=7.95, kind="town", source=X, reason="rail town"),
    dict(name="Tebessa", hex=None, lat=35.40, lon=8.12, kind="town", airfield="Y", source=X,
         reason="Youks-les-Bains airfield"),
    dict(name="Kasserine", hex=None, lat=35.17, lon=8.83, kind="town", source=X, reason="Kasserine Pass"),
    dict(name="Sbeitla", hex=None, lat=35.23, lon=9.12, kind="town", source=X, reason="road town"),
    dict(name="Kairouan", hex=None, lat=35.68, lon=10.10, kind="city", source=X, reason="city"),
    dict(name="Enfidaville", hex=None, lat=36.13, lon=10.38, kind="town", source=X, reason="coast road town"),
    dict(name="Sousse", hex=None, lat=35.83, lon=10.64, kind="city", port=(2, 1), source=X, reason="port"),
    dict(name="El Djem", hex=None, lat=35.30, lon=10.71, kind="town", source=X, reason="road town"),
    dict(name="Sfax", hex=None, lat=34.74, lon=10.76, kind="city", port=(2, 1), airfield="Y", source=X, reason="port"),
    dict(name="Gafsa", hex=None, lat=34.42, lon=8.78, kind="town", airfield="Y", source=X, reason="oasis town"),
    dict(name="Tozeur", hex=None, lat=33.92, lon=8.13, kind="oasis", source=X, reason="oasis"),
    dict(name="Gabes", hex=None, lat=33.88, lon=10.10, kind="town", port=(1, 1), airfield="Y", source=X,
         reason="port"),
    dict(name="Mareth", hex=None, lat=33.62, lon=10.30, kind="town", fort=2, source=X,
         reason="the Mareth Line, a printed fortified line"),
    dict(name="Medenine", hex=None, lat=33.35, lon=10.50, kind="town", airfield="Y", source=X, reason="road town"),
    dict(name="Ben Gardane", hex=None, lat=33.14, lon=11.22, kind="town", source=X, reason="road town"),
    # ---- Map A (Algeria) ----
    dict(name="Algiers", hex="A6201", lat=36.75, lon=3.06, kind="city", port=(4, 2), airfield="Y", source=R,
         reason="20.2.5, 22.7"),
    dict(name="Blida", hex=None, lat=36.47, lon=2.83, kind="town", airfield="Y", source=X, reason="town"),
    dict(name="Bougie", hex=None, lat=36.75, lon=5.08, kind="town", port=(1, 1), source=X,
         reason="port (Bejaia); first port east of A6111 (20.2.6)"),
    dict(name="Djidjelli", hex=None, lat=36.82, lon=5.77, kind="town", port=(0, 1), source=X, reason="small port"),
    dict(name="Philippeville", hex=None, lat=36.88, lon=6.91, kind="town", port=(1, 1), source=X,
         reason="port (Skikda)"),
    dict(name="Setif", hex=None, lat=36.19, lon=5.41, kind="town", airfield="Y", source=X, reason="rail town"),
    dict(name="Constantine", hex=None, lat=36.36, lon=6.61, kind="city", source=X, reason="city"),
    dict(name="Bouira", hex=None, lat=36.37, lon=3.90, kind="town", source=X, reason="rail town"),
]

# Extra tie points that are not hexes of the rules but fix where the land is (used
# only to check the fit, never as anchors).

# --------------------------------------------------------------------------------------
# In-hex terrain regions, painted in order on land hexes (later wins).
# --------------------------------------------------------------------------------------
REGIONS: list[tuple[str, str, list[tuple[float, float]]]] = [
    # clear: the Mediterranean-climate farmland belts
    ("clear", "Jefara plain and Tripolitanian coast", [
        (33.4, 10.4), (33.4, 15.4), (32.3, 15.4), (32.35, 14.3), (32.45, 13.7), (32.2, 13.0),
        (32.05, 12.4), (32.0, 11.5), (32.2, 10.9), (32.6, 10.4)]),
    ("clear", "Benghazi and Barce plains", [
        (32.7, 19.6), (32.9, 20.9), (32.9, 22.0), (32.55, 21.0), (32.25, 20.55), (31.75, 20.3), (31.55, 20.2),
        (31.6, 19.6)]),
    ("clear", "Northern Tunisia and the Sahel", [
        (37.8, 7.0), (37.8, 11.5), (35.0, 11.5), (34.65, 11.0), (34.85, 10.3), (35.2, 9.5), (35.4, 8.4),
        (35.3, 7.0)]),
    ("clear", "Algerian Tell and High Plateaux", [
        (37.5, 0.0), (37.5, 7.2), (35.3, 7.2), (34.5, 6.0), (34.5, 0.0)]),
    ("clear", "Alexandria and the Nile delta edge", [
        (31.45, 29.55), (31.45, 31.6), (30.3, 31.6), (30.6, 30.6), (30.95, 29.55)]),
    # rough
    ("rough", "Jebel Nafusa", [
        (32.1, 10.3), (31.98, 11.0), (32.12, 12.0), (32.22, 12.6), (32.3, 13.0), (32.52, 13.6), (32.6, 14.1),
        (32.45, 14.35), (32.2, 13.8), (32.0, 13.1), (31.85, 12.5), (31.72, 11.6), (31.55, 10.9), (31.6, 10.3)]),
    ("rough", "Dahar and Matmata hills", [
        (33.85, 9.55), (33.75, 10.05), (33.45, 10.2), (33.0, 10.4), (32.4, 10.5), (32.1, 10.3), (31.6, 10.3),
        (31.7, 9.7), (32.6, 9.75), (33.4, 9.6)]),
    ("rough", "Jebel Akhdar slopes", [
        (32.42, 20.5), (32.8, 20.85), (32.95, 21.4), (32.95, 22.3), (32.85, 22.85), (32.5, 23.0), (32.3, 22.5),
        (32.12, 21.7), (31.95, 21.1), (31.8, 20.6), (32.1, 20.42)]),
    ("rough", "Tunisian High Tell and Dorsal", [
        (36.45, 8.2), (36.55, 9.3), (36.5, 10.1), (36.2, 10.35), (35.7, 9.85), (35.25, 9.35), (34.85, 8.8),
        (34.6, 8.1), (34.75, 7.0), (35.7, 7.0)]),
    ("rough", "Kroumirie and Mogods", [(37.1, 8.3), (37.2, 9.3), (36.95, 9.55), (36.7, 9.25), (36.6, 8.3)]),
    ("rough", "Gafsa hills", [(34.6, 8.45), (34.6, 9.7), (34.22, 9.75), (34.25, 8.45)]),
    ("rough", "Blida Atlas and Ouarsenis", [(36.55, 0.5), (36.5, 3.4), (36.2, 3.6), (35.7, 1.5), (35.8, 0.5)]),
    ("rough", "Hodna and Bibans", [(36.25, 3.9), (36.15, 5.2), (35.85, 5.3), (35.7, 4.0)]),
    ("rough", "Constantine hills", [(36.7, 6.2), (36.6, 7.2), (36.05, 7.2), (36.1, 6.2)]),
    # mountain (obstructed, 2.2.4)
    ("mountain", "Jebel Akhdar massif", [
        (32.56, 20.85), (32.78, 21.15), (32.86, 21.8), (32.8, 22.4), (32.62, 22.5), (32.45, 21.95), (32.36, 21.35),
        (32.32, 20.95)]),
    ("mountain", "Grand Dorsal", [
        (36.45, 9.95), (36.32, 10.25), (35.95, 9.75), (35.45, 9.05), (35.2, 8.85), (35.25, 8.35), (35.55, 8.6),
        (36.05, 9.35)]),
    ("mountain", "Djurdjura (Kabylie)", [(36.65, 3.6), (36.8, 4.4), (36.55, 4.95), (36.35, 4.5), (36.42, 3.8)]),
    ("mountain", "Babors (Petite Kabylie)", [(36.72, 5.0), (36.78, 5.9), (36.5, 6.1), (36.42, 5.3)]),
    ("mountain", "Aures", [(35.65, 5.9), (35.55, 7.0), (35.05, 7.0), (35.0, 6.1)]),
    # sand sea
    ("sand_sea", "Great Sand Sea", [
        (29.42, 24.35), (29.05, 25.3), (28.95, 26.3), (28.6, 27.2), (27.0, 27.0), (25.5, 25.5), (25.5, 24.0),
        (28.0, 23.95), (29.1, 24.2)]),
    ("sand_sea", "Calanscio Sand Sea", [
        (30.1, 22.5), (29.95, 23.3), (29.45, 23.75), (28.2, 23.85), (27.3, 23.0), (27.6, 21.95), (28.75, 21.85),
        (29.5, 22.05)]),
    ("sand_sea", "Grand Erg Oriental", [(33.35, 6.5), (32.9, 9.3), (31.8, 9.7), (30.5, 9.8), (30.0, 6.5)]),
    # marsh / salt marsh
    ("marsh", "Sebkha of El Agheila", [
        (30.24, 18.55), (30.23, 19.15), (30.1, 19.3), (29.85, 19.28), (29.7, 19.0), (29.85, 18.6)]),
    ("marsh", "Sebkha Tauorga", [(32.18, 14.95), (32.2, 15.28), (31.95, 15.45), (31.7, 15.35), (31.75, 14.98)]),
    ("marsh", "Qattara Depression", [
        (29.8, 26.1), (30.05, 26.8), (30.22, 27.4), (30.3, 28.0), (30.33, 28.5), (30.15, 29.0), (29.8, 29.3),
        (29.45, 29.0), (29.3, 28.2), (29.3, 27.0), (29.45, 26.3)]),
    ("marsh", "Chott el Djerid", [
        (34.05, 7.55), (34.18, 8.4), (33.98, 8.75), (33.88, 9.0), (33.72, 8.9), (33.58, 8.3), (33.68, 7.55)]),
    ("marsh", "Chott el Fedjadj", [(33.98, 8.9), (34.02, 9.7), (33.88, 9.78), (33.8, 9.0)]),
    ("marsh", "Chott el Gharsa", [(34.22, 7.65), (34.22, 8.2), (34.04, 8.2), (34.04, 7.65)]),
    ("marsh", "Chott el Hodna", [(35.58, 4.3), (35.62, 5.1), (35.35, 5.12), (35.3, 4.4)]),
]

# --------------------------------------------------------------------------------------
# Hexside terrain lines
# --------------------------------------------------------------------------------------
HEXSIDE_LINES: list[tuple[str, str, list[tuple[float, float]]]] = [
    ("escarpment", "Jebel Akhdar western escarpment (Er Regima - Sceleidima)", [
        (32.45, 20.5), (32.2, 20.42), (31.9, 20.47), (31.6, 20.55), (31.35, 20.62)]),
    ("escarpment", "Jebel Akhdar northern escarpment", [
        (32.55, 20.75), (32.74, 21.2), (32.83, 21.7), (32.83, 22.2), (32.72, 22.58), (32.62, 22.95)]),
    ("escarpment", "Marmarica coastal escarpment (Gazala - Tobruk - Bardia)", [
        (32.08, 23.2), (32.0, 23.6), (31.97, 23.93), (31.92, 24.3), (31.83, 24.7), (31.68, 25.0), (31.56, 25.12)]),
    ("escarpment", "Sidi Rezegh escarpment", [(31.96, 23.72), (31.9, 24.0), (31.87, 24.35)]),
    ("escarpment", "Sollum - Halfaya escarpment", [
        (31.56, 25.14), (31.47, 25.3), (31.38, 25.65), (31.27, 26.05), (31.12, 26.55), (30.95, 27.0),
        (30.72, 27.45)]),
    ("escarpment", "Qattara northern cliffs", [
        (29.8, 26.05), (30.08, 26.85), (30.26, 27.45), (30.36, 28.0), (30.38, 28.5), (30.2, 29.05)]),
    ("escarpment", "Jebel Nafusa escarpment", [
        (32.15, 10.5), (32.03, 11.1), (32.15, 11.95), (32.28, 12.6), (32.33, 13.0), (32.55, 13.55), (32.65, 14.05)]),
    ("wadi", "Wadi el Faregh", [(30.17, 20.05), (30.22, 20.45), (30.3, 20.85), (30.38, 21.3), (30.45, 21.7)]),
    ("wadi", "Wadi Zemzem", [(31.0, 13.9), (31.12, 14.5), (31.22, 15.0), (31.32, 15.45), (31.38, 15.65)]),
    ("wadi", "Wadi Sofeggin", [(31.5, 13.3), (31.65, 14.0), (31.82, 14.6), (31.9, 14.95)]),
    ("wadi", "Wadi Bei el Kebir", [(30.75, 14.9), (30.9, 15.45), (31.05, 15.95), (31.15, 16.25)]),
    ("wadi", "Wadi Derna", [(32.45, 22.15), (32.62, 22.45), (32.75, 22.62)]),
    ("wadi", "Wadi Zigzaou (Mareth Line)", [(33.3, 10.15), (33.45, 10.35), (33.62, 10.5)]),
    ("wadi", "Wadi Akarit", [(33.98, 9.85), (34.05, 10.02), (34.1, 10.15)]),
    ("wadi", "Oued Medjerda", [(36.35, 8.2), (36.48, 8.8), (36.58, 9.35), (36.72, 9.75), (36.92, 10.05),
                               (37.05, 10.2)]),
    ("ridge", "Ruweisat Ridge", [(30.86, 28.7), (30.88, 29.1)]),
    ("ridge", "Alam Halfa Ridge", [(30.76, 28.95), (30.77, 29.25)]),
    ("ridge", "Miteiriya Ridge", [(30.88, 28.75), (30.95, 28.95)]),
    ("ridge", "Longstop and the Medjez hills", [(36.6, 9.45), (36.8, 9.75)]),
]

# --------------------------------------------------------------------------------------
# Routes: roads, tracks, railways.  kind is one of primary, secondary, track, rail,
# rail_unfinished, rail_fna.  construct names the 18.3 road a route may become.
# --------------------------------------------------------------------------------------
ROUTES: list[dict] = [
    dict(id="coast_road_tunisia", kind="primary", name="Tunis - Sousse - Sfax - Gabes - Tripoli coast road",
         points=["T6017", (36.55, 10.45), (36.13, 10.38), (35.83, 10.64), (35.3, 10.71), (34.74, 10.76),
                 (34.3, 10.1), (33.88, 10.1), (33.62, 10.3), (33.35, 10.5), (33.14, 11.22), (33.1, 11.6),
                 (32.93, 12.08), (32.79, 12.48), "L2817"],
         source=X, reason="the French and Italian coast roads; must join Tunis T6017 to Tripoli L2817"),
    dict(id="via_balbia_west", kind="primary", name="Via Balbia: Tripoli - Misurata - Beurat",
         points=["L2817", (32.6, 13.75), "L2624", (32.47, 14.57), "L2429", "L1729", "L1633"],
         source=R, reason="Via Balbia round the Tauorga salt marsh; EoP: Tripoli's 14-MMP LOS reaches Agedabia "
                          "C0907 (56 road hexes)"),
    dict(id="via_balbia_sirte", kind="primary", name="Via Balbia: Beurat - Sirte - El Agheila",
         points=["L1633", "S1318", "S1420", "S1325", "S1130", "S1030", "S0931", "S0932", "S0733", "C0701"],
         source=R, reason="EoP: 23 primary-road hexes Beurat-El Agheila; Sirte S1420, S1325, S1130 on the road; "
                          "Tobruk's LOS reaches S1030 (56 road hexes)"),
    dict(id="via_balbia_cyrenaica", kind="primary", name="Via Balbia: El Agheila - Benghazi - Derna - Tobruk",
         points=["C0701", "C0702", "C0802", "C0803", "C0804", "C0805", "C0806", "C0907", (31.3, 20.12),
                 (31.75, 20.05), "C2308", "C2311", "C2410", (32.62, 21.3), "C2718", (32.78, 22.3), "C2821",
                 "C2723", "C2423", (32.15, 23.37), "C2329", "C2330", "C2331"],
         source=R, reason="EoP: C0701-C0702-C0802 1 MP each, 3 Lt Arm 'along the primary road to C0804'"),
    dict(id="via_balbia_marmarica", kind="primary", name="Via Balbia: Tobruk - Gambut - Bardia - Sollum",
         points=["C2331", "W2202", "W2104", "W2004"],
         source=R, reason="W2202 (Gambut) ends the Tobruk Bypass (18.3, read for W2232)"),
    dict(id="sollum_sidi_barrani", kind="secondary", name="Sollum - Sidi Barrani road",
         points=["W2004", "W2110"], construct="sollum_sidi_barrani", source=R,
         reason="18.3: the secondary road from Sollum (W2004) to Sidi Barrani (W2110) may be built"),
    dict(id="egypt_coast_road", kind="primary", name="Egyptian coast road: Sidi Barrani - Matruh - Alexandria",
         points=["W2110", "W2118", (31.08, 27.92), (31.03, 28.45), (30.83, 28.95), (31.02, 29.8), "W2232",
                 "W2233", "W2234"],
         source=R, reason="22.1: road connection to the NRV at W2234"),
    dict(id="cairo_desert_road", kind="primary", name="Alexandria - Cairo desert road",
         points=[(31.02, 29.8), "W2133", "W2134", "W2034"],
         source=R, reason="22.1 road connection at W2034; 27.3 'the primary road from C0701 to W2134'"),
    dict(id="tobruk_bypass", kind="track", name="Tobruk Bypass (Acroma - El Adem - Sidi Rezegh)",
         points=["C2329", (32.05, 23.73), (31.86, 23.92), (31.93, 24.07), "W2202"], construct="tobruk_bypass",
         source=R, reason="18.3 (end hex printed W2232, read as W2202: see docs/rulings.d/maps.md)"),
    # Tunisia and Algeria roads
    dict(id="bizerte_road", kind="primary", name="Tunis - Mateur - Bizerte",
         points=["T6017", (37.04, 9.67), (37.27, 9.87)], source=X, reason="main road"),
    dict(id="tunis_constantine", kind="primary", name="Tunis - Medjez - Beja - Souk Ahras - Constantine",
         points=["T6017", (36.65, 9.61), (36.73, 9.18), (36.5, 8.78), (36.29, 7.95), (36.36, 6.61)],
         source=X, reason="main road west from Tunis"),
    dict(id="constantine_algiers", kind="primary", name="Constantine - Setif - Algiers",
         points=[(36.36, 6.61), (36.19, 5.41), (36.37, 3.9), (36.47, 2.83), "A6201"], source=X,
         reason="main road; joins FNA to Algiers (22.7)"),
    dict(id="algerian_coast", kind="secondary", name="Algerian coast road: Algiers - Bougie - Philippeville - Bone",
         points=["A6201", (36.75, 3.9), (36.75, 5.08), (36.82, 5.77), (36.88, 6.91), (36.9, 7.76), (36.95, 8.76),
                 (37.04, 9.67)],
         source=X, reason="coast road linking the small ports"),
    dict(id="constantine_philippeville", kind="secondary", name="Constantine - Philippeville",
         points=[(36.36, 6.61), (36.88, 6.91)], source=X, reason="road to the port"),
    dict(id="tebessa_kasserine", kind="secondary", name="Souk Ahras - Tebessa - Kasserine - Sbeitla - Kairouan - Sousse",
         points=[(36.29, 7.95), (35.4, 8.12), (35.17, 8.83), (35.23, 9.12), (35.68, 10.1), (35.83, 10.64)],
         source=X, reason="the road through the Kasserine Pass"),
    dict(id="gafsa_road", kind="secondary", name="Sfax - Gafsa - Tozeur; Gafsa - Kasserine",
         points=[(34.74, 10.76), (34.42, 8.78), (33.92, 8.13)], source=X, reason="road"),
    dict(id="gafsa_kasserine", kind="secondary", name="Gafsa - Kasserine",
         points=[(34.42, 8.78), (35.17, 8.83)], source=X, reason="road"),
    dict(id="gabes_gafsa", kind="track", name="Gabes - El Hamma - Gafsa (Tebaga Gap)",
         points=[(33.88, 10.1), (33.9, 9.8), (34.42, 8.78)], source=X, reason="track"),
    # Libyan and Egyptian secondary roads and tracks
    dict(id="gharyan_road", kind="secondary", name="Tripoli - Gharyan - Nalut",
         points=["L2817", (32.17, 13.02), (31.87, 10.98)], source=X, reason="road into the Jebel Nafusa"),
    dict(id="sirte_hon_track", kind="track", name="Sirte - Hon desert track", points=["S1420", "S0413"],
         source=R, reason="16.2.1: S0413 is a desert track connection hex (Hon, Zella)"),
    dict(id="marada_track", kind="track", name="Agedabia - Marada track",
         points=["C0907", "C0806", "C0706", "C0606", "C0506", "C0505", "C0405", (29.6, 19.45)],
         source=R, reason="EoP 3 Aufkl route: 0506 and 0606 track/rough, 0706 track across a wadi"),
    dict(id="faregh_track", kind="track", name="Wadi el Faregh track",
         points=["C0706", "C0605", "C0604", "C0504", "C0404", (29.75, 19.1)],
         source=R, reason="EoP 3 Aufkl route: 0605 track/desert entered from 0706"),
    dict(id="jalo_track", kind="track", name="Agedabia - Jalo track",
         points=["C0907", (30.35, 20.85), (29.6, 21.3), "C0117"], source=X, reason="caravan track"),
    dict(id="msus_mechili_track", kind="track", name="Agedabia - Antelat - Msus - Mechili - Tmimi",
         points=["C0907", (31.28, 20.16), "C1812", (31.9, 21.7), "C2319", "C2423"],
         source=R, reason="Msus and Mechili are desert-track hubs (26.2 dumps)"),
    dict(id="trigh_el_abd", kind="track", name="Trigh el Abd",
         points=[(31.2, 21.6), (31.35, 22.6), (31.55, 23.45), (31.45, 24.3), (31.3, 24.95)], source=X,
         reason="the slave track from Bir Tengeder to Maddalena"),
    dict(id="trigh_capuzzo", kind="track", name="Trigh Capuzzo",
         points=[(32.0, 23.55), (31.88, 24.1), (31.75, 24.6), "W2002"], source=X,
         reason="the track from El Adem to Fort Capuzzo"),
    dict(id="mechili_tobruk_track", kind="track", name="Mechili - Bir Hakeim - El Adem",
         points=["C2319", (31.6, 23.48), (31.86, 23.92)], source=X, reason="desert track"),
    dict(id="giarabub_track", kind="track", name="Giarabub - Maddalena - Capuzzo",
         points=["W0303", (30.6, 24.85), (31.3, 24.95), "W2002"], source=X, reason="frontier track"),
    dict(id="siwa_giarabub_track", kind="track", name="Siwa - Giarabub", points=["W0106", "W0303"], source=X,
         reason="oasis track"),
    dict(id="siwa_matruh_track", kind="track", name="Siwa - Mersa Matruh (the Siwa road)",
         points=["W0106", (30.2, 26.6), (30.9, 27.15), "W2118"], source=X, reason="desert track"),
    dict(id="nrv_track", kind="track", name="El Alamein - Cairo desert track",
         points=[(30.83, 28.95), (30.55, 29.8), "W1434"], source=R,
         reason="22.1: the NRV is connected to the hex grid by the track at W1434"),
    # railways
    dict(id="egyptian_railroad", kind="rail", name="Egyptian railroad: Alexandria - Mersa Matruh",
         points=["W2232", (31.02, 29.8), (30.83, 28.95), (31.03, 28.45), (31.08, 27.92), "W2118"],
         source=R, reason="18.2: railroad between Alexandria (W2232) and Mersa Matruh (W2118)"),
    dict(id="egyptian_railroad_extension", kind="rail_unfinished", name="Egyptian railroad extension (unfinished)",
         points=["W2118", "W2110", (31.35, 25.5), (31.6, 24.85), (31.88, 24.15), "C2331"],
         source=R, reason="18.2: unfinished line from Mersa Matruh as far as Tobruk (C2331)"),
    dict(id="fna_railway", kind="rail_fna", name="Algeria - Tunisia railway",
         points=["A6201", (36.37, 3.9), (36.19, 5.41), (36.36, 6.61), (36.29, 7.95), (36.5, 8.78), (36.73, 9.18),
                 (36.65, 9.61), "T6017"], source=R, reason="13.7: the rail line in Algeria and Tunisia"),
    dict(id="fna_railway_bone", kind="rail_fna", name="Bone - Souk Ahras railway",
         points=[(36.9, 7.76), (36.29, 7.95)], source=X, reason="branch line"),
    dict(id="fna_railway_bizerte", kind="rail_fna", name="Tunis - Mateur - Bizerte railway",
         points=["T6017", (37.04, 9.67), (37.27, 9.87)], source=X, reason="branch line"),
    dict(id="fna_railway_sahel", kind="rail_fna", name="Tunis - Sousse - Sfax - Gabes railway",
         points=["T6017", (36.13, 10.38), (35.83, 10.64), (35.3, 10.71), (34.74, 10.76), (33.88, 10.1)],
         source=X, reason="branch line"),
    dict(id="fna_railway_gafsa", kind="rail_fna", name="Sfax - Gafsa railway",
         points=[(34.74, 10.76), (34.42, 8.78)], source=X, reason="phosphate line"),
]

# --------------------------------------------------------------------------------------
# Flag areas
# --------------------------------------------------------------------------------------
AREAS: list[tuple[str, str, list[tuple[float, float]]]] = [
    ("fna", "Algeria and Tunisia (west of the Libyan border at Ras Ajdir)", [
        (38.5, -2.0), (38.5, 11.8), (33.5, 11.8), (33.17, 11.56), (32.6, 11.45), (32.0, 10.75), (31.0, 10.25),
        (30.0, 9.5), (28.0, 9.5), (28.0, -2.0)]),
    ("winter", "Map T north of the winter line", [
        (38.5, 6.0), (38.5, 12.0), (36.05, 12.0), (36.05, 10.7), (35.7, 10.0), (35.35, 8.6), (35.25, 6.0)]),
    ("temperate", "Map T north of the temperate/desert line", [
        (38.5, 6.0), (38.5, 12.0), (34.85, 12.0), (34.85, 10.9), (34.5, 9.5), (34.5, 6.0)]),
]

#: Desert-track connection hexes to the Oasis Track (16.2.1): hex -> the oasis boxes it reaches.
OASIS_CONNECTIONS: dict[str, list[str]] = {
    "S0413": ["hon", "zella"],
}

#: Hexes that count as oasis boxes when moving to and from the Oasis Track (16.2.1).
OASIS_BOX_HEXES: dict[str, str] = {"C0117": "jalo", "W0106": "siwa"}

#: NRV connections (22.1): hex -> how a unit enters from the NRV.
NRV_CONNECTIONS: dict[str, dict] = {
    "W1434": dict(by="track", enter_cost_mp=14, note="22.1c: a unit entering at W1434 expends 14 MP to enter the hex"),
    "W2034": dict(by="road", road_hexes=14, note="22.1d: a unit entering at W2034 has traveled 14 primary road hexes"),
    "W2234": dict(by="road", road_hexes=14, note="22.1d: a unit entering at W2234 has traveled 14 primary road hexes"),
    "W2232": dict(by="rail", enter_cost_mp=3, note="22.1b, 13.7: the NRV is part of the active Egyptian railroad"),
}
