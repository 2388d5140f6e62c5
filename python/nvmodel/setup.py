"""nvmodel.setup: the library's channel set-up helpers (include/nvmodel/setup.h),
what a driver writes to start a channel, done once in C for every program
that embeds the model (the Lua builders use the same code).

Host generations (gv100, tu102, ga100, ga102, gh100)::

    heap = setup.Heap(setup.VID, 0x100000, 64 << 20)   # a bump allocator in VRAM
    setup.host_init(gpu)
    vm = setup.GmmuVm(gpu, heap)                       # page tables in the chip's format
    sem_va, sem = vm.alloc_map(4096)                   # a page mapped at the next VA
    ch = setup.HostChannel(vm, chid=1, runlist=0)      # instance block, USERD, ring, pushbuffer
    setup.submit(gpu, heap, 0, [ch])                   # a runlist of one TSG holding it
    ch.push(words)                                     # pushbuffer segment, GP entry, doorbell

PFIFO generations: :class:`Nv04Fifo` (NV04..NV4x: RAMHT, RAMFC, DMA objects,
DMA channels, PIO), :class:`Nv03Fifo` (NV01, NV03: RAMHT, PIO),
:class:`G80Fifo` and :class:`G80Channel` (G80..GT215: channel structures,
DMA objects, IB or DMA-mode channels, the playlist); the G80 VM as nouveau's
nv50 code sets it up: :class:`G80Vm` (a channel structure, its page
directory and page tables), :func:`g80_bar_setup` (BAR1 and BAR3).

Every object keeps the Gpu it was made for and refuses to work once it is
closed (ValueError). A helper's failure raises :class:`nvmodel.NvmError`
with its status (ERR_FULL for a full heap or ring, ERR_CHIP for a chip the
helper does not know, ...). Places are :class:`Place` (target, addr);
targets are the NV_MMU target encodings (:class:`Target`), and arguments
take a Target, its number or its name ("vid", "sys_coh", "sys_ncoh").
"""
from __future__ import annotations

import enum
from typing import List, NamedTuple, Sequence, Tuple, Union

from . import _nvmodel

__all__ = [
    "Target",
    "VID",
    "SYS_COH",
    "SYS_NCOH",
    "Place",
    "Heap",
    "GmmuVm",
    "HostChannel",
    "HostInfo",
    "RunlistSpace",
    "host_info",
    "host_init",
    "runlist_space",
    "instance_write",
    "gp_entry",
    "gp_control",
    "gmmu_pte_ver2",
    "tsg",
    "chan",
    "runlist_write",
    "runlist_submit",
    "runlist_pending",
    "submit",
    "Nv04Fifo",
    "Nv03Fifo",
    "G80Fifo",
    "G80Channel",
    "G80Vm",
    "g80_chan_desc",
    "g80_pte",
    "g80_pde",
    "g80_bar_setup",
]


class Target(enum.IntEnum):
    """nvm_mmu_target: NV_RAMIN_PAGE_DIR_BASE_TARGET / PTE APERTURE."""

    VID = 0
    PEER = 1
    SYS_COH = 2
    SYS_NCOH = 3


VID, SYS_COH, SYS_NCOH = Target.VID, Target.SYS_COH, Target.SYS_NCOH

#: An address in an aperture (nvm_place): ``Place(target, addr)``.
Place = _nvmodel.Place
#: ``Heap(target, base, size)``: a bump allocator (nvm_heap); ``alloc(size, align=4096)``.
Heap = _nvmodel.Heap
#: ``GmmuVm(gpu, heap, va_base=2**32)``: GMMU page tables (nvm_gmmu_vm).
GmmuVm = _nvmodel.GmmuVm
#: ``HostChannel(vm, heap=None, *, chid, ...)``: a Host channel (nvm_channel_create).
HostChannel = _nvmodel.HostChannel
#: ``Nv04Fifo(gpu)``: PFIFO of NV04..NV4x (nvm_nv04_fifo_init).
Nv04Fifo = _nvmodel.Nv04Fifo
#: ``Nv03Fifo(gpu)``: PFIFO of NV01/NV03 (nvm_nv03_fifo_init).
Nv03Fifo = _nvmodel.Nv03Fifo
#: ``G80Fifo(gpu)``: PFIFO of G80..GT215 (nvm_g80_fifo_init).
G80Fifo = _nvmodel.G80Fifo
#: ``G80Channel(fifo, chid, *, ib=True, ib_order=9, pb_aperture="sysmem", vm=False)``.
G80Channel = _nvmodel.G80Channel
#: ``G80Vm(gpu, addr, target=VID, *, objects=None, heap=None)``: a G80 channel
#: structure with its page directory and page tables (nvm_g80_vmb).
G80Vm = _nvmodel.G80Vm
g80_chan_desc = _nvmodel.g80_chan_desc
g80_pte = _nvmodel.g80_pte
g80_pde = _nvmodel.g80_pde
g80_bar_setup = _nvmodel.g80_bar_setup


class HostInfo(NamedTuple):
    """What the helpers know of a Host generation (nvm_setup_host_info)."""

    name: str
    nrunlist: int
    nchid: int
    ramfc_userd: bool
    per_runlist_chram: bool
    subdevice: int


class RunlistSpace(NamedTuple):
    """An Ampere/Hopper runlist's registers (nvm_runlist_space)."""

    base: int
    chram: int
    dbid: int


def host_info(gpu: _nvmodel.Gpu) -> HostInfo:
    """The gpu's Host generation; NvmError ERR_CHIP for a chip without one."""
    return HostInfo(*_nvmodel.host_info(gpu))


def host_init(gpu: _nvmodel.Gpu) -> None:
    """The driver's once-per-GPU writes before the first channel."""
    _nvmodel.host_init(gpu)


def runlist_space(gpu: _nvmodel.Gpu, runlist: int) -> RunlistSpace:
    """An Ampere/Hopper runlist's register space (the device-info table)."""
    return RunlistSpace(*_nvmodel.runlist_space(gpu, runlist))


instance_write = _nvmodel.instance_write
gp_entry = _nvmodel.gp_entry
gp_control = _nvmodel.gp_control
gmmu_pte_ver2 = _nvmodel.gmmu_pte_ver2
runlist_write = _nvmodel.runlist_write
runlist_submit = _nvmodel.runlist_submit
runlist_pending = _nvmodel.runlist_pending

RunlistEntry = Union[_nvmodel.HostChannel, Tuple[str, int, int, object, object]]


def tsg(tsgid: int, length: int = 1, timeout: int = 128, scale: int = 3) -> Tuple[str, int, int, int, int]:
    """A TSG header runlist entry for :func:`runlist_write` (timeout 128 and
    scale 3 are nouveau's)."""
    return ("tsg", tsgid, length, timeout, scale)


PlaceLike = Sequence[int]  # a Place or any (target, addr)


def chan(chid: int, runq: int, inst: PlaceLike, userd: PlaceLike) -> Tuple[str, int, int, PlaceLike, PlaceLike]:
    """A channel runlist entry for :func:`runlist_write` (a HostChannel
    itself is one too)."""
    return ("chan", chid, runq, inst, userd)


def submit(
    gpu: _nvmodel.Gpu, heap: _nvmodel.Heap, runlist: int, channels: Sequence[_nvmodel.HostChannel], tsgid: int = 1
) -> _nvmodel.Place:
    """Writes a runlist of one TSG (tsgid) holding channels to heap, submits
    it as runlist id runlist and marks the channels submitted on it. Returns
    where the runlist is."""
    entries: List[RunlistEntry] = [tsg(tsgid, len(channels))]
    entries.extend(channels)
    rl = runlist_write(gpu, heap, entries)
    runlist_submit(gpu, runlist, rl, len(entries))
    for c in channels:
        c.submitted = runlist
    return rl
