"""A Volta (gv100) channel driven from Python the way a driver drives one,
in memory the driver owns.

The driver keeps its VRAM heap and its system memory in bytearrays and
hands them to the model (Gpu.map: no copy either way). It writes page
tables, the instance block (RAMIN and RAMFC), USERD, the GPFIFO ring, the
runlist and the pushbuffer into them with struct.pack_into, as nouveau's
gv100 code writes them (the layouts of docs/host_formats.md); then it rings
the doorbell and runs the GPU. The semaphore the channel releases lands in
the driver's own system-memory bytearray; an acquire waits for a value the
driver writes there itself, and wakes when the driver says so
(Gpu.written).

Run: python3 python/examples/volta_channel.py
"""
import struct
import sys

import nvmodel

MiB = 1 << 20


class Driver:
    """The driver's side: memory it owns and the structures it writes."""

    def __init__(self, gpu: nvmodel.Gpu):
        self.gpu = gpu
        self.vram = gpu.map_new("vram", 0, 16 * MiB)  # the driver's VRAM heap, zero copy
        self.sys = gpu.map_new("sysmem", 0, 1 * MiB)  # its system memory
        self.heap = 0x100000
        self.pdb = self.alloc(4096)
        self.va_next = 0x200000000

    def alloc(self, size: int, align: int = 4096) -> int:
        self.heap = (self.heap + align - 1) & ~(align - 1)
        a, self.heap = self.heap, self.heap + size
        return a

    def w32(self, pa: int, v: int) -> None:
        struct.pack_into("<I", self.vram, pa, v & 0xFFFFFFFF)

    def w64(self, pa: int, v: int) -> None:
        struct.pack_into("<Q", self.vram, pa, v)

    def r64(self, pa: int) -> int:
        return struct.unpack_from("<Q", self.vram, pa)[0]

    # NV_MMU_VER2_PDE: APERTURE 2:1 (1 = video memory), ADDRESS 53:8 (pa >> 12)
    def _next(self, slot: int) -> int:
        e = self.r64(slot)
        if (e >> 1) & 3:
            return ((e >> 8) & ((1 << 46) - 1)) << 12
        t = self.alloc(4096)
        self.w64(slot, ((t >> 12) << 8) | (1 << 1))
        return t

    def map_page(self, va: int, pa: int, aperture: int) -> None:
        """A 4 KiB page: PDE3..PDE1, the dual PDE0's small half, the PTE
        (NV_MMU_VER2_PTE VALID 0, APERTURE 2:1, VOL 3, ADDRESS 53:8)."""
        t2 = self._next(self.pdb + ((va >> 47) & 3) * 8)
        t1 = self._next(t2 + ((va >> 38) & 511) * 8)
        t0 = self._next(t1 + ((va >> 29) & 511) * 8)
        pde0 = t0 + ((va >> 21) & 255) * 16
        hi = self.r64(pde0 + 8)
        if (hi >> 1) & 3:
            small = ((hi >> 8) & ((1 << 46) - 1)) << 12
        else:
            small = self.alloc(4096)
            self.w64(pde0 + 8, ((small >> 12) << 8) | (1 << 1))
        vol = 1 << 3 if aperture != 0 else 0
        self.w64(small + ((va >> 12) & 511) * 8, 1 | (aperture << 1) | vol | ((pa >> 12) << 8))

    def map_vram(self, size: int) -> tuple:
        va, pa = self.va_next, self.alloc(size)
        for o in range(0, size, 4096):
            self.map_page(va + o, pa + o, 0)
        self.va_next += (size + 0xFFFF) & ~0xFFFF
        return va, pa

    def map_sys(self, pa: int) -> int:
        """A VA for a page of the driver's system memory (APERTURE 2,
        SYSTEM_COHERENT_MEMORY)."""
        va = self.va_next
        self.map_page(va, pa, 2)
        self.va_next += 0x10000
        return va


class Channel:
    """A channel of 64 GP entries and a 64 KiB pushbuffer area."""

    def __init__(self, drv: Driver, chid: int):
        self.drv, self.chid = drv, chid
        self.inst = drv.alloc(4096)
        self.userd = drv.alloc(512, 512)
        self.gpfifo_va, self.gpfifo_pa = drv.map_vram(64 * 8)
        self.pb_va, self.pb_pa = drv.map_vram(0x10000)
        self.pb_used = self.gp_put = 0
        i, w = self.inst, drv.w32
        # NV_RAMIN_PAGE_DIR_BASE: TARGET VID_MEM, USE_VER2_PT_FORMAT 10, BIG_PAGE_SIZE 11
        w(i + 128 * 4, (drv.pdb & 0xFFFFF000) | 1 << 10 | 1 << 11)
        w(i + 129 * 4, drv.pdb >> 32)
        # RAMFC as nouveau's gv100_chan_ramfc_write writes it
        w(i + 0x008, self.userd)  # USERD, TARGET VID_MEM
        w(i + 0x00C, self.userd >> 32)
        w(i + 0x010, 0x0000FACE)  # SIGNATURE
        w(i + 0x030, 0x7FFFF902)  # ACQUIRE
        w(i + 0x048, self.gpfifo_va)  # GP_BASE
        w(i + 0x04C, (self.gpfifo_va >> 32) | 6 << 16)  # GP_BASE_HI, LIMIT2 6 (64 entries)
        w(i + 0x084, 0x20400000)  # PB_HEADER
        w(i + 0x094, 0x30000FFF)  # SUBDEVICE
        w(i + 0x0AC, 3 << 16)  # TARGET: ENG_CTX_VALID, CE_CTX_VALID
        w(i + 0x0E4, 0x20)  # HCE_CTRL
        w(i + 0x0E8, chid)
        w(i + 0x0F4, 0x1100)  # CONFIG: USERD_WRITEBACK, PRIVILEGED
        w(i + 0x0F8, 0x10003080)
        gpu = drv.gpu
        gpu.write_reg(0x800000 + chid * 8, 0x80000000 | (self.inst >> 12))  # PCCSR bind
        gpu.write_reg(0x800004 + chid * 8, 0x400)  # ENABLE_SET

    def submit_runlist(self, tsgid: int = 1) -> None:
        """One TSG of this channel on runlist 0 (NV_PFIFO_RUNLIST_BASE,
        NV_PFIFO_RUNLIST ID 23:20 | length)."""
        drv = self.drv
        rl = drv.alloc(32)
        struct.pack_into("<4I", drv.vram, rl, 128 << 24 | 3 << 16 | 1, 1, tsgid, 0)  # TSG header
        struct.pack_into("<4I", drv.vram, rl + 16, self.userd, self.userd >> 32, self.inst | self.chid, self.inst >> 32)
        drv.gpu.write_reg(0x2270, rl >> 12)
        drv.gpu.write_reg(0x2274, 0 << 20 | 2)

    def push(self, words) -> None:
        """Appends a pushbuffer segment, writes its GP entry, publishes
        GP_PUT in USERD and rings the doorbell (NOTIFY_CHANNEL_PENDING)."""
        drv, va = self.drv, self.pb_va + self.pb_used
        struct.pack_into("<%dI" % len(words), drv.vram, self.pb_pa + self.pb_used, *words)
        self.pb_used += 4 * len(words)
        # GP entry: GET 31:2, GET_HI 7:0 of the second word, LENGTH 30:10
        struct.pack_into("<2I", drv.vram, self.gpfifo_pa + self.gp_put * 8, va & 0xFFFFFFFC,
                         (va >> 32) | len(words) << 10)
        self.gp_put = (self.gp_put + 1) % 64
        drv.w32(self.userd + 0x8C, self.gp_put)  # USERD GP_PUT
        drv.gpu.write_reg(0x810090, self.chid)


def inc(subch: int, method: int, *data: int) -> list:
    """An incrementing method header (SEC_OP INC_METHOD) and its data."""
    return [0x20000000 | len(data) << 16 | subch << 13 | method >> 2, *data]


def semaphore(va: int, payload: int, operation: int) -> list:
    """C36F SEM_ADDR_LO/HI, SEM_PAYLOAD_LO/HI, SEM_EXECUTE (OPERATION 2:0:
    0 ACQUIRE, 1 RELEASE)."""
    return inc(0, 0x5C, va & 0xFFFFFFFF, va >> 32, payload, 0, operation)


def main() -> int:
    with nvmodel.Gpu("gv100", vram_size=64 * MiB, sysmem_size=64 * MiB) as gpu:
        drv = Driver(gpu)
        ch = Channel(drv, chid=5)
        ch.submit_runlist()
        print("runlist:", gpu.run(100_000))
        sem_va = drv.map_sys(0x3000)  # the driver's system memory page 3
        # Bind VOLTA_A (C397) on subchannel 1, two of its methods, a release.
        ch.push(inc(1, 0x000, 0xC397) + inc(1, 0x200, 1, 2) + semaphore(sem_va + 0x10, 0xCAFE, 1))
        print("release:", gpu.run(1_000_000))
        value = struct.unpack_from("<I", drv.sys, 0x3010)[0]
        print("semaphore in the driver's own memory: 0x%x" % value)
        assert value == 0xCAFE
        assert gpu.mem_pages("sysmem") == 0  # nothing copied into the model's pages
        # An acquire of 7, then a release of 9: the channel waits until the
        # driver writes 7 into its memory and tells the model.
        ch.push(semaphore(sem_va + 0x20, 7, 0) + semaphore(sem_va + 0x30, 9, 1))
        gpu.run(1_000_000)
        struct.pack_into("<I", drv.sys, 0x3020, 7)
        gpu.written("sysmem", 0x3020, 4)
        print("acquire:", gpu.run(1_000_000))
        assert struct.unpack_from("<I", drv.sys, 0x3030)[0] == 9
        userd_get = struct.unpack_from("<I", drv.vram, ch.userd + 0x88)[0]
        print("USERD GP_GET %d, GP_PUT %d" % (userd_get, ch.gp_put))
        assert userd_get == ch.gp_put
        methods = gpu.method_log("gr")
        for m in methods:
            print("GR: chid %d subch %d class 0x%04x method 0x%04x data 0x%x" % (m.chid, m.subch, m.cls, m.method, m.data))
        assert [(m.cls, m.method, m.data) for m in methods][-2:] == [(0xC397, 0x200, 1), (0xC397, 0x204, 2)]
    return 0


if __name__ == "__main__":
    sys.exit(main())
