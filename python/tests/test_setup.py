"""The channel set-up helpers through the binding (nvmodel.setup): real
channels on every Host generation and on the PFIFO generations, built with
the helpers alone, whose methods reach the engines (the method log) and
whose semaphore releases land in memory; and the helpers' errors."""
import os
import struct
import sys

import pytest

import nvmodel
from nvmodel import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import setup_channels  # noqa: E402  (the example, on every Host chip)

HOST_CHIPS = ["gv100", "tu102", "ga100", "ga102", "gh100"]


def inc(subch, method, *data):
    """A Fermi+ incrementing method header (SEC_OP INC_METHOD) and its data."""
    return [0x20000000 | len(data) << 16 | subch << 13 | method >> 2, *data]


def old_inc(subch, method, *data):
    """An NV04..G80 incrementing header: COUNT 28:18, SUBCHANNEL 15:13, METHOD 12:2."""
    return [len(data) << 18 | subch << 13 | method, *data]


def release(va, payload):
    """SEM_ADDR_LO/HI, SEM_PAYLOAD_LO/HI, SEM_EXECUTE RELEASE (host class C36F+)."""
    return inc(0, 0x5C, va & 0xFFFFFFFF, va >> 32, payload, 0) + inc(0, 0x6C, 0x100001)


def host_channel(gpu, chid=1, userd_target=setup.VID):
    heap = setup.Heap(setup.VID, 0x100000, 64 << 20)
    uheap = setup.Heap(userd_target, 0x200000, 1 << 20)
    setup.host_init(gpu)
    vm = setup.GmmuVm(gpu, heap, 0x100000000)
    ch = setup.HostChannel(vm, chid=chid, runlist=0, gpfifo_entries=16, userd_heap=uheap)
    return heap, vm, ch


@pytest.mark.parametrize("chip", HOST_CHIPS)
def test_host_channel_runs_on_every_generation(chip):
    with nvmodel.Gpu(chip, vram_size=256 << 20, sysmem_size=256 << 20) as gpu:
        info = setup.host_info(gpu)
        assert info.name == chip and info.nchid > 1
        heap, vm, ch = host_channel(gpu)
        assert vm.ver3 == (chip == "gh100")
        assert vm.heap is heap
        sem_va, sem = vm.alloc_map(4096)
        assert sem.target == setup.VID and vm.lookup(sem_va) == (sem, 4096)
        rl = setup.submit(gpu, heap, 0, [ch], tsgid=3)
        assert rl.target == setup.VID and ch.submitted == 0
        assert gpu.run(1_000_000) == "idle"
        assert setup.runlist_pending(gpu, 0) is False
        words = inc(0, 0x50, 0x77) + inc(1, 0x000, 0xC397) + inc(1, 0x200, 7, 8) + release(sem_va, 0xA100)
        index, va = ch.push(words)
        assert (index, va, ch.put) == (0, ch.pb_va, 1)
        assert gpu.run(1_000_000) == "idle"
        assert gpu.rd32("vram", sem.addr) == 0xA100
        assert vm.read(sem_va, 4) == struct.pack("<I", 0xA100)
        gr = [(m.chid, m.subch, m.cls, m.method, m.data) for m in gpu.method_log("gr")]
        assert gr == [(1, 1, 0xC397, 0x200, 7), (1, 1, 0xC397, 0x204, 8)]
        # A second segment follows the first in the pushbuffer area.
        index, va = ch.push(inc(1, 0x208, 9))
        assert (index, va) == (1, ch.pb_va + 4 * len(words))
        assert gpu.run(1_000_000) == "idle"
        assert gpu.method_log("gr")[-1].data == 9
        ch.disable()


@pytest.mark.parametrize("chip", ["gv100", "tu102", "ga100"])
def test_host_channel_in_memory_python_owns(chip):
    """Page tables, instance block, USERD, ring and pushbuffer in a bytearray
    mapped as system memory: the semaphore lands in the bytearray."""
    with nvmodel.Gpu(chip) as gpu:
        sysmem = gpu.map_new("sysmem", 0, 4 << 20)
        heap = setup.Heap("sys_coh", 0x1000, (4 << 20) - 0x1000)
        setup.host_init(gpu)
        vm = setup.GmmuVm(gpu, heap)
        sem_va, sem = vm.alloc_map(4096)
        ch = setup.HostChannel(vm, chid=2, runlist=0, gpfifo_entries=8, pb_size=4096)
        assert ch.userd.target == setup.SYS_COH and ch.inst.target == setup.SYS_COH
        setup.submit(gpu, heap, 0, [ch])
        ch.push(release(sem_va, 0xC0FFEE))
        assert gpu.run(1_000_000) == "idle"
        assert struct.unpack_from("<I", sysmem, sem.addr)[0] == 0xC0FFEE
        assert gpu.mem_pages("sysmem") == 0  # nothing in the model's own pages


def test_host_channel_by_hand():
    """The lower-level calls: gp_entry, push_entry, runlist_write of explicit
    entries, instance_write."""
    with nvmodel.Gpu("gv100", vram_size=256 << 20) as gpu:
        heap, vm, ch = host_channel(gpu, chid=4)
        rl = setup.runlist_write(gpu, heap, [setup.tsg(1), setup.chan(ch.chid, ch.runq, ch.inst, ch.userd)])
        setup.runlist_submit(gpu, 0, rl, 2)
        ch.submitted = 0
        assert gpu.run(1_000_000) == "idle"
        va, _ = vm.alloc_map(4096)
        words = inc(1, 0, 0xC397) + inc(1, 0x300, 0x1234)
        vm.write(va, struct.pack("<%dI" % len(words), *words))
        e0, e1 = setup.gp_entry(va, len(words))
        assert (e0, e1) == (va & 0xFFFFFFFC, (va >> 32) | len(words) << 10)
        assert ch.push_entry(e0, e1) == 0
        assert gpu.run(1_000_000) == "idle"
        assert gpu.method_log("gr")[-1][4:6] == (0x300, 0x1234)
        assert ch.userd_rd32(0x88) == 1  # NV_RAMUSERD_GP_GET
        assert setup.gp_control(0, 5) == (5, 0)
        # A fresh instance block the model's layout accepts.
        inst = heap.alloc(4096)
        setup.instance_write(gpu, (setup.VID, inst), pdb=vm.pdb, userd=ch.userd, gpfifo_va=ch.gpfifo_va,
                             gpfifo_entries=16, chid=9)
        assert gpu.rd32("vram", inst + 0x10) == 0x0000FACE  # RAMFC SIGNATURE


def test_setup_errors():
    with nvmodel.Gpu("gv100", vram_size=256 << 20) as gpu:
        with pytest.raises(nvmodel.NvmError) as e:
            setup.Heap(setup.VID, 0, 0)
        assert e.value.status == nvmodel.ERR_ARG
        small = setup.Heap(setup.VID, 0x100000, 0x2000)
        small.alloc(0x1000)
        with pytest.raises(nvmodel.NvmError) as e:
            small.alloc(0x2000)
        assert e.value.status == nvmodel.ERR_FULL and small.next == 0x101000
        with pytest.raises(ValueError):
            setup.Heap("hbm", 0, 4096)
        with pytest.raises(nvmodel.NvmError) as e:
            setup.gp_entry(0x1002, 1)
        assert e.value.status == nvmodel.ERR_ALIGN
        heap, vm, ch = host_channel(gpu)
        with pytest.raises(nvmodel.NvmError) as e:
            setup.runlist_submit(gpu, 13, (setup.VID, 0), 1)
        assert e.value.status == nvmodel.ERR_ARG
        # The ring (16 entries) fills when Host is not running it.
        for _ in range(15):
            ch.push_entry(*setup.gp_control(0, 0), kick=False)
        with pytest.raises(nvmodel.NvmError) as e:
            ch.push_entry(*setup.gp_control(0, 0))
        assert e.value.status == nvmodel.ERR_FULL
        with pytest.raises(TypeError):
            setup.HostChannel(vm)  # chid is required
        with pytest.raises(ValueError):
            ch.push(b"\x00\x00\x00")
        with pytest.raises(nvmodel.NvmError) as e:
            setup.Nv04Fifo(gpu)
        assert e.value.status == nvmodel.ERR_CHIP
    with pytest.raises(ValueError):
        ch.kick()  # the GPU is closed
    with nvmodel.Gpu("nv04") as gpu:
        with pytest.raises(nvmodel.NvmError) as e:
            setup.GmmuVm(gpu, setup.Heap(setup.VID, 0, 1 << 20))
        assert e.value.status == nvmodel.ERR_CHIP
        with pytest.raises(nvmodel.NvmError) as e:
            setup.host_info(gpu)
        assert e.value.status == nvmodel.ERR_CHIP


def test_nv04_dma_channel():
    """NV04: a DMA object over system memory as the pushbuffer, an object in
    RAMHT, a DMA channel; the methods reach PGRAPH with the object's class."""
    with nvmodel.Gpu("nv04", vram_size=16 << 20, sysmem_size=16 << 20) as gpu:
        fifo = setup.Nv04Fifo(gpu)
        assert fifo.chip == "nv04" and fifo.ramht == 0x10000
        pb = fifo.dmaobj(0x100000, 0x1FFFFF, target=2)
        gr = fifo.object(0x62)
        fifo.ramht_add(1, 0xBEEF, gr, engine=1)
        fifo.dma_channel(1, pb, offset=0x40)
        words = old_inc(0, 0, 0xBEEF) + old_inc(0, 0x300, 1, 2, 3)
        gpu.write("sysmem", 0x100040, struct.pack("<%dI" % len(words), *words))
        fifo.kick(1, 0x40 + 4 * len(words))
        assert gpu.run(1_000_000) == "idle"
        log = gpu.method_log("pgraph")
        assert [(m.chid, m.cls, m.method, m.data) for m in log[-3:]] == [
            (1, 0x62, 0x300, 1),
            (1, 0x62, 0x304, 2),
            (1, 0x62, 0x308, 3),
        ]
        assert gpu.read_reg(fifo.user(1) + 0x44) == 0x40 + 4 * len(words)  # DMA_GET
        # PIO on channel 2
        fifo.ramht_add(2, 0xF00D, gr)
        fifo.pio(2, 3, 0, 0xF00D)
        fifo.pio(2, 3, 0x400, 0x55)
        assert gpu.run(1_000_000) == "idle"
        assert gpu.method_log("pgraph")[-1][1:6] == (2, 3, 0x62, 0x400, 0x55)
        with pytest.raises(nvmodel.NvmError) as e:
            fifo.ramfc_set(1, "NO_SUCH_FIELD", 0)
        assert e.value.status == nvmodel.ERR_NOENT
        with pytest.raises(ValueError):
            fifo.pio(fifo.nchan, 0, 0, 0)


@pytest.mark.parametrize("chip", ["nv17", "nv40"])
def test_nv17_nv40_semaphore_release(chip):
    """The PFIFO semaphore of NV17+ through a helper-made DMA object (class
    0x02, write-only): the release lands in system memory."""
    with nvmodel.Gpu(chip, vram_size=16 << 20, sysmem_size=16 << 20) as gpu:
        fifo = setup.Nv04Fifo(gpu)
        pb = fifo.dmaobj(0x100000, 0x1FFFFF)
        sem = fifo.dmaobj(0x300000, 0x300FFF, class_id=0x02, access=2)
        fifo.ramht_add(1, 0x5E3, sem, engine=0)
        fifo.dma_channel(1, pb)
        words = old_inc(0, 0x60, 0x5E3) + old_inc(0, 0x64, 0x10) + old_inc(0, 0x6C, 0xCAFE)
        gpu.write("sysmem", 0x100000, struct.pack("<%dI" % len(words), *words))
        fifo.kick(1, 4 * len(words))
        assert gpu.run(1_000_000) == "idle"
        assert gpu.rd32("sysmem", 0x300010) == 0xCAFE


@pytest.mark.parametrize("mode", ["ib", "dma", "ib+vm"])
def test_g84_channel(mode):
    """G84: a channel in IB mode (the pushbuffer unpaged or through page
    tables) or DMA mode; its methods reach PGRAPH and its semaphore release
    (a DMA object the helper makes, with its RAMHT entry) lands."""
    with nvmodel.Gpu("g84", vram_size=256 << 20, sysmem_size=256 << 20) as gpu:
        fifo = setup.G80Fifo(gpu)
        assert fifo.g84
        ch = setup.G80Channel(fifo, 1, ib=mode != "dma", vm=mode == "ib+vm")
        assert fifo.channels == [1] and ch.ib == (mode != "dma")
        ch.object(0x8297, 0xBEEF0001, engine=1)
        ch.dmaobj(cls=0x3D, target=2, base=0x800000, limit=0x800FFF, handle=0x5E3)
        words = (
            old_inc(1, 0, 0xBEEF0001)
            + old_inc(1, 0x300, 1, 2, 3)
            + old_inc(0, 0x60, 0x5E3)
            + old_inc(0, 0x64, 0x20)
            + old_inc(0, 0x6C, 0xBEEF)
        )
        ch.push(words)
        assert gpu.run(1_000_000) == "idle"
        log = gpu.method_log("pgraph")
        assert [(m.chid, m.subch, m.cls, m.method, m.data) for m in log[-3:]] == [
            (1, 1, 0x8297, 0x300, 1),
            (1, 1, 0x8297, 0x304, 2),
            (1, 1, 0x8297, 0x308, 3),
        ]
        assert gpu.rd32("sysmem", 0x800020) == 0xBEEF
        if mode != "dma":
            assert ch.ib_put == 1


def test_g80_channel_by_parts():
    with nvmodel.Gpu("g84", vram_size=256 << 20, sysmem_size=256 << 20) as gpu:
        fifo = setup.G80Fifo(gpu)
        ch = setup.G80Channel(fifo, 2)
        gr = ch.object(0x8297, 0xBEEF0002)
        words = old_inc(1, 0, 0xBEEF0002) + old_inc(1, 0x400, 0x42)
        addr = ch.write(words)
        ch.ib_entry(addr, len(words))
        ch.kick()
        assert gpu.run(1_000_000) == "idle"
        assert gpu.method_log("pgraph")[-1][4:6] == (0x400, 0x42)
        assert gr > 0 and ch.next > 0
        with pytest.raises(ValueError):
            setup.G80Channel(fifo, 127)
        with pytest.raises(nvmodel.NvmError) as e:
            ch.alloc(0x10000)
        assert e.value.status == nvmodel.ERR_FULL


def test_nv03_pio():
    with nvmodel.Gpu("nv03") as gpu:
        fifo = setup.Nv03Fifo(gpu)
        ctx = fifo.context(0x42, 0x3410, engine=1)
        a = fifo.ramht_add(0, 0x80000000, ctx)
        assert fifo.ramin_rd(a) == 0x80000000
        fifo.ramht_add(0, 0x80000000, ctx)
        with pytest.raises(nvmodel.NvmError) as e:
            fifo.ramht_add(0, 0x80000000, ctx)  # the bucket holds two
        assert e.value.status == nvmodel.ERR_FULL
        fifo.pio(0, 0, 0, 0x80000000)
        fifo.pio(0, 0, 0x304, 0x1234)
        assert gpu.run(1_000_000) == "idle"
        assert gpu.method_log("pgraph")[-1][4:6] == (0x304, 0x1234)


def test_g80_vm_builder():
    """The G80 VM builder: page tables under the page directory, PTEs as
    seed 002 lays them out, a paged DMA object, BAR1/BAR3."""
    with nvmodel.Gpu("g84", vram_size=256 << 20, sysmem_size=256 << 20) as gpu:
        vm = setup.G80Vm(gpu, 0x200000)
        assert vm.desc == setup.g80_chan_desc(0x200000, setup.VID) == 0x200
        vm.map(0x10000000, 0x400000, 0x20000, target=setup.SYS_COH)
        addr, page, entries = vm.pt(0x10000000 >> 29)
        assert page == 0x1000 and vm.pt(5) is None
        # The PTE of the second page as the builder wrote it: a CONTIG block of
        # 32 pages (5 << 7), each PTE with the block's address.
        pte = setup.g80_pte(0x400000, target=setup.SYS_COH, contig=5)
        assert pte == 0x400000 | 2 << 4 | 5 << 7 | 1
        got = int.from_bytes(gpu.read("vram", addr + 8 * ((0x10001000 >> 12) & (entries - 1)), 8), "little")
        assert got == pte
        assert vm.dmaobj(cls=0x3D, target=0, limit=0xFFFFFFFF) > 0
        with pytest.raises(nvmodel.NvmError) as e:
            vm.map(0x10000800, 0, 0x1000)
        assert e.value.status == nvmodel.ERR_ALIGN
        with pytest.raises(TypeError):
            vm.dmaobj(colour=1)
        with pytest.raises(ValueError):
            vm.dmaobj(target=4)
        bar, sel1, sel3 = setup.g80_bar_setup(gpu, 0x800000, 1 << 20, 1 << 20)
        assert isinstance(bar, setup.G80Vm) and sel1 != sel3
        assert gpu.read_reg(0x1708) & 0xFFFF == sel1  # BAR1's DMA object
    with nvmodel.Gpu("gv100") as gpu:
        with pytest.raises(nvmodel.NvmError) as e:
            setup.G80Vm(gpu, 0)
        assert e.value.status == nvmodel.ERR_CHIP


@pytest.mark.parametrize("chip", ["gv100", "nv40", "g84"])
def test_hook_closing_the_gpu_inside_a_helper(chip):
    """A hook may close the GPU while a helper is between its library calls:
    the helper finishes on the GPU it started with, which is closed when it
    returns (the binding defers the close; a freed GPU is never used)."""
    gpu = nvmodel.Gpu(chip, vram_size=256 << 20, sysmem_size=256 << 20)
    calls = []

    def close(ev):
        calls.append(ev.addr)
        gpu.close()
        with pytest.raises(ValueError):
            gpu.read_reg(0)  # closed for Python at once

    gpu.on("all", close)
    with pytest.raises(ValueError):
        if chip == "gv100":
            heap = setup.Heap(setup.VID, 0x100000, 32 << 20)
            vm = setup.GmmuVm(gpu, heap)
            setup.HostChannel(vm, chid=1, runlist=0)
            setup.host_init(gpu)
            setup.submit(gpu, heap, 0, [])
        elif chip == "nv40":
            setup.Nv04Fifo(gpu)
        else:
            setup.G80Channel(setup.G80Fifo(gpu), 1)
        gpu.read_reg(0)
    assert calls, "no event reached the hook: the test proves nothing"
    with pytest.raises(ValueError):
        gpu.read_reg(0)


@pytest.mark.parametrize("host,nv,g80", [("gv100", "nv40", "g84"), ("tu102", "nv17", "g80"), ("ga100", "nv41", "g92"),
                                         ("ga102", "nv40", "gt215"), ("gh100", "nv17", "g84")])
def test_setup_channels_example(host, nv, g80, capsys):
    assert setup_channels.main(["setup_channels.py", host, nv, g80]) == 0
    out = capsys.readouterr().out
    assert "semaphore 0xcafe" in out and "semaphore 0xf00d" in out and "semaphore 0xd00d" in out


def test_for_gpu_copies_the_drivers_state():
    """for_gpu / for_fifo: the helper objects' plain state for another Gpu
    of the chip (what a driver keeps for a GPU restored from a snapshot);
    another chip is refused, a G80 channel with a VM cannot be copied."""
    with nvmodel.Gpu("gv100", vram_size=256 << 20) as a, nvmodel.Gpu("gv100", vram_size=256 << 20) as b:
        heap, vm, ch = host_channel(a)
        ch.push(inc(0, 0x50, 1), kick=False)
        ch2 = ch.for_gpu(b)
        assert (ch2.chid, ch2.put, ch2.pb_next, ch2.inst) == (ch.chid, ch.put, ch.pb_next, ch.inst)
        ch2.push(inc(0, 0x50, 2), kick=False)
        assert (ch2.put, ch.put) == (2, 1)  # separate states
        with nvmodel.Gpu("tu102") as c:
            with pytest.raises(nvmodel.NvmError) as e:
                ch.for_gpu(c)
            assert e.value.status == nvmodel.ERR_CHIP
    with nvmodel.Gpu("nv40") as a, nvmodel.Gpu("nv40") as b:
        f = setup.Nv04Fifo(a)
        f.alloc(64)
        assert f.for_gpu(b).next == f.next
    with nvmodel.Gpu("g84", vram_size=256 << 20) as a, nvmodel.Gpu("g84", vram_size=256 << 20) as b:
        f = setup.G80Fifo(a)
        ch = setup.G80Channel(f, 1)
        vch = setup.G80Channel(f, 2, vm=True)
        f2 = f.for_gpu(b)
        assert f2.channels == [1, 2]
        assert ch.for_fifo(f2).chid == 1
        with pytest.raises(ValueError):
            vch.for_fifo(f2)


def test_flag_keywords_reach_the_encoders():
    """Each flag keyword sets its own bit and no other (the C fields are bool;
    any truthy value counts, as Python's "p" format tests it)."""
    # GP entry (gv100_dev_pbdma NV_PPBDMA_GP_ENTRY*): E0 FETCH 0:0; E1 PRIV
    # 8:8, LEVEL 9:9, SYNC 31:31; LENGTH 30:10.
    e0, e1 = setup.gp_entry(0x1000, 4)
    assert (e0, e1) == (0x1000, 4 << 10)
    assert setup.gp_entry(0x1000, 4, fetch_conditional=True) == (0x1001, e1)
    assert setup.gp_entry(0x1000, 4, priv=1) == (e0, e1 | 1 << 8)
    assert setup.gp_entry(0x1000, 4, subroutine="yes") == (e0, e1 | 1 << 9)
    assert setup.gp_entry(0x1000, 4, sync=True, priv=False) == (e0, e1 | 1 << 31)
    assert setup.gp_control(2, 7, sync=True) == (7, 2 | 1 << 31)
    assert setup.gp_control(2, 7, sync=0) == (7, 2)
    # ver2 PTE: VALID 0:0, APERTURE 2:1, VOL 3:3, PRIVILEGE 5:5, READ_ONLY
    # 6:6, ATOMIC_DISABLE 7:7.
    base = setup.gmmu_pte_ver2(setup.VID, 0x10000)
    for kw, bit in (("vol", 3), ("priv", 5), ("ro", 6), ("atomic_disable", 7)):
        assert setup.gmmu_pte_ver2(setup.VID, 0x10000, **{kw: True}) == base | 1 << bit, kw
    # G80 PTE: READ_ONLY 3, SUPERVISOR_ONLY 6, long cycle 61, encrypted 62.
    g = setup.g80_pte(0x20000)
    for kw, bit in (("ro", 3), ("supervisor", 6), ("long_cycle", 61), ("encrypted", 62)):
        assert setup.g80_pte(0x20000, **{kw: True}) == g | 1 << bit, kw
    with pytest.raises(TypeError):
        setup.gp_entry(0x1000, 4, sync=NotABool())


class NotABool:
    """An object whose truth cannot be told."""

    def __bool__(self):
        raise TypeError("no truth value")
