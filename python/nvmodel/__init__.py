"""nvmodel: a functional model of the NVIDIA GPU front end, from Python.

A thin layer over the C library (``include/nvmodel/*.h``): open a GPU of a
chip profile, read and write its registers and memory, back its memory with
buffers you own (zero copy), run it in virtual time, receive its events in
callbacks, read what its engines received, assemble or decode
pushbuffers, build channels with the library's set-up helpers
(:mod:`nvmodel.setup`) and save or restore the whole GPU
(:meth:`Gpu.snapshot`, :meth:`Gpu.restore`). Errors raise :class:`NvmError`,
which carries the library's status. See docs/python.md.

    with nvmodel.Gpu("gv100") as gpu:
        sysmem = bytearray(1 << 20)
        gpu.map("sysmem", 0, sysmem)        # the model reads and writes it in place
        gpu.write_reg(0x2270, 0)
        print(gpu.run(10_000))
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, Union

from . import _nvmodel

__all__ = [
    "Gpu",
    "NvmError",
    "Event",
    "Method",
    "Chip",
    "EVENT_TYPES",
    "VRAM",
    "SYSMEM",
    "version",
    "chips",
    "pb_asm",
    "pb_decode",
    "SnapshotInfo",
    "snapshot_info",
    "OK",
    "ERR_ARG",
    "ERR_CHIP",
    "ERR_RANGE",
    "ERR_NOMEM",
    "ERR_APERTURE",
    "ERR_ALIGN",
    "ERR_NOENT",
    "ERR_BLOCKED",
    "ERR_FAULT",
    "ERR_NOPTR",
    "ERR_BUSY",
    "ERR_FULL",
    "ERR_VERSION",
    "ERR_CORRUPT",
    "setup",
]

#: nvm_status failures: ``err.status`` is the C status number,
#: ``err.status_name`` its name ("address out of range", ...), ``str(err)``
#: says which call or object failed.
NvmError = _nvmodel.NvmError
# The extension raises it with args (message, status, status name); these
# name them (typed in _nvmodel.pyi).
setattr(NvmError, "status", property(lambda self: self.args[1] if len(self.args) > 1 else None))
setattr(NvmError, "status_name", property(lambda self: self.args[2] if len(self.args) > 2 else None))
setattr(
    NvmError,
    "__str__",
    lambda self: f"{self.args[0]}: {self.args[2]}" if len(self.args) > 2 else str(self.args[0] if self.args else ""),
)

# nvm_status values (NvmError.status): OK, ERR_ARG, ERR_CHIP, ERR_RANGE,
# ERR_NOMEM, ERR_APERTURE, ERR_ALIGN, ERR_NOENT, ERR_BLOCKED, ERR_FAULT,
# ERR_NOPTR, ERR_BUSY, ERR_FULL, ERR_VERSION, ERR_CORRUPT.
from ._nvmodel import (  # noqa: E402
    ERR_ALIGN,
    ERR_APERTURE,
    ERR_ARG,
    ERR_BLOCKED,
    ERR_BUSY,
    ERR_CHIP,
    ERR_CORRUPT,
    ERR_FAULT,
    ERR_FULL,
    ERR_NOENT,
    ERR_NOMEM,
    ERR_NOPTR,
    ERR_RANGE,
    ERR_VERSION,
    OK,
)

VRAM = "vram"
SYSMEM = "sysmem"
Aperture = Union[str, int]

#: Event types, in the order of nvm_event_type.
EVENT_TYPES = ("guest_error", "unmodelled", "interrupt", "fault", "method", "mmio", "trace")


class Event(NamedTuple):
    """One nvm_event: what a hook receives."""

    type: str
    time_ns: int
    block: str
    code: str
    addr: int
    value: int
    message: str


class Method(NamedTuple):
    """One method an engine received (nvm_method)."""

    time_ns: int
    chid: int
    subch: int
    cls: int
    method: int
    data: int
    ctx: int
    implicit: bool


class Chip(NamedTuple):
    """A chip profile (nvm_chip_info)."""

    name: str
    family: str
    boot_0: int
    vram_max: int
    sysmem_max: int
    blocks: str


def version() -> str:
    """The library's version ("0.1.0")."""
    return _nvmodel.version()


def chips() -> List[Chip]:
    """Every chip profile the library has."""
    return [Chip(*c) for c in _nvmodel.chips()]


def pb_asm(text: str, chip: str = "gv100", format: Optional[str] = None) -> bytes:
    """Assembles `nvmodel pb asm` text into pushbuffer bytes (little-endian
    words). format: "new" (Fermi+), "old" (NV04..G80) or None for the chip's."""
    return _nvmodel.pb_asm(text, chip, format)


def pb_decode(
    data: Union[bytes, bytearray, memoryview], chip: str = "gv100", format: Optional[str] = None, style: str = "text"
) -> str:
    """Decodes pushbuffer bytes as `nvmodel pb decode` prints them; style
    "text", "json" (JSON Lines), "mesa" or "asm"."""
    return _nvmodel.pb_decode(bytes(data), chip, format, style)


class SnapshotInfo(NamedTuple):
    """What a snapshot says of itself (nvm_snapshot_info): enough to open the
    Gpu to restore it into (chip, sizes, how many ranges you must map)."""

    format: int
    version: str
    chip: str
    time_ns: int
    vram_size: int
    sysmem_size: int
    vram_pages: int
    sysmem_pages: int
    vram_ranges: int
    sysmem_ranges: int
    sections: int


def snapshot_info(data: Union[bytes, bytearray, memoryview]) -> SnapshotInfo:
    """Reads a snapshot's header and checks every section's length and CRC,
    without a GPU (nvm_snapshot_peek). NvmError ERR_CORRUPT or ERR_VERSION as
    :meth:`Gpu.restore` would say."""
    return SnapshotInfo(*_nvmodel.snapshot_info(data))


def _mask(events: Union[str, Iterable[str]]) -> int:
    names = [events] if isinstance(events, str) else list(events)
    mask = 0
    for n in names:
        if n == "all":
            return (1 << len(EVENT_TYPES)) - 1
        if n not in EVENT_TYPES:
            raise ValueError(f"unknown event type {n!r} (one of {', '.join(EVENT_TYPES)}, all)")
        mask |= 1 << EVENT_TYPES.index(n)
    return mask


class Gpu(_nvmodel.Gpu):
    """A simulated GPU (nvm_open). A context manager: ``with Gpu("gv100") as g``.

    chip: a name of :func:`chips` (default gv100); vram_size / sysmem_size:
    bytes, 0 for the chip's maximum; mem_budget: bytes of host memory the
    model's own pages may use (0: no bound).
    """

    def __init__(self, chip: str = "gv100", *, vram_size: int = 0, sysmem_size: int = 0, mem_budget: int = 0):
        super().__init__(chip, vram_size, sysmem_size, mem_budget)

    def __enter__(self) -> "Gpu":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- registers (BAR0)
    def read_reg(self, addr: int) -> int:
        """A 32-bit BAR0 register."""
        return self.reg_read(addr)

    def write_reg(self, addr: int, value: int) -> None:
        self.reg_write(addr, value & 0xFFFFFFFF)

    # -- memory
    def read(self, aperture: Aperture, addr: int, length: int) -> bytes:
        """Bytes of an aperture ("vram" or "sysmem")."""
        return self.mem_read(aperture, addr, length)

    def write(self, aperture: Aperture, addr: int, data: Union[bytes, bytearray, memoryview]) -> None:
        self.mem_write(aperture, addr, data)

    def rd32(self, aperture: Aperture, addr: int) -> int:
        return int.from_bytes(self.mem_read(aperture, addr, 4), "little")

    def wr32(self, aperture: Aperture, addr: int, value: int) -> None:
        self.mem_write(aperture, addr, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    def map(self, aperture: Aperture, addr: int, buffer: Any) -> memoryview:
        """Backs [addr, addr + len(buffer)) of the aperture with a writable
        buffer you own (bytearray, mmap, array, numpy...): the model reads
        and writes it in place, with no copy either way. addr and the length
        are multiples of 4 KiB. Returns a memoryview of it. The buffer is
        held until unmap or close. After writing it yourself while a channel
        waits on a semaphore there, call :meth:`written`."""
        super().map(aperture, addr, buffer)
        return memoryview(buffer)

    def map_io(
        self,
        aperture: Aperture,
        addr: int,
        size: int,
        read: Callable[[int, int], bytes],
        write: Callable[[int, bytes], None],
    ) -> None:
        """Backs [addr, addr + size) with callbacks, for memory you cannot
        hand over as a buffer (an emulator's guest RAM): read(addr, n) returns
        n bytes, write(addr, data) stores them; addr is the aperture address.
        An exception in a callback fails the access and is raised by the call
        that made it (run, read, write...)."""
        super().map_io(aperture, addr, size, read, write)

    def map_new(self, aperture: Aperture, addr: int, size: int) -> memoryview:
        """A fresh zeroed bytearray of size bytes, mapped at addr."""
        return self.map(aperture, addr, bytearray(size))

    # -- running
    def run(self, ns: int, until_idle: bool = True, max_events: int = 0) -> str:
        """Runs ns of virtual time (until every block is idle, by default).
        Returns "idle", "budget" (time ran out), "hang" (the work budget ran
        out first: a loop) or "stopped" (a hook called stop). An exception
        raised by a hook stops the run and is raised here."""
        return super().run(ns, until_idle, max_events)

    def on(self, events: Union[str, Iterable[str]], fn: Callable[[Event], None]) -> int:
        """Calls fn(Event) for each event of the given types ("all", or names
        of EVENT_TYPES). Returns an id for :meth:`off`."""
        return self.hook_add(_mask(events), lambda *a: fn(Event(*a)))

    def off(self, hook_id: int) -> None:
        self.hook_del(hook_id)

    def events(self, type: str) -> int:
        """How many events of a type the GPU emitted since open."""
        return self.event_count(EVENT_TYPES.index(type))

    # -- method logs
    def method_log(self, engine: str, first: int = 0, max: int = 4096) -> List[Method]:
        """The methods an engine ("gr", "grce", "ce2"... on the Host;
        "pgraph"... on PFIFO chips) received, oldest first."""
        records, _ = self.log_read(engine, first, max)
        return [Method(*r) for r in records]

    def method_total(self, engine: str) -> int:
        """How many methods the engine received since open."""
        return self.log_read(engine, 0, 0)[1]

    def method_log_config(self, engine: str, cap: int) -> None:
        self.log_config(engine, cap)

    def method_log_clear(self, engine: str) -> None:
        self.log_clear(engine)

    # -- snapshots
    def snapshot(self) -> bytes:
        """The whole GPU's state as bytes (nvm_snapshot_save): registers,
        every block, the engines and their method logs, pending events,
        virtual time and the model's own memory. Memory you mapped (map,
        map_io) is yours: the snapshot records only where it is. Not from a
        hook (NvmError ERR_BUSY); ERR_NOENT when a block of this chip cannot
        be saved."""
        return super().snapshot()

    def restore(self, data: Union[bytes, bytearray, memoryview]) -> None:
        """Loads a snapshot into this GPU, which must be of the same chip and
        memory sizes with the same ranges mapped (nvm_snapshot_load). A run
        continued from it is the same as the run that was saved. NvmError:
        ERR_CHIP (another chip), ERR_VERSION (another format or library
        version), ERR_ARG (other sizes or mapped ranges), ERR_CORRUPT
        (truncated or damaged); a refused snapshot changes nothing."""
        super().restore(data)

    @classmethod
    def from_snapshot(
        cls, data: Union[bytes, bytearray, memoryview], prepare: Optional[Callable[["Gpu"], None]] = None
    ) -> "Gpu":
        """A new Gpu of the snapshot's chip and sizes (:func:`snapshot_info`)
        with the snapshot restored. prepare(gpu), when given, runs before the
        restore: map the ranges the snapshot expects there (your copies)."""
        info = snapshot_info(data)
        gpu = cls(info.chip, vram_size=info.vram_size, sysmem_size=info.sysmem_size)
        try:
            if prepare is not None:
                prepare(gpu)
            gpu.restore(data)
        except BaseException:
            gpu.close()
            raise
        return gpu

    def save(self, path: Union[str, "os.PathLike[str]"]) -> int:
        """Writes :meth:`snapshot` to a file; returns its size."""
        data = self.snapshot()
        with open(path, "wb") as f:
            f.write(data)
        return len(data)

    def load(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """:meth:`restore` from a file written by :meth:`save`."""
        with open(path, "rb") as f:
            self.restore(f.read())


# The channel set-up helpers (nvmodel/setup.h): nvmodel.setup.
from . import setup  # noqa: E402
