"""LAN discovery with python-zeroconf (mDNS/DNS-SD).

A host announces service type ``_dfd._tcp.local.`` with TXT records:

====== =========================================================
``v``   protocol version (``1``)
``c``   campaign name
``fp``  the host key's fingerprint (:func:`net.keys.fingerprint`)
``key`` the host's CURVE public key (Z85)
====== =========================================================

Anyone on the LAN can announce anything, so a discovered service is
**untrusted** until its key matches one the player already trusts (from a
join code, or a fingerprint the player compared with the host's screen).
Even then, the CURVE handshake is what proves the host holds that key: a
spoofed announcement with a trusted key cannot complete the handshake.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from net import keys as keymod
from net.protocol import SERVICE_TYPE, VERSION


@dataclass(frozen=True)
class Service:
    instance: str              # the mDNS instance name
    campaign: str
    server: str                # the mDNS host name
    addresses: tuple[str, ...]
    port: int
    version: int
    fingerprint: str
    key: str                   # the announced public key ("" if absent or malformed)

    @property
    def consistent(self) -> bool:
        """The announced key is well formed and its fingerprint is the one announced."""
        return bool(self.key) and keymod.fingerprint(self.key) == self.fingerprint

    @property
    def compatible(self) -> bool:
        return self.version == VERSION

    def trusted(self, known: Iterable[str] = ()) -> bool:
        """True only if the announced key is one the player already trusts (a key or a fingerprint)."""
        if not self.consistent:
            return False
        known = set(known)
        return self.key in known or self.fingerprint in known

    def join_code(self) -> str:
        return keymod.join_code(self.addresses[0] if self.addresses else self.server.rstrip("."), self.port, self.key)


def _txt(props: dict) -> dict[str, str]:
    out = {}
    for k, v in (props or {}).items():
        try:
            out[k.decode() if isinstance(k, bytes) else str(k)] = (v or b"").decode() if isinstance(v, (bytes, type(None))) else str(v)
        except UnicodeDecodeError:
            continue
    return out


def _service(info, instance: str) -> Service | None:
    if info is None or not info.port:
        return None
    t = _txt(info.properties)
    try:
        version = int(t.get("v", "0"))
    except ValueError:
        version = 0
    key = t.get("key", "")
    if not keymod.is_public_key(key):
        key = ""
    addrs = tuple(info.parsed_addresses()) if hasattr(info, "parsed_addresses") else ()
    return Service(instance=instance, campaign=t.get("c", "")[:200], server=info.server or "", addresses=addrs,
                   port=int(info.port), version=version, fingerprint=t.get("fp", "")[:64], key=key)


class Advertiser:
    """Announce a hosted campaign on the LAN until :meth:`stop`."""

    def __init__(self, campaign: str, port: int, public_key: str, addresses: list[str] | None = None,
                 interfaces=None):
        self.campaign = campaign
        self.port = port
        self.key = keymod.check_public_key(public_key, "host key")
        self.addresses = addresses
        self.interfaces = interfaces
        self._zc = None
        self._info = None

    def start(self) -> None:
        from zeroconf import InterfaceChoice, ServiceInfo, Zeroconf

        addrs = self.addresses or [a for a in [_lan_address()] if a] or ["127.0.0.1"]
        host = socket.gethostname().split(".")[0] or "dfd-host"
        safe = "".join(ch if ch.isalnum() or ch in " -_" else "-" for ch in self.campaign)[:40] or "campaign"
        name = f"{safe} on {host} ({keymod.fingerprint(self.key)[:9]}).{SERVICE_TYPE}"
        self._info = ServiceInfo(
            SERVICE_TYPE, name, addresses=[socket.inet_aton(a) for a in addrs], port=self.port,
            properties={"v": str(VERSION), "c": self.campaign[:200], "fp": keymod.fingerprint(self.key),
                        "key": self.key},
            server=f"{host}.local.",
        )
        self._zc = Zeroconf(interfaces=self.interfaces or InterfaceChoice.All)
        self._zc.register_service(self._info, allow_name_change=True)

    def stop(self) -> None:
        if self._zc is not None:
            try:
                self._zc.unregister_service(self._info)
            finally:
                self._zc.close()
                self._zc = None


class Browser:
    """Watch the LAN for hosted campaigns; ``on_change(services)`` is called from zeroconf's thread."""

    def __init__(self, on_change: Callable[[list[Service]], None] | None = None, interfaces=None):
        self.on_change = on_change
        self.interfaces = interfaces
        self.services: dict[str, Service] = {}
        self._lock = threading.Lock()
        self._zc = None
        self._browser = None

    def start(self) -> "Browser":
        from zeroconf import InterfaceChoice, ServiceBrowser, ServiceStateChange, Zeroconf

        self._zc = Zeroconf(interfaces=self.interfaces or InterfaceChoice.All)

        def handler(zeroconf, service_type, name, state_change):  # noqa: ANN001 - zeroconf's signature
            if state_change is ServiceStateChange.Removed:
                with self._lock:
                    self.services.pop(name, None)
            else:
                info = zeroconf.get_service_info(service_type, name, timeout=2000)
                svc = _service(info, name)
                if svc is None:
                    return
                with self._lock:
                    self.services[name] = svc
            if self.on_change:
                self.on_change(self.list())

        self._browser = ServiceBrowser(self._zc, SERVICE_TYPE, handlers=[handler])
        return self

    def list(self) -> list[Service]:
        with self._lock:
            return sorted(self.services.values(), key=lambda s: (s.campaign, s.instance))

    def stop(self) -> None:
        if self._browser is not None:
            self._browser.cancel()
        if self._zc is not None:
            self._zc.close()
            self._zc = None


def browse(seconds: float = 3.0, interfaces=None) -> list[Service]:
    """Hosted campaigns seen on the LAN within ``seconds`` (every result untrusted until its key is checked)."""
    b = Browser(interfaces=interfaces).start()
    try:
        time.sleep(seconds)
        return b.list()
    finally:
        b.stop()


def _lan_address() -> str | None:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()
