#!/usr/bin/env python3
"""Generates the memory image of the g80vm golden tests (vm walk/dump
--format g80): a G84-layout channel structure, DMA objects and page tables,
encoded here from the bit positions of seed 002 ("Channels", "DMA objects",
"Page tables"), independently of the model's C code. Run from this directory.

Channel descriptor 0x10 (VRAM structure at 0x10000; the G84 page directory
at +0x200..+0x4200, so the DMA objects live above it):
  selector 0x500: paged, everything from the page tables (nouveau's 0x7fc00000)
  selector 0x502: unpaged VRAM 0x20000..0x30000, SINGLE compression, tags 4..8
                  from compression base 0x20000, long cycle
  PDE 0: small pages limited to 0x2000 entries, table at 0x40000: page 0 ->
         0x8000 (storage 0x70, tag 3), pages 4..7 a contig block of order 2 at
         0x3c000 (read-only)
  PDE 1: large pages, table at 0x50000: page 1 -> 0x10000, supervisor-only
  PDE 2: small pages limited to 0x2000 entries, table at 0x60000: the last
         page -> 0x4000
  PDE 3: small pages, table outside the image (0x100000)
"""
import struct

def w32(img, off, v):
    img[off:off + 4] = struct.pack('<I', v)

def w64(img, off, v):
    img[off:off + 8] = struct.pack('<Q', v)

def dmaobj(img, chan, sel, w0, base, limit, w4=0, w5=0):
    a = chan + sel * 16
    for i, w in enumerate([w0, limit & 0xffffffff, base & 0xffffffff,
                           (base >> 32) | ((limit >> 32) << 24), w4, w5]):
        w32(img, a + 4 * i, w)

def pde(typ, target, size, table):
    return typ | (target << 2) | (size << 5) | (table & 0xfffffff000)

def pte(addr, target=0, ro=0, sup=0, contig=0, storage=0, comp=0, tag=0, part=0, enc=0):
    return (1 | (ro << 3) | (target << 4) | (sup << 6) | (contig << 7) | (addr & 0xfffffff000)
            | (storage << 40) | (comp << 47) | (tag << 49) | (part << 61) | (enc << 62))

vram = bytearray(512 * 1024)
CH = 0x10000
dmaobj(vram, CH, 0x500, 0x7fc00000, 0, 0xffffffffff)
# class 0x3d, target VRAM (1), RW (2), user (1), storage 0, SINGLE (1)
dmaobj(vram, CH, 0x502, 0x3d | 1 << 16 | 2 << 18 | 1 << 20 | 1 << 29, 0x20000, 0x30000,
       w4=4 | 8 << 16, w5=0x2 | 2 << 16)
PD = CH + 0x200
w64(vram, PD + 0, pde(3, 0, 3, 0x40000))
w64(vram, PD + 8, pde(1, 0, 0, 0x50000))
w64(vram, PD + 16, pde(3, 0, 3, 0x60000))
w64(vram, PD + 24, pde(3, 0, 0, 0x100000))
w64(vram, 0x40000 + 0 * 8, pte(0x8000, storage=0x70, tag=3))
for i in range(4, 8):
    w64(vram, 0x40000 + i * 8, pte(0x3c000, contig=2, ro=1))
w64(vram, 0x50000 + 1 * 8, pte(0x10000, sup=1))
w64(vram, 0x60000 + 0x1fff * 8, pte(0x4000))
open('vram.bin', 'wb').write(vram)
