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

# G84 RAMHT (one channel's, seed 001 "separate RAMHTs"): nouveau's nv50/g84
# context engine << 20 | offset in the channel structure >> 4, hashed with
# channel 0; no CHID and no VALID bit (a zero context is free).
t = [(0, 0)] * N
g80 = lambda inst, eng: eng << 20 | inst >> 4
insert(t, 0xbeef0001, g80(0x6040, 1), 0)    # PGRAPH
insert(t, 0xd0000001, g80(0x6060, 0), 0)    # SOFTWARE
insert(t, 0x5005, g80(0x6080, 5), 0)        # PCIPHER (G84, G92)
insert(t, 0x3003, g80(0x60a0, 3), 0)        # engine 3: no engine on G84
insert(t, 0x7007, 0x7f000000 | g80(0x60c0, 6), 0)  # bits 31:24 set: no CHID on G80 (PBSP)
insert(t, 0xcafe, 0, 0, at=(hash_(0xcafe, 0) + 3) % N)  # a handle with context 0
insert(t, 0x12345678, g80(0x60e0, 1), 0, at=(hash_(0x12345678, 0) + 20) % N)  # beyond a 16-entry search
write("ramht_g84.bin", t)

# G84 RAMFC: two 0x100-byte entries (the g84 layout, CHAN_TABLE RAMFC_ADDR
# spacing); channel 1 an IB channel, channel 2 stopped with IB_EMPTY.
def g84_ramfc(w):
    words = [0] * 64
    for off, v in w.items():
        words[off // 4] = v
    return struct.pack("<64I", *words)
img = g84_ramfc({})
img += g84_ramfc({0x00: 3, 0x04: 2, 0x08: 0x2040, 0x10: 0x2040, 0x30: 0, 0x3c: 0x403f6078,
                  0x48: 0x600, 0x50: 0x80000, 0x54: 0x000d0000, 0x58: 0x1, 0x6c: 0x06024002,
                  0x80: 0x00008000 | 0x800, 0x88: 0x400, 0x98: 0x10000})
img += g84_ramfc({0x00: 5, 0x04: 5, 0x08: 0x3000, 0x10: 0x3002, 0x30: (5 << 29) | (1 << 18) | 0x204,
                  0x3c: 0x403f6078, 0x48: 0x600})
with open("ramfc_g84.bin", "wb") as f:
    f.write(img)
