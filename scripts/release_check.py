#!/usr/bin/env python3
"""The release check: clean clone -> README's two commands -> validate -> autoplay every scenario ->
replay --verify each -> benchmarks -> build the package.  Prints one summary table.

    python3 scripts/release_check.py [--write docs/release-check.md] [--skip-package] [--max-decisions N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sh(cmd: list[str], cwd: Path, timeout: int = 3600, env: dict | None = None) -> tuple[int, str, float]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen", **(env or {})))
    return r.returncode, (r.stdout + r.stderr), time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", type=Path, help="also write the summary (Markdown) to this file")
    ap.add_argument("--skip-package", action="store_true")
    ap.add_argument("--max-decisions", type=int, default=300_000)
    args = ap.parse_args()

    rows: list[tuple[str, str, str, str]] = []

    def add(step: str, ok: bool, secs: float, note: str) -> None:
        rows.append((step, "PASS" if ok else "FAIL", f"{secs:.1f}", note.replace("|", "/")))
        print(f"{'PASS' if ok else 'FAIL'} {step} ({secs:.1f} s) {note}", flush=True)

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="dfd-release-") as tmp:
        clone = Path(tmp) / "clone"
        code, out, secs = sh(["git", "clone", "--quiet", str(ROOT), str(clone)], Path(tmp))
        add("clean clone", code == 0, secs, commit)
        code, out, secs = sh([sys.executable, "scripts/bootstrap.py", "setup"], clone)
        add("README command 1: set-up (launch skipped, no screen)", code == 0, secs, ".venv + Qt libraries")
        code, out, secs = sh([sys.executable, "scripts/bootstrap.py", "test", "-q"], clone)
        tail = [ln for ln in out.splitlines() if " passed" in ln or " failed" in ln]
        failed = [ln.split(" - ")[0].replace("FAILED ", "") for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        note = tail[-1].strip("= ") if tail else out[-200:]
        add("README command 2: test suite", code == 0, secs, note + (f"; failed: {', '.join(failed)}" if failed else ""))
        dfd = str(clone / ".venv" / "bin" / "dfd")
        code, out, secs = sh([dfd, "validate"], clone)
        add("dfd validate", code == 0, secs, out.strip().splitlines()[-1] if out.strip() else "")
        code, out, _ = sh([dfd, "scenarios"], clone)
        scenarios = [ln.split()[0] for ln in out.splitlines() if ln.strip()]
        for sc in scenarios:
            f = Path(tmp) / f"{sc}.dfd"
            code, out, secs = sh([dfd, "autoplay", sc, "--seed", "1", "--bot", "random", "-o", str(f),
                                  "--max-decisions", str(args.max_decisions)], clone)
            try:
                doc = json.loads(out.strip().splitlines()[-1])
                note = f"{doc['decisions']} decisions, ended GT {doc['gt']}: {doc['result'].get('text', '')}"
                note = note[:110]
            except (ValueError, IndexError, KeyError):
                doc, note = None, out.strip()[-150:]
            add(f"autoplay {sc}", code == 0 and doc is not None, secs, note)
            code, out, secs = sh([dfd, "replay", str(f), "--verify"], clone)
            add(f"replay --verify {sc}", code == 0, secs, out.strip().splitlines()[-1] if out.strip() else "")
        code, out, secs = sh([str(clone / ".venv" / "bin" / "python"), "-m", "benchmarks"], clone)
        add("benchmarks", code == 0 and "FAILED" not in out, secs, f"{len(out.splitlines()) - 2} measures")
        bench_table = out
        if not args.skip_package:
            code, out, secs = sh([str(clone / ".venv" / "bin" / "python"), "packaging/build.py"], clone)
            smoke = [ln for ln in out.splitlines() if ln.startswith(("ok   dfd", "FAIL dfd"))]
            add("package build + smoke start", code == 0, secs,
                "; ".join(ln.split(":")[0] for ln in smoke) or (out.strip().splitlines()[-1] if out.strip() else ""))

    ok = all(r[1] == "PASS" for r in rows)
    lines = [f"# Release check ({time.strftime('%Y-%m-%d')}, commit {commit})", "",
             f"Overall: **{'PASS' if ok else 'FAIL'}**", "", "| step | result | seconds | note |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    lines += ["", "## Benchmarks", "", "```", bench_table.strip(), "```", ""]
    text = "\n".join(lines)
    print()
    print(text)
    if args.write:
        args.write.write_text(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
