"""Channels built with the library's set-up helpers (nvmodel.setup), on a Host
generation and on the PFIFO generations, each driven to a semaphore release.

volta_channel.py writes every structure itself; here the helpers do it, from
the same tables the model reads: a heap, GMMU page tables, the instance block,
USERD, the GPFIFO ring and the runlist for a Host chip (gv100, tu102, ga100,
ga102, gh100); DMA objects, RAMHT, RAMFC and a DMA channel for NV17..NV4x
PFIFO; the channel structure, DMA objects and an IB channel for G80 PFIFO.

Run: python3 python/examples/setup_channels.py [host chip] [nv04-family chip] [g80-family chip]
"""
import struct
import sys

import nvmodel
from nvmodel import setup


def host_channel(chip: str) -> None:
    """A Host channel: GR methods and a semaphore release in system memory
    the script owns."""
    with nvmodel.Gpu(chip, vram_size=64 << 20, sysmem_size=64 << 20) as gpu:
        sysmem = gpu.map_new("sysmem", 0, 1 << 20)  # ours, zero copy
        heap = setup.Heap(setup.VID, 0x100000, 32 << 20)
        setup.host_init(gpu)
        vm = setup.GmmuVm(gpu, heap)
        ours = setup.Heap(setup.SYS_COH, 0x3000, 0x1000)  # page 3 of our memory
        sem_va, sem = vm.alloc_map(4096, ours)  # mapped at the VM's next VA
        ch = setup.HostChannel(vm, chid=5, runlist=0, gpfifo_entries=64)
        setup.submit(gpu, heap, 0, [ch])
        gpu.run(100_000)
        # SET_OBJECT VOLTA_A on subchannel 1, two of its methods, then
        # SEM_ADDR_LO/HI, SEM_PAYLOAD_LO/HI and SEM_EXECUTE RELEASE.
        pb = nvmodel.pb_asm(
            "inc 1 0x0 0xc397\n"
            "inc 1 0x200 1 2\n"
            f"inc 0 C36F.SEM_ADDR_LO {sem_va & 0xFFFFFFFF:#x} {sem_va >> 32:#x} 0xcafe 0x0\n"
            "inc 0 C36F.SEM_EXECUTE 0x100001\n",
            chip,
        )
        index, va = ch.push(pb)
        status = gpu.run(1_000_000)
        value = struct.unpack_from("<I", sysmem, sem.addr)[0]
        print(f"{chip}: GP entry {index} at 0x{va:x}, {status}; semaphore 0x{value:x} in our memory; "
              f"USERD GP_GET {ch.userd_rd32(0x88)}")
        assert value == 0xCAFE
        assert [(m.cls, m.method, m.data) for m in gpu.method_log("gr")] == [(0xC397, 0x200, 1), (0xC397, 0x204, 2)]


def old_inc(subch: int, method: int, *data: int) -> list:
    """An NV04..G80 incrementing header (COUNT 28:18, SUBCHANNEL 15:13,
    METHOD 12:2) and its data."""
    return [len(data) << 18 | subch << 13 | method, *data]


def nv04_channel(chip: str) -> None:
    """An NV17..NV4x DMA channel: a PGRAPH object, then DMA_SEMAPHORE,
    SEMAPHORE_OFFSET and SEMAPHORE_RELEASE through a write-only DMA object."""
    with nvmodel.Gpu(chip, vram_size=16 << 20, sysmem_size=16 << 20) as gpu:
        fifo = setup.Nv04Fifo(gpu)
        pb = fifo.dmaobj(0x100000, 0x1FFFFF)  # the pushbuffer: PCI memory
        sem = fifo.dmaobj(0x300000, 0x300FFF, class_id=0x02, access=2)
        gr = fifo.object(0x62)
        fifo.ramht_add(1, 0xBEEF, gr, engine=1)
        fifo.ramht_add(1, 0x5E3, sem, engine=0)
        fifo.dma_channel(1, pb)
        words = old_inc(0, 0, 0xBEEF) + old_inc(0, 0x300, 7) + old_inc(0, 0x60, 0x5E3)
        words += old_inc(0, 0x64, 0x10) + old_inc(0, 0x6C, 0xF00D)
        gpu.write("sysmem", 0x100000, struct.pack("<%dI" % len(words), *words))
        fifo.kick(1, 4 * len(words))
        status = gpu.run(1_000_000)
        value = gpu.rd32("sysmem", 0x300010)
        print(f"{chip}: {status}; PGRAPH got {[(hex(m.cls), hex(m.method), m.data) for m in gpu.method_log('pgraph')]}; "
              f"semaphore 0x{value:x}")
        assert value == 0xF00D


def g80_channel(chip: str) -> None:
    """A G80-family IB channel: a PGRAPH object and a semaphore release."""
    with nvmodel.Gpu(chip, vram_size=256 << 20, sysmem_size=256 << 20) as gpu:
        fifo = setup.G80Fifo(gpu)
        ch = setup.G80Channel(fifo, 1)
        ch.object(0x5097, 0xBEEF0001)
        ch.dmaobj(cls=0x3D, target=2, base=0x800000, limit=0x800FFF, handle=0x5E3)
        words = old_inc(1, 0, 0xBEEF0001) + old_inc(1, 0x300, 7) + old_inc(0, 0x60, 0x5E3)
        words += old_inc(0, 0x64, 0x20) + old_inc(0, 0x6C, 0xD00D)
        ch.push(words)
        status = gpu.run(1_000_000)
        value = gpu.rd32("sysmem", 0x800020)
        print(f"{chip}: IB_PUT {ch.ib_put}, {status}; PGRAPH got "
              f"{[(hex(m.cls), hex(m.method), m.data) for m in gpu.method_log('pgraph')]}; semaphore 0x{value:x}")
        assert value == 0xD00D


def main(argv: list) -> int:
    host_channel(argv[1] if len(argv) > 1 else "gv100")
    nv04_channel(argv[2] if len(argv) > 2 else "nv40")
    g80_channel(argv[3] if len(argv) > 3 else "g84")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
