#!/usr/bin/env python3
"""Regenerate docs/data.d/provenance.md's lists (reconstructed charts, counters, card unit lists) from the data.

    PYTHONPATH=. .venv/bin/python scripts/provenance_doc.py          # rewrite, then run scripts/build_docs.py
    PYTHONPATH=. .venv/bin/python scripts/provenance_doc.py --check  # exit 1 if the lists are out of date
"""

from __future__ import annotations

import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "data.d" / "provenance.md"
MARK = "## Reconstructed charts\n"


def lists() -> str:
    from core import cards
    from core.counters import all_counters

    out = [MARK, "\n"]
    for f in sorted((ROOT / "resources" / "charts").glob("*.toml")):
        items: list[tuple[str, str]] = []

        def walk(n: object, path: str) -> None:
            if isinstance(n, dict):
                src = n.get("source")
                if src == "reconstructed" or (isinstance(src, dict) and "reconstructed" in src.values()):
                    items.append((path or "(whole chart)", str(n.get("reason", "")).strip()))
                for k, v in n.items():
                    if isinstance(v, (dict, list)):
                        walk(v, (path + "." if path else "") + k)
            elif isinstance(n, list):
                for i, x in enumerate(n):
                    walk(x, f"{path}[{i}]")

        walk(tomllib.loads(f.read_text(encoding="utf-8")), "")
        if items:
            out.append(f"### `{f.name}`\n\n")
            out += [f"- `{p}`: {r}\n" for p, r in items]
            out.append("\n")
    out.append("## Reconstructed counters (by reason)\n\n")
    out.append("Every counter not flagged `rules`, grouped by its `reason`; the `rules` rows list their stated fields in "
               "`rules_fields` (the rest of those rows is reconstructed too).\n\n")
    groups: dict[str, list[str]] = defaultdict(list)
    for c in all_counters().values():
        if c.source != "rules":
            groups[c.reason].append(c.id)
    for r, ids in sorted(groups.items(), key=lambda x: (-len(x[1]), x[0])):
        out.append(f"- {', '.join(f'`{i}`' for i in ids)}: {r}\n")
    out.append("\n## Reconstructed card unit lists\n\n")
    for cid, c in sorted(cards.all_cards().items(), key=lambda x: (x[1].side, x[1].number)):
        if c.units_source == "reconstructed" and (c.setup or c.reinforcements or c.withdrawals):
            out.append(f"- {cid} {c.title}: {c.units_reason}\n")
    out += scenario_lines()
    return "".join(out)


def scenario_lines() -> list[str]:
    """The reconstructed set-up, reinforcement and withdrawal lines of the scenarios, grouped by reason."""
    from core.scenario import all_scenarios

    out = ["\n## Reconstructed scenario lines\n\n",
           "Every set-up, reinforcement and withdrawal line of `scenarios/*.toml` carries `source`; these are the "
           "`reconstructed` ones, by reason (the ruling they follow, `docs/rulings.d/counters-scenarios.md`). Lines "
           "expanded from a card (`card_setups`) take the card's `units_source` (*Reconstructed card unit lists*).\n\n"]
    groups: dict[str, list[str]] = defaultdict(list)
    for sc in all_scenarios():
        for line in [p for p in sc.setup if not p.from_card] + list(sc.reinforcements) + list(sc.withdrawals):
            if line.source != "rules":
                what = getattr(line, "unit", "") or ", ".join(line.units) or f"{line.card} GT {line.card_gt}"
                groups[line.reason or "(no flag)"].append(f"{sc.id} {what}")
    for r, items in groups.items():
        out.append(f"- {r}: {'; '.join(items)}\n")
    return out


def render() -> str:
    head = DOC.read_text(encoding="utf-8").split(MARK)[0]
    return head + lists()


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        same = DOC.read_text(encoding="utf-8") == text
        print("docs/data.d/provenance.md is up to date" if same else
              "docs/data.d/provenance.md is STALE: run scripts/provenance_doc.py and scripts/build_docs.py")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
