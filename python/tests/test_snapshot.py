"""Snapshots through the binding (Gpu.snapshot / restore / save / load): a
GPU saved mid-run and restored into a second Gpu of the same chip continues
exactly as the first (method logs, events, semaphores, time), and a snapshot
of another chip or version, truncated or damaged raises NvmError with the
library's status and changes nothing.

The round trips need every block of the chip to save its state (issue 22
item 3): where a block cannot be saved yet, snapshot() raises NvmError
ERR_NOENT and those tests skip, saying so."""
import struct

import pytest

import nvmodel
from nvmodel import setup

MAGIC = b"NVMSNAP\x1a"
FORMAT = 1


def name16(s):
    return s.encode().ljust(16, b"\x00")


def header(chip, fmt=FORMAT, version=None):
    """The snapshot header (src/core/snap.c): magic, format, library
    version, chip."""
    return MAGIC + struct.pack("<I", fmt) + name16(version or nvmodel.version()) + name16(chip)


def snapshot_or_skip(gpu):
    try:
        return gpu.snapshot()
    except nvmodel.NvmError as e:
        if e.status == nvmodel.ERR_NOENT:
            pytest.skip(f"a block of {gpu.chip()} cannot be saved yet (snapshot: ERR_NOENT)")
        raise


def inc(subch, method, *data):
    return [0x20000000 | len(data) << 16 | subch << 13 | method >> 2, *data]


def old_inc(subch, method, *data):
    return [len(data) << 18 | subch << 13 | method, *data]


def sem_op(va, payload, operation):
    """C36F SEM_ADDR_LO/HI, SEM_PAYLOAD_LO/HI, SEM_EXECUTE (0 ACQUIRE, 1 RELEASE)."""
    return inc(0, 0x5C, va & 0xFFFFFFFF, va >> 32, payload, 0) + inc(0, 0x6C, operation)


# Each scenario builds a channel on a fresh Gpu with work queued, and says
# how to open its twin (the same chip, sizes and mapped ranges) and how to
# finish the work (the driver's side after the snapshot).


class Scenario:
    """A Gpu of the scenario's chip and sizes; with owns_sysmem, 1 MiB of
    system memory is the driver's bytearray (a copy of mem for a twin)."""

    vram = sysmem = 64 << 20
    owns_sysmem = False

    def open(self, mem=None, chip=None, vram=None):
        gpu = nvmodel.Gpu(chip or self.chip, vram_size=vram or self.vram, sysmem_size=self.sysmem)
        if not self.owns_sysmem:
            return gpu, None
        mem = bytearray(mem) if mem is not None else bytearray(1 << 20)
        gpu.map("sysmem", 0, mem)
        return gpu, mem


class HostScenario(Scenario):
    """gv100 (or a later Host): GR methods in two segments, a semaphore
    acquire that blocks until the driver writes its own memory, releases."""

    owns_sysmem = True

    def __init__(self, chip):
        self.chip = chip

    def build(self):
        gpu, mem = self.open()
        heap = setup.Heap(setup.VID, 0x100000, 32 << 20)
        setup.host_init(gpu)
        vm = setup.GmmuVm(gpu, heap)
        self.sem_va, _ = vm.alloc_map(4096, setup.Heap(setup.SYS_COH, 0x3000, 0x1000))
        ch = setup.HostChannel(vm, chid=3, runlist=0, gpfifo_entries=32)
        setup.submit(gpu, heap, 0, [ch])
        ch.push(inc(1, 0, 0xC397) + [w for i in range(64) for w in inc(1, 0x200 + 4 * (i % 16), i)])
        ch.push(sem_op(self.sem_va + 0x10, 1, 1) + sem_op(self.sem_va + 0x20, 7, 0) + sem_op(self.sem_va + 0x30, 9, 1))
        ch.push([w for i in range(64) for w in inc(1, 0x300, i)])
        self.handle = ch
        return gpu, mem

    def twin_handle(self, twin):
        return self.handle.for_gpu(twin)

    def more(self, gpu, ch):
        """Work pushed after the snapshot, through the channel's state."""
        ch.push([w for i in range(32) for w in inc(1, 0x400, 1000 + i)] + sem_op(self.sem_va + 0x38, 0x77, 1))
        return gpu.run(2_000_000)

    def finish(self, gpu, mem):
        gpu.run(2_000_000)
        struct.pack_into("<I", mem, 0x3020, 7)  # the driver releases the acquire
        gpu.written("sysmem", 0x3020, 4)
        return gpu.run(2_000_000)

    def results(self, gpu, mem):
        return bytes(mem[0x3000:0x3040]), gpu.method_log("gr", 0, 1 << 16)


class Nv40Scenario(Scenario):
    """nv40 DMA channel: PGRAPH methods around a PFIFO semaphore acquire
    that waits for the driver, then a release."""

    chip = "nv40"
    vram = sysmem = 16 << 20

    def build(self):
        gpu, _ = self.open()
        fifo = setup.Nv04Fifo(gpu)
        pb = fifo.dmaobj(0x100000, 0x1FFFFF)
        sem = fifo.dmaobj(0x300000, 0x300FFF, class_id=0x02, access=2)
        fifo.ramht_add(1, 0xBEEF, fifo.object(0x4097), engine=1)
        fifo.ramht_add(1, 0x5E3, sem, engine=0)
        fifo.dma_channel(1, pb)
        # Methods, an acquire of 1 at +0x10 (memory holds 0: it waits), more
        # methods, a release of 0xCAFE at +0x20.
        words = old_inc(0, 0, 0xBEEF) + [w for i in range(100) for w in old_inc(0, 0x300 + 4 * (i % 8), i)]
        words += old_inc(0, 0x60, 0x5E3) + old_inc(0, 0x64, 0x10) + old_inc(0, 0x68, 1)
        words += [w for i in range(100) for w in old_inc(0, 0x300 + 4 * (i % 8), 100 + i)]
        words += old_inc(0, 0x64, 0x20) + old_inc(0, 0x6C, 0xCAFE)
        gpu.write("sysmem", 0x100000, struct.pack("<%dI" % len(words), *words))
        fifo.kick(1, 4 * len(words))
        self.handle, self.put = fifo, 4 * len(words)
        return gpu, None

    def twin_handle(self, twin):
        return self.handle.for_gpu(twin)

    def more(self, gpu, fifo):
        words = [w for i in range(50) for w in old_inc(0, 0x300 + 4 * (i % 8), 1000 + i)]
        gpu.write("sysmem", 0x100000 + self.put, struct.pack("<%dI" % len(words), *words))
        fifo.kick(1, self.put + 4 * len(words))
        return gpu.run(5_000_000)

    def finish(self, gpu, mem):
        gpu.run(1_000_000)
        gpu.wr32("sysmem", 0x300010, 1)  # the acquire's value
        return gpu.run(5_000_000)

    def results(self, gpu, mem):
        return gpu.rd32("sysmem", 0x300020), gpu.method_log("pgraph", 0, 1 << 16)


class G84Scenario(Scenario):
    """g84 IB channel: PGRAPH methods in several IB entries around an
    acquire that waits for the driver, then a release."""

    chip = "g84"

    def build(self):
        gpu, _ = self.open()
        fifo = self.fifo = setup.G80Fifo(gpu)
        ch = setup.G80Channel(fifo, 1)
        ch.object(0x8297, 0xBEEF0001)
        ch.dmaobj(cls=0x3D, target=2, base=0x800000, limit=0x800FFF, handle=0x5E3)
        ch.push(old_inc(1, 0, 0xBEEF0001))
        for k in range(2):
            ch.push([w for i in range(50) for w in old_inc(1, 0x300 + 4 * (i % 8), k * 100 + i)])
        # An acquire of 1 at +0x10 (memory holds 0: it waits), then more.
        ch.push(old_inc(0, 0x60, 0x5E3) + old_inc(0, 0x64, 0x10) + old_inc(0, 0x68, 1))
        for k in range(2, 4):
            ch.push([w for i in range(50) for w in old_inc(1, 0x300 + 4 * (i % 8), k * 100 + i)])
        ch.push(old_inc(0, 0x64, 0x20) + old_inc(0, 0x6C, 0xD00D))
        self.handle = ch
        return gpu, None

    def twin_handle(self, twin):
        return self.handle.for_fifo(self.handle_fifo(twin))

    def handle_fifo(self, twin):
        # The fifo's plain state for the twin (the playlist as the driver knows it).
        return setup.G80Fifo.for_gpu(self.fifo, twin)

    def more(self, gpu, ch):
        ch.push([w for i in range(50) for w in old_inc(1, 0x300 + 4 * (i % 8), 1000 + i)])
        return gpu.run(5_000_000)

    def finish(self, gpu, mem):
        gpu.run(1_000_000)
        gpu.wr32("sysmem", 0x800010, 1)  # the acquire's value
        return gpu.run(5_000_000)

    def results(self, gpu, mem):
        return gpu.rd32("sysmem", 0x800020), gpu.method_log("pgraph", 0, 1 << 16)


SCENARIOS = {
    "gv100": HostScenario("gv100"),
    "tu102": HostScenario("tu102"),
    "nv40": Nv40Scenario(),
    "g84": G84Scenario(),
}
# A chip of the same family each scenario's snapshot must not load into.
OTHER_CHIP = {"gv100": "tu102", "tu102": "gv100", "nv40": "nv41", "g84": "g92"}
# Virtual ns after which each scenario is mid-pushbuffer, its channel
# waiting on an acquire with methods still to come (checked below, so that
# the round trip cannot pass vacuously).
PARTIAL_NS = 3_000


def traced(gpu):
    trace = []
    gpu.on("all", lambda ev: trace.append(ev))
    return trace


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_work_is_mid_run_at_the_snapshot_point(name):
    """The scenarios stop mid-pushbuffer at PARTIAL_NS (without a snapshot:
    this holds whether or not the chip can be saved yet)."""
    sc = SCENARIOS[name]
    gpu, mem = sc.build()
    with gpu:
        gpu.run(PARTIAL_NS, until_idle=False)
        sem_before, log_before = sc.results(gpu, mem)
        assert sc.finish(gpu, mem) == "idle"
        sem_after, log_after = sc.results(gpu, mem)
        assert 0 < len(log_before) < len(log_after) and log_after[: len(log_before)] == log_before
        assert sem_after != sem_before  # the release after the acquire landed


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_restored_twin_continues_the_same(name):
    """Snapshot mid-run, restore into a second Gpu of the same chip (with a
    copy of the memory the driver owns), continue both (the driver releases
    the acquire, then pushes more work through its channel state, for_gpu on
    the twin): the same methods, events, semaphores and time."""
    sc = SCENARIOS[name]
    gpu, mem = sc.build()
    with gpu:
        gpu.run(PARTIAL_NS, until_idle=False)
        data = snapshot_or_skip(gpu)
        assert data[:8] == MAGIC
        twin, twin_mem = sc.open(mem)
        with twin:
            twin.restore(data)
            assert twin.time_ns() == gpu.time_ns()
            assert sc.results(twin, twin_mem) == sc.results(gpu, mem)
            t1, t2 = traced(gpu), traced(twin)
            assert sc.finish(gpu, mem) == sc.finish(twin, twin_mem)
            assert t1 == t2 and len(t1) > 0
            assert sc.results(twin, twin_mem) == sc.results(gpu, mem)
            # More work on both, through the driver's state for the twin.
            n = len(sc.results(gpu, mem)[1])
            twin_handle = sc.twin_handle(twin)  # the driver's state as it was, before more work
            assert sc.more(gpu, sc.handle) == sc.more(twin, twin_handle) == "idle"
            assert t1 == t2
            assert sc.results(twin, twin_mem) == sc.results(gpu, mem)
            assert len(sc.results(gpu, mem)[1]) > n
            assert twin.time_ns() == gpu.time_ns()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_snapshot_files_and_a_refused_load_changes_nothing(name, tmp_path):
    sc = SCENARIOS[name]
    gpu, mem = sc.build()
    with gpu:
        gpu.run(PARTIAL_NS, until_idle=False)
        data = snapshot_or_skip(gpu)
        path = tmp_path / (name + ".nvmsnap")
        assert gpu.save(path) == len(data) == path.stat().st_size
        info = nvmodel.snapshot_info(path.read_bytes())
        assert (info.chip, info.version, info.time_ns) == (sc.chip, nvmodel.version(), gpu.time_ns())
        assert (info.vram_size, info.sysmem_size) == (sc.vram, sc.sysmem)
        assert info.sysmem_ranges == (1 if sc.owns_sysmem else 0) and info.sections > 0
        twin, twin_mem = sc.open(mem)
        with twin:
            twin.load(path)
            assert twin.snapshot() == data
            for bad, status in (
                (data[:-1], nvmodel.ERR_CORRUPT),  # truncated
                (data[: len(data) // 2], nvmodel.ERR_CORRUPT),
                (data[:200] + bytes([data[200] ^ 0x40]) + data[201:], nvmodel.ERR_CORRUPT),  # a flipped bit
                (data[:-9] + bytes([data[-9] ^ 1]) + data[-8:], nvmodel.ERR_CORRUPT),  # in the last section
                (data + b"\x00", nvmodel.ERR_CORRUPT),  # bytes after the end
            ):
                with pytest.raises(nvmodel.NvmError) as e:
                    twin.restore(bad)
                assert e.value.status == status
            assert twin.snapshot() == data  # nothing changed
            other, _ = sc.open(mem, chip=OTHER_CHIP[name])
            with other:
                with pytest.raises(nvmodel.NvmError) as e:
                    other.restore(data)
                assert e.value.status == nvmodel.ERR_CHIP
            # Other memory sizes: refused as an argument error.
            small, _ = sc.open(mem, vram=sc.vram // 2)
            with small:
                with pytest.raises(nvmodel.NvmError) as e:
                    small.restore(data)
                assert e.value.status == nvmodel.ERR_ARG


def test_foreign_and_damaged_headers():
    """Checked before any block: these run whatever the chip can save."""
    with nvmodel.Gpu("gv100") as gpu:
        t0 = gpu.time_ns()
        cases = [
            (header("tu102"), nvmodel.ERR_CHIP),
            (header("gv100", fmt=FORMAT + 1), nvmodel.ERR_VERSION),
            (header("gv100", version="0.0.0-other"), nvmodel.ERR_VERSION),
            (header("gv100"), nvmodel.ERR_CORRUPT),  # nothing after the header
            (header("gv100")[:20], nvmodel.ERR_CORRUPT),  # truncated header
            (b"", nvmodel.ERR_CORRUPT),
            (b"not a snapshot at all" * 4, nvmodel.ERR_CORRUPT),
        ]
        for data, status in cases:
            with pytest.raises(nvmodel.NvmError) as e:
                gpu.restore(bytearray(data))
            assert e.value.status == status, data[:40]
            if data == header("gv100"):  # a well-formed container, with no sections
                assert nvmodel.snapshot_info(data).sections == 0
            elif status != nvmodel.ERR_CHIP:  # peek has no GPU to compare the chip with
                with pytest.raises(nvmodel.NvmError) as e:
                    nvmodel.snapshot_info(data)
                assert e.value.status == status, data[:40]
            assert e.value.status_name == {
                nvmodel.ERR_CHIP: "unknown chip",
            }.get(status, e.value.status_name)
        assert gpu.time_ns() == t0
        gpu.write_reg(0x2270, 0)  # the GPU still works
    with pytest.raises(ValueError):
        gpu.restore(header("gv100"))  # closed
    with pytest.raises(ValueError):
        gpu.snapshot()


def test_snapshot_from_a_hook_is_refused():
    sc = SCENARIOS["gv100"]
    gpu, mem = sc.build()
    with gpu:
        seen = []

        def hook(ev):
            if not seen:
                try:
                    gpu.snapshot()
                except nvmodel.NvmError as e:
                    seen.append(e.status)

        gpu.on("method", hook)
        gpu.run(1_000_000)
        assert seen == [nvmodel.ERR_BUSY]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_gpu_from_snapshot(name):
    """Gpu.from_snapshot opens the snapshot's chip and sizes; prepare maps
    the driver's memory first where the scenario owns some."""
    sc = SCENARIOS[name]
    gpu, mem = sc.build()
    with gpu:
        gpu.run(PARTIAL_NS, until_idle=False)
        data = snapshot_or_skip(gpu)
        copy = bytearray(mem) if mem is not None else None
        prepare = (lambda g: g.map("sysmem", 0, copy)) if copy is not None else None
        with nvmodel.Gpu.from_snapshot(data, prepare) as twin:
            assert twin.chip() == sc.chip and twin.time_ns() == gpu.time_ns()
            assert sc.finish(twin, copy) == sc.finish(gpu, mem) == "idle"
            assert sc.results(twin, copy) == sc.results(gpu, mem)
        if copy is not None:
            with pytest.raises(nvmodel.NvmError) as e:
                nvmodel.Gpu.from_snapshot(data)  # the driver's range is not mapped
            assert e.value.status == nvmodel.ERR_ARG
