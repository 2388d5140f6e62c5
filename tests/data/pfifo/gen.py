#!/usr/bin/env python3
# Writes the PFIFO instance-memory images the golden tests decode:
#   ramht_nv17.bin  a 4 KiB RAMHT (2^9 entries) with entries placed as
#                   nvkm_ramht_insert places them, plus broken ones
#   ramht_nv40.bin  a clean 4 KiB NV40 RAMHT
#   ramfc_nv17.bin  four 64-byte NV17 RAMFC entries (nv17_fifo_ramfc layout)
# Hash and context formats: nouveau's nvkm_ramht_hash, nv04_fifo_dma_object_ctor
# (valid 31, chid << 24, engine << 16, instance >> 4), nv40_eobj_ramht_add
# (chid << 23, engine << 20).
import struct

BITS = 9
N = 1 << BITS

def hash_(handle, chid):
    h = 0
    while handle:
        h ^= handle & (N - 1)
        handle >>= BITS
    return (h ^ (chid << (BITS - 4))) & (N - 1)

def insert(tab, handle, ctx, chid, at=None):
    i = hash_(handle, chid) if at is None else at
    while tab[i] != (0, 0):
        i = (i + 1) % N
    tab[i] = (handle, ctx)

def write(name, tab):
    with open(name, "wb") as f:
        for h, c in tab:
            f.write(struct.pack("<II", h, c))

# NV17: good entries, a collision chain, and problems
t = [(0, 0)] * N
nv04 = lambda inst, eng, chid: 0x80000000 | chid << 24 | eng << 16 | inst >> 4
insert(t, 0xbeef0001, nv04(0x30010, 1, 1), 1)
insert(t, 0xd0000001, nv04(0x30020, 0, 1), 1)
insert(t, 0xbeef0002, nv04(0x30010, 1, 2), 2)
# a handle that hashes to the same slot: goes to the next free entry
h = 0xbeef0001 ^ (1 << 9)  # same fold
insert(t, h, nv04(0x30030, 1, 1), 1)
# a duplicate of (0xbeef0001, channel 1) further along
insert(t, 0xbeef0001, nv04(0x30040, 1, 1), 1, at=(hash_(0xbeef0001, 1) + 5) % N)
# unreachable with a 16-entry search: 20 entries after its slot
insert(t, 0x12345678, nv04(0x30050, 1, 3), 3, at=(hash_(0x12345678, 3) + 20) % N)
# no VALID bit
insert(t, 0xcafe, (3 << 24) | (1 << 16) | 0x3006, 3)
# engine 2 (PMPEG, not modelled)
insert(t, 0x4444, nv04(0x30070, 2, 3), 3)
write("ramht_nv17.bin", t)

t = [(0, 0)] * N
nv40 = lambda inst, eng, chid: chid << 23 | eng << 20 | inst >> 4
insert(t, 0xbeef0005, nv40(0x30010, 1, 5), 5)
insert(t, 0xd0000005, nv40(0x30020, 0, 5), 5)
insert(t, 0xbeef0006, nv40(0x30010, 1, 31), 31)
write("ramht_nv40.bin", t)

# NV17 RAMFC: DMA_PUT, DMA_GET, REF_CNT, DMA_INSTANCE | DCOUNT << 16, DMA_STATE,
# DMA_FETCH, ENGINE, PULL1, ACQUIRE_VALUE, ACQUIRE_TIMESTAMP, ACQUIRE_TIMEOUT,
# SEMAPHORE, DMA_SUBROUTINE, 3 unused words
def ramfc(put, get, ref, inst, dcount, state, fetch, engine, pull1, acq, ts, to, sem, subr):
    w = [put, get, ref, inst | dcount << 16, state, fetch, engine, pull1, acq, ts, to, sem, subr, 0, 0, 0]
    return struct.pack("<16I", *w)

fetch = 0x78 | 0x6000 | 0x80000
img = ramfc(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
img += ramfc(0x1040, 0x1040, 7, 0x3001, 2, 0x00000300, fetch, 0x10000001, 0x10001, 0, 0, 0,
             0x300011, 0)
img += ramfc(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
img += ramfc(0x200, 0x11a, 0, 0x3002, 0, (4 << 29) | (1 << 18) | (2 << 13) | 0x100, fetch | 1 << 31, 1, 0x11, 5,
             0x1234, 0x7fffffff, 0x300021, 0x8001)
with open("ramfc_nv17.bin", "wb") as f:
    f.write(img)
