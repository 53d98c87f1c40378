"""The player's manual (docs/manual.md) works as written.

Conventions of the manual (stated in its introduction):

* A block fenced ```sh contains only ``dfd`` commands (one per line; ``#`` comments allowed). Every such block
  is run, in the order of the manual, in one empty temporary folder, with the user folders (data, config,
  keys, logs) redirected there; ``dfd`` is the project's own entry point.  Each command must exit 0.
* A ```text block that directly follows a ```sh block is its expected output: every line of it that does not
  contain "…" must appear (stripped) in the commands' output.
* Blocks fenced ```console, ```toml etc. are never run (installation, editing files, long-running servers).

Also: every image the manual shows exists; every rule number it cites in the usual ways — "(13.5)",
"(4.1 VI.2; 17.0)", "rule 14.6", "Rule 26.2" — is a numbered section of the rules text (skipped when the
rules text is absent); the deliberate typo of chapter 13 gives the error lines the manual quotes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANUAL = ROOT / "docs" / "manual.md"
FENCE = re.compile(r"^[ \t]*```([A-Za-z0-9_-]*)[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.S | re.M)
NOT_SAFE = ("play", "host")          # open a window / serve forever: never in a ```sh block


def _text() -> str:
    return MANUAL.read_text(encoding="utf-8")


def blocks() -> list[tuple[str, str, int]]:
    """(language, body, end offset) of every fenced block, in order."""
    return [(m.group(1), m.group(2), m.end()) for m in FENCE.finditer(_text())]


def sh_blocks() -> list[tuple[list[str], list[str]]]:
    """Each ```sh block's commands and the expected lines of the ```text block right after it (if any)."""
    text = _text()
    out = []
    bl = list(FENCE.finditer(text))
    for i, m in enumerate(bl):
        if m.group(1) != "sh":
            continue
        cmds = [ln.strip() for ln in m.group(2).splitlines() if ln.strip() and not ln.strip().startswith("#")]
        expect: list[str] = []
        if i + 1 < len(bl) and bl[i + 1].group(1) == "text" and text[m.end(): bl[i + 1].start()].strip() == "":
            expect = [ln.strip() for ln in bl[i + 1].group(2).splitlines() if ln.strip() and "…" not in ln]
        out.append((cmds, expect))
    return out


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for var, sub in (("DFD_DATA_DIR", "data"), ("DFD_CONFIG_DIR", "config"), ("DFD_KEY_DIR", "keys"),
                     ("DFD_LOG_DIR", "log")):
        env[var] = str(tmp / "_user" / sub)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_sh_blocks_follow_the_convention():
    found = sh_blocks()
    assert len(found) >= 6, "the manual should show its dfd commands in ```sh blocks"
    for cmds, _ in found:
        for c in cmds:
            words = c.split()
            assert words[0] == "dfd", f"a ```sh block may hold only dfd commands: {c!r}"
            assert len(words) == 1 or words[1] not in NOT_SAFE, f"not safe to run in a test: {c!r}"
            assert not re.search(r"[|;&<>`$]", c), f"keep ```sh commands plain (no shell syntax): {c!r}"


def test_every_sh_command_in_the_manual_runs(tmp_path):
    env = _env(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    for cmds, expect in sh_blocks():
        out = ""
        for c in cmds:
            args = c.split()[1:]
            r = subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=work, env=env, capture_output=True,
                               text=True, timeout=120)
            assert r.returncode == 0, f"`{c}` exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
            out += r.stdout
        got = {ln.strip() for ln in out.splitlines()}
        for line in expect:
            assert line in got, f"the manual shows {line!r} after `{'; '.join(cmds)}`, the command printed:\n{out}"


def test_every_image_exists():
    imgs = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", _text())
    assert len(imgs) >= 10
    for rel in imgs:
        p = (MANUAL.parent / rel).resolve()
        assert p.is_file(), f"the manual shows {rel}, which does not exist (run scripts/manual_screenshots.py)"
        assert p.stat().st_size > 2000, f"{rel} looks empty"


def test_screenshot_script_writes_every_image_the_manual_shows():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import manual_screenshots
    finally:
        sys.path.pop(0)
    shown = {Path(rel).name for rel in re.findall(r"!\[[^\]]*\]\(manual/([^)]+)\)", _text())}
    assert shown <= set(manual_screenshots.SHOTS), shown - set(manual_screenshots.SHOTS)


def test_internal_links_point_at_headings():
    text = _text()
    slugs = set()
    for h in re.findall(r"^#{1,6} (.+)$", text, re.M):
        s = re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
        slugs.add(s)
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in slugs, f"link to #{target}: no such heading"
    for rel in re.findall(r"\]\(([\w./-]+\.md)\)", text):
        assert (MANUAL.parent / rel).is_file(), rel


# ---------------------------------------------------------------- rule numbers

RULE_CITES = [
    re.compile(r"\(((?:\d{1,2}\.\d{1,2}(?:\.\d{1,2})?[^()]*?))\)"),   # (13.5), (4.1 VI.2; 17.0), (8.3, 17.0)
    re.compile(r"\b[Rr]ules? (\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)"),      # rule 14.6, Rule 26.2
]
# DFD's chapters run 1.0-33.0: a number starting with 0 is a program version ("(0.1.0)"), not a rule
NUMBER = re.compile(r"(?<![\d.])([1-9]\d?\.\d{1,2}(?:\.\d{1,2})?)(?![\d.]*\d)")


def cited_rules() -> set[str]:
    text = _text()
    text = FENCE.sub(lambda m: "" if m.group(1) in ("console", "toml") else m.group(0), text)
    out: set[str] = set()
    for rx in RULE_CITES:
        for m in rx.finditer(text):
            for n in NUMBER.findall(m.group(1)):
                out.add(n)
    return out


def _rules_text() -> str | None:
    sys.path.insert(0, str(ROOT))
    from app import rulesdoc  # noqa: PLC0415  (no Qt needed)

    p = rulesdoc.find_rules()
    return p.read_text(encoding="utf-8", errors="replace") if p else None


def test_every_cited_rule_exists():
    text = _rules_text()
    if text is None:
        pytest.skip("the rules text is not present (resources/rules/*.txt, DFD_RULES_TEXT or ../shared/seeds)")
    cites = cited_rules()
    assert {"4.1", "13.5", "14.6", "26.2", "12.6"} <= cites, "the rule-number extraction lost its way"
    headings = set(re.findall(r"^(\d{1,2}(?:\.\d{1,2}){1,3})\s+\S", text, re.M))
    missing = sorted(n for n in cites if n not in headings)
    assert not missing, f"the manual cites rules that are not numbered sections of the rules text: {missing}"


# ---------------------------------------------------------------- chapter 13's deliberate typo


def test_the_deliberate_typo_gives_the_quoted_error(tmp_path):
    """Chapter 13: 9 -> 9x in GE-5Pz's cf; `dfd validate` fails with the lines the manual quotes.
    Done on a copy of the project's code and data (the repository's files are never touched)."""
    text = _text()
    i = text.index("A typing mistake is caught")
    body = next(b for lang, b, end in blocks() if lang == "text" and end > i)
    expect = [ln.strip() for ln in body.splitlines() if ln.strip() and "…" not in ln]
    assert any("GE-5Pz" in ln for ln in expect)
    copy = tmp_path / "dfd"
    for d in ("core", "app", "resources", "scenarios"):
        shutil.copytree(ROOT / d, copy / d, ignore=shutil.ignore_patterns("__pycache__", "*.png"))
    csv = copy / "resources" / "counters" / "axis.csv"
    lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    n = next(k for k, ln in enumerate(lines) if ln.startswith("GE-5Pz,"))
    cells = lines[n].rstrip("\n").split(",")
    col = header.index("cf")
    assert cells[col] == "9", "the manual's example assumes 5 Pz has CF 9 in the shipped data"
    assert n + 1 == 3, "the manual quotes 'axis.csv line 3'"
    cells[col] = "9x"
    lines[n] = ",".join(cells) + "\n"
    csv.write_text("".join(lines), encoding="utf-8")
    env = _env(tmp_path)
    env["PYTHONPATH"] = str(copy)
    r = subprocess.run([sys.executable, "-m", "app.cli", "validate"], cwd=copy, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    got = {ln.strip() for ln in r.stdout.splitlines()}
    for line in expect:
        assert line in got, f"the manual quotes {line!r}; dfd validate printed:\n{r.stdout}"
