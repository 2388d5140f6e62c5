# Type stub of the extension nvmodel._nvmodel (python/_nvmodel.c,
# python/_setup.c). The package (nvmodel, nvmodel.setup) wraps it; a test
# (python/tests/test_stub.py) checks this file names what the module has.
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

Buffer = Union[bytes, bytearray, memoryview]
Words = Union[bytes, bytearray, memoryview, Sequence[int]]
ApertureArg = Union[str, int]
TargetArg = Union[str, int]
PlaceArg = Union["Place", Tuple[TargetArg, int]]

OK: int
ERR_ARG: int
ERR_CHIP: int
ERR_RANGE: int
ERR_NOMEM: int
ERR_APERTURE: int
ERR_ALIGN: int
ERR_NOENT: int
ERR_BLOCKED: int
ERR_FAULT: int
ERR_NOPTR: int
ERR_BUSY: int
ERR_FULL: int
ERR_VERSION: int
ERR_CORRUPT: int

class NvmError(Exception):
    # set by the nvmodel package: the nvm_status number and its name
    status: Optional[int]
    status_name: Optional[str]

def version() -> str: ...
def chips() -> List[Tuple[str, str, int, int, int, str]]: ...
def pb_asm(text: str, chip: str = ..., format: Optional[str] = ...) -> bytes: ...
def pb_decode(data: Buffer, chip: str = ..., format: Optional[str] = ..., style: str = ...) -> str: ...
def snapshot_info(data: Buffer) -> Tuple[int, str, str, int, int, int, int, int, int, int, int]: ...

class Gpu:
    def __init__(
        self, chip: Optional[str] = ..., vram_size: int = ..., sysmem_size: int = ..., mem_budget: int = ...
    ) -> None: ...
    def close(self) -> None: ...
    def chip(self) -> str: ...
    def reg_read(self, addr: int) -> int: ...
    def reg_write(self, addr: int, value: int) -> None: ...
    def reg_name(self, addr: int) -> Optional[str]: ...
    def mem_read(self, ap: ApertureArg, addr: int, length: int) -> bytes: ...
    def mem_write(self, ap: ApertureArg, addr: int, data: Buffer) -> None: ...
    def mem_size(self, ap: ApertureArg) -> int: ...
    def mem_pages(self, ap: ApertureArg) -> int: ...
    def map(self, ap: ApertureArg, addr: int, buffer: Any) -> Any: ...
    def map_io(
        self,
        ap: ApertureArg,
        addr: int,
        size: int,
        read: Callable[[int, int], bytes],
        write: Callable[[int, bytes], None],
    ) -> None: ...
    def unmap(self, ap: ApertureArg, addr: int) -> None: ...
    def written(self, ap: ApertureArg, addr: int, length: int) -> None: ...
    def hook_add(self, mask: int, fn: Callable[..., None]) -> int: ...
    def hook_del(self, hook_id: int) -> None: ...
    def run(self, ns: int, until_idle: bool = ..., max_events: int = ...) -> str: ...
    def stop(self) -> None: ...
    def time_ns(self) -> int: ...
    def idle(self) -> bool: ...
    def intr_line(self) -> bool: ...
    def event_count(self, type: int) -> int: ...
    def log_config(self, engine: str, cap: int) -> None: ...
    def log_read(
        self, engine: str, first: int = ..., max: int = ...
    ) -> Tuple[List[Tuple[int, int, int, int, int, int, int, bool]], int]: ...
    def log_clear(self, engine: str) -> None: ...
    def snapshot(self) -> bytes: ...
    def restore(self, data: Buffer) -> None: ...

# ---------------------------------------------------------------- set-up helpers

class Place(Tuple[int, int]):
    @property
    def target(self) -> int: ...
    @property
    def addr(self) -> int: ...
    def __new__(cls, sequence: Tuple[TargetArg, int]) -> "Place": ...

class Heap:
    target: int
    base: int
    size: int
    next: int
    def __init__(self, target: TargetArg, base: int, size: int) -> None: ...
    def alloc(self, size: int, align: int = ...) -> int: ...
    def place(self, addr: int) -> Place: ...

class GmmuVm:
    pdb: Place
    ver3: bool
    next_va: int
    footprint: int
    heap: Heap
    def __init__(self, gpu: Gpu, heap: Heap, va_base: int = ...) -> None: ...
    def map(
        self,
        va: int,
        target: TargetArg,
        pa: int,
        size: int,
        *,
        page: int = ...,
        kind: int = ...,
        vol: bool = ...,
        priv: bool = ...,
        ro: bool = ...,
        atomic_disable: bool = ...,
    ) -> None: ...
    def alloc_map(
        self,
        size: int,
        heap: Optional[Heap] = ...,
        *,
        page: int = ...,
        kind: int = ...,
        vol: bool = ...,
        priv: bool = ...,
        ro: bool = ...,
        atomic_disable: bool = ...,
    ) -> Tuple[int, Place]: ...
    def conflict(self, va: int, size: int, page: int = ...) -> Optional[int]: ...
    def lookup(self, va: int) -> Tuple[Place, int]: ...
    def write(self, va: int, data: Buffer) -> None: ...
    def read(self, va: int, n: int) -> bytes: ...

class HostChannel:
    chid: int
    runq: int
    runlist: int
    submitted: int
    inst: Place
    userd: Place
    gpfifo: Place
    gpfifo_va: int
    gpfifo_entries: int
    pb: Place
    pb_va: int
    pb_size: int
    pb_next: int
    put: int
    def __init__(
        self,
        vm: GmmuVm,
        heap: Optional[Heap] = ...,
        *,
        chid: int = ...,
        runq: int = ...,
        runlist: int = ...,
        gpfifo_entries: int = ...,
        pb_size: int = ...,
        userd_heap: Optional[Heap] = ...,
        priv: bool = ...,
        replay: bool = ...,
        subdevice: int = ...,
        subcontexts: int = ...,
        bind: bool = ...,
        enable: bool = ...,
    ) -> None: ...
    def bind(self) -> None: ...
    def enable(self) -> None: ...
    def disable(self) -> None: ...
    def kick(self) -> None: ...
    def userd_rd32(self, off: int) -> int: ...
    def for_gpu(self, gpu: Gpu) -> "HostChannel": ...
    def push_entry(self, e0: int, e1: int, kick: bool = ...) -> int: ...
    def push(
        self,
        data: Words,
        kick: bool = ...,
        *,
        fetch_conditional: bool = ...,
        priv: bool = ...,
        subroutine: bool = ...,
        sync: bool = ...,
    ) -> Tuple[int, int]: ...

def host_info(gpu: Gpu) -> Tuple[str, int, int, bool, bool, int]: ...
def host_init(gpu: Gpu) -> None: ...
def runlist_space(gpu: Gpu, runlist: int) -> Tuple[int, int, int]: ...
def instance_write(
    gpu: Gpu,
    inst: PlaceArg,
    *,
    pdb: PlaceArg = ...,
    userd: PlaceArg = ...,
    gpfifo_va: int = ...,
    gpfifo_entries: int = ...,
    chid: int = ...,
    priv: bool = ...,
    subdevice: int = ...,
    replay: bool = ...,
    vol: int = ...,
    subcontexts: int = ...,
    ctx_valid: bool = ...,
) -> None: ...
def gp_entry(
    va: int, ndwords: int, *, fetch_conditional: bool = ..., priv: bool = ..., subroutine: bool = ..., sync: bool = ...
) -> Tuple[int, int]: ...
def gp_control(opcode: int, operand: int = ..., sync: bool = ...) -> Tuple[int, int]: ...
def gmmu_pte_ver2(
    target: TargetArg,
    pa: int,
    *,
    kind: int = ...,
    vol: bool = ...,
    priv: bool = ...,
    ro: bool = ...,
    atomic_disable: bool = ...,
) -> int: ...
def runlist_write(gpu: Gpu, heap: Heap, entries: Sequence[Any]) -> Place: ...
def runlist_submit(gpu: Gpu, runlist: int, rl: PlaceArg, length: int) -> None: ...
def runlist_pending(gpu: Gpu, runlist: int) -> bool: ...

class Nv04Fifo:
    chip: str
    ramht: int
    ramht_bits: int
    ramro: int
    ramfc: int
    ramfc_size: int
    nchan: int
    large: int
    nv40: int
    next: int
    def __init__(self, gpu: Gpu) -> None: ...
    def alloc(self, size: int, align: int = ...) -> int: ...
    def dmaobj(
        self, start: int, limit: int, *, target: int = ..., access: int = ..., class_id: int = ..., inst: Optional[int] = ...
    ) -> int: ...
    def object(self, class_id: int) -> int: ...
    def ramht_add(self, chid: int, handle: int, inst: int, engine: int = ...) -> int: ...
    def ramfc_set(self, chid: int, name: str, value: int) -> None: ...
    def dma_channel(self, chid: int, pushbuf_inst: int, offset: int = ..., big_endian: bool = ...) -> None: ...
    def user(self, chid: int) -> int: ...
    def kick(self, chid: int, put: int) -> None: ...
    def pio(self, chid: int, subch: int, method: int, data: int) -> None: ...
    def for_gpu(self, gpu: Gpu) -> "Nv04Fifo": ...

class Nv03Fifo:
    chip: str
    ramht: int
    ramht_size: int
    ramro: int
    ramfc: int
    bar: int
    def __init__(self, gpu: Gpu) -> None: ...
    def ramin_wr(self, addr: int, value: int) -> None: ...
    def ramin_rd(self, addr: int) -> int: ...
    def context(self, type: int, instance: int, engine: int = ..., flags: int = ...) -> int: ...
    def ramht_add(self, chid: int, handle: int, context: int) -> int: ...
    def pio(self, chid: int, subch: int, method: int, data: int) -> None: ...
    def for_gpu(self, gpu: Gpu) -> "Nv03Fifo": ...

class G80Fifo:
    chip: str
    g84: int
    nchannels: int
    channels: List[int]
    def __init__(self, gpu: Gpu) -> None: ...
    def commit(self) -> None: ...
    def for_gpu(self, gpu: Gpu) -> "G80Fifo": ...

class G80Channel:
    chid: int
    base: int
    ramfc: int
    cache: int
    next: int
    pb: int
    pb_put: int
    pb_aperture: str
    ib: int
    ib_addr: int
    ib_put: int
    order: int
    va_off: int
    def __init__(
        self,
        fifo: G80Fifo,
        chid: int,
        *,
        ib: bool = ...,
        ib_order: int = ...,
        pb_aperture: ApertureArg = ...,
        vm: bool = ...,
    ) -> None: ...
    def alloc(self, size: int) -> int: ...
    def ramht_add(self, handle: int, sel: int, engine: int = ...) -> int: ...
    def dmaobj(
        self,
        *,
        cls: int = ...,
        target: int = ...,
        ro: int = ...,
        us: int = ...,
        storage_type: int = ...,
        comp: int = ...,
        supervisor: int = ...,
        base: int = ...,
        limit: int = ...,
        tag_base: int = ...,
        tag_limit: int = ...,
        comp_base: int = ...,
        part_cycle: int = ...,
        encrypt: int = ...,
        off: Optional[int] = ...,
        handle: Optional[int] = ...,
    ) -> int: ...
    def object(self, class_id: int, handle: int, engine: int = ...) -> int: ...
    def write(self, words: Words) -> int: ...
    def ib_entry(self, addr: int, nwords: int, not_main: bool = ...) -> None: ...
    def kick(self) -> None: ...
    def push(self, words: Words) -> None: ...
    def for_fifo(self, fifo: G80Fifo) -> "G80Channel": ...

class G80Vm:
    desc: int
    footprint: int
    def __init__(
        self, gpu: Gpu, addr: int, target: TargetArg = ..., *, objects: Optional[int] = ..., heap: Optional[int] = ...
    ) -> None: ...
    def dmaobj(
        self,
        *,
        cls: int = ...,
        target: int = ...,
        ro: int = ...,
        us: int = ...,
        storage_type: int = ...,
        comp: int = ...,
        supervisor: int = ...,
        base: int = ...,
        limit: int = ...,
        tag_base: int = ...,
        tag_limit: int = ...,
        comp_base: int = ...,
        part_cycle: int = ...,
        encrypt: int = ...,
        sel: Optional[int] = ...,
    ) -> int: ...
    def map(
        self,
        virt: int,
        lin: int,
        size: int,
        *,
        page: int = ...,
        entries: int = ...,
        contig: bool = ...,
        target: TargetArg = ...,
        ro: bool = ...,
        supervisor: bool = ...,
        storage: int = ...,
        comp: int = ...,
        tag: int = ...,
        long_cycle: bool = ...,
        encrypted: bool = ...,
    ) -> None: ...
    def unmap(self, virt: int, size: int, page: int = ...) -> None: ...
    def pt(self, index: int) -> Optional[Tuple[int, int, int]]: ...

def g80_chan_desc(addr: int, target: TargetArg = ...) -> int: ...
def g80_pte(
    addr: int,
    *,
    contig: int = ...,
    target: TargetArg = ...,
    ro: bool = ...,
    supervisor: bool = ...,
    storage: int = ...,
    comp: int = ...,
    tag: int = ...,
    long_cycle: bool = ...,
    encrypted: bool = ...,
) -> int: ...
def g80_pde(page: int, entries: int, addr: int, target: TargetArg = ...) -> int: ...
def g80_bar_setup(gpu: Gpu, mem: int, bar1_size: int, bar3_size: int) -> Tuple[G80Vm, int, int]: ...
