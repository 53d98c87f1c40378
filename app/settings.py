"""User settings, persisted as JSON in the platformdirs config directory.

``DFD_CONFIG_DIR`` / ``DFD_DATA_DIR`` override the directories (tests, portable
installs).  Hotseat passwords are stored salted and hashed, never in clear.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs

APP = "dfd"

DEFAULT_LAYERS = {
    "terrain": True, "grid": True, "labels": True, "names": True, "roads": True,
    "counters": True, "control": False, "highlights": True, "sheets": True, "scan": True,
}


def config_dir() -> Path:
    d = os.environ.get("DFD_CONFIG_DIR")
    return Path(d) if d else Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    d = os.environ.get("DFD_DATA_DIR")
    return Path(d) if d else Path(platformdirs.user_data_dir(APP, appauthor=False))


@dataclass
class Settings:
    layers: dict[str, bool] = field(default_factory=lambda: dict(DEFAULT_LAYERS))
    recent: list[str] = field(default_factory=list)
    hotseat: bool = True
    auto_pass: bool = True                                     # hotseat: pass steps with nothing to decide
    passwords: dict[str, str] = field(default_factory=dict)   # side -> "salt$sha256"
    sound: bool = False
    rules_text: str = ""
    geometry: str = ""
    window_state: str = ""
    zoom: float = 0.0
    last_dir: str = ""
    player_name: str = ""                                      # LAN: the name this player goes by
    lan_port: int = 0                                          # LAN: the port last hosted on
    trusted_hosts: list[str] = field(default_factory=list)     # LAN: host keys the player confirmed
    scans: list[dict] = field(default_factory=list)            # background scans: {"path", "points": [[u, v, hex]]}
    scan_opacity: float = 0.6
    computer_speed: str = "normal"                             # the computer's moves: instant / normal / slow
    computer_setting: str = "quick"                            # the computer's play: quick / thoughtful

    # ------------------------------------------------------------------ persistence
    @classmethod
    def path(cls) -> Path:
        return config_dir() / "settings.json"

    @classmethod
    def load(cls) -> "Settings":
        p = cls.path()
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        s = cls()
        for k, v in raw.items():
            if hasattr(s, k) and isinstance(v, type(getattr(s, k))):
                setattr(s, k, v)
        s.layers = {**DEFAULT_LAYERS, **s.layers}
        return s

    def save(self) -> None:
        p = self.path()
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, sort_keys=True), encoding="utf-8")
        tmp.replace(p)

    # ------------------------------------------------------------------ helpers
    def add_recent(self, path: Path | str) -> None:
        s = str(Path(path).resolve())
        self.recent = [s] + [r for r in self.recent if r != s]
        self.recent = self.recent[:10]

    def set_password(self, side: str, password: str) -> None:
        if not password:
            self.passwords.pop(side, None)
            return
        salt = secrets.token_hex(8)
        self.passwords[side] = f"{salt}${hashlib.sha256((salt + password).encode()).hexdigest()}"

    def check_password(self, side: str, password: str) -> bool:
        stored = self.passwords.get(side)
        if not stored:
            return True
        salt, _, digest = stored.partition("$")
        return hashlib.sha256((salt + password).encode()).hexdigest() == digest
