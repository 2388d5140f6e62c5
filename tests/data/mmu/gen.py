#!/usr/bin/env python3
"""Generates the memory images and fault dumps of the mmu golden tests.

Entries are encoded here from the field positions of gv100_dev_mmu.ref.txt
(NV_MMU_VER2_PDE / _DUAL_PDE / _PTE) and seed 003 (NV_MMU_FAULT_BUF_ENTRY),
independently of the model's C code. Run from this directory.
"""
import struct

def pde(addr, ap, vol=0):          # ADDRESS 53:8 = addr >> 12, APERTURE 2:1, VOL 3
    return ((addr >> 12) << 8) | (ap << 1) | (vol << 3)

def pte(pa, ap, vol=0, priv=0, ro=0, ad=0, kind=0, valid=1, peer=0):
    return (valid | (ap << 1) | (vol << 3) | (priv << 5) | (ro << 6) | (ad << 7)
            | ((pa >> 12) << 8) | (peer << 33) | (kind << 56))

def w64(img, off, v):
    img[off:off + 8] = struct.pack('<Q', v)

vram = bytearray(256 * 1024)
sysm = bytearray(8 * 1024)
PDB, PD2, PD1, PD0, BIG, SMALL = 0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000
w64(vram, PDB + 0, pde(PD2, 1))                 # PDE3[0]
w64(vram, PD2 + 0, pde(PD1, 1))                 # PDE2[0]
w64(vram, PD2 + 8, pde(0, 0, vol=1))            # PDE2[1]: sparse (va 0x4000000000)
w64(vram, PD1 + 0, pde(PD0, 1))                 # PDE1[0]
w64(vram, PD1 + 8, pte(0x40000000, 0))          # PDE1[1]: IS_PTE above PD0 (va 0x20000000)
# PDE0[1] (va 0x200000): big table (ADDRESS_BIG = addr >> 8 at bit 4) + small table
w64(vram, PD0 + 16, ((BIG >> 8) << 4) | (1 << 1))
w64(vram, PD0 + 24, pde(SMALL, 1))
w64(vram, BIG + 0, pte(0x100000, 0))                          # va 0x200000 64K
w64(vram, SMALL + 0x10 * 8, pte(0x7000, 2, ro=1, priv=1))     # va 0x210000 sysmem_coh
w64(vram, SMALL + 0x11 * 8, pte(0, 0, vol=1, valid=0))        # va 0x211000 sparse
w64(vram, SMALL + 0x12 * 8, pte(0x9000, 1, peer=3))           # va 0x212000 peer 3
w64(vram, SMALL + 0x13 * 8, pte(0xa000, 3, ad=1, kind=0xfe))  # va 0x213000 sysmem_ncoh
w64(vram, PD0 + 32, pte(0x200000, 0, vol=1, kind=0xfe))       # PDE0[2]: 2M (va 0x400000)
w64(vram, PD0 + 48, 1 << 3)                                   # PDE0[3]: sparse dual (va 0x600000)
w64(vram, PD0 + 64 + 8, pde(0x10000000, 1))                   # PDE0[4]: small table outside the image
w64(vram, PD0 + 80 + 8, pde(0x1000, 2))                       # PDE0[5]: small table in sysmem
w64(sysm, 0x1000, pte(0x300000, 0))                           # va 0xa00000
open('vram.bin', 'wb').write(vram)
open('sysmem.bin', 'wb').write(sysm)

# A looping tree: every PDE3 points back at the PDB (dump must stop).
loop = bytearray(8 * 1024)
for i in range(512):
    w64(loop, 0x1000 + 8 * i, pde(0x1000, 1))
open('loop.bin', 'wb').write(loop)

def packet(inst, inst_ap, addr, ts, eng, ftype, rf, client, acc, ctype, gpc, rfe, valid=1):
    dw = [0] * 8
    dw[0] = (inst_ap << 8) | (((inst >> 12) & 0xfffff) << 12)
    dw[1] = inst >> 32
    dw[2] = ((addr >> 12) & 0xfffff) << 12
    dw[3] = addr >> 32
    dw[4] = ts & 0xffffffff
    dw[5] = ts >> 32
    dw[6] = eng
    dw[7] = (ftype | (rf << 7) | (client << 8) | (acc << 16) | (ctype << 20) | (gpc << 24)
             | (rfe << 30) | (valid << 31))
    return struct.pack('<8I', *dw)

pk = b''
pk += packet(0x10000, 0, 0x7f1234567000, 0x123456789a0, 64, 2, 1, 0, 0, 0, 3, 1)     # TEX PTE replayable
pk += bytes(32)                                                                     # invalid slot
pk += packet(0x1234000, 2, 0x200000, 0x2000, 15, 6, 0, 1, 1, 1, 0, 0)               # CE0 RO_VIOLATION
pk += packet(0x100000000, 3, 0x10000, 0x3000, 66, 0xf, 0, 0x11, 2, 0, 7, 1)         # GCC atomic
open('faults.bin', 'wb').write(pk)
open('faults-trailing.bin', 'wb').write(pk + b'\x01\x02\x03')

# vram-v3.bin: a ver3 (gh100) tree, encoded from RM's gh100 dev_mmu.h
# (NV_MMU_VER3_PDE: APERTURE 2:1, PCF 5:3, ADDRESS 51:12; _DUAL_PDE: ADDRESS_BIG
# 51:8, APERTURE_SMALL 66:65, ADDRESS_SMALL 115:76; _PTE: VALID 0, APERTURE 2:1,
# PCF 7:3, KIND 11:8, ADDRESS 51:12). PDB 0x1000, six levels.
def v3_pde(t):
    return (1 << 1) | (t & 0x000ffffffffff000)

def v3_pte(pa, pcf=0, kind=0, ap=0):
    return 1 | (ap << 1) | (pcf << 3) | (kind << 8) | (pa & 0x000ffffffffff000)

v3 = bytearray(0xa000)
for a, t in ((0x1000, 0x2000), (0x2000, 0x3000), (0x3000, 0x4000), (0x4000, 0x5000)):
    w64(v3, a, v3_pde(t))                                   # PDE4[0] .. PDE1[0]
w64(v3, 0x5000 + 16 * 2 + 8, (1 << 1) | 0x6000)               # PDE0[2] small PT
w64(v3, 0x5000 + 16 * 2, (1 << 1) | ((0x7000 >> 8) << 8))      # PDE0[2] big PT
w64(v3, 0x6000 + 8 * 5, v3_pte(0x9000, pcf=4))                # va 0x405000: RO
w64(v3, 0x6000 + 8 * 6, v3_pte(0x123456000, pcf=2, ap=2))     # va 0x406000: PRIVILEGE, sysmem
w64(v3, 0x6000 + 8 * 7, 1 << 3)                               # va 0x407000: PCF SPARSE
w64(v3, 0x7000 + 8 * 1, v3_pte(0x80000, kind=6))              # va 0x410000: 64 KiB
w64(v3, 0x5000 + 16 * 3, v3_pte(0x1200000, pcf=1))            # va 0x600000: 2 MiB, UNCACHED
w64(v3, 0x4000 + 8 * 1, v3_pte(0x40000000))                   # va 0x20000000: 512 MiB at PDE1
w64(v3, 0x2000 + 8 * 3, 1 << 3)                               # PDE3[3]: sparse
w64(v3, 0x1000 + 8, v3_pde(0x8000))                           # PDE4[1] (VA bit 56)
w64(v3, 0x8000, v3_pde(0x7fff0000))                           # a PDE2 table outside the image
open('vram-v3.bin', 'wb').write(v3)

# faults-gh100.bin: packets with gh100's MMU engine ids (RM's gh100
# dev_fault.h: GRAPHICS 384 + VEID, CE0 43, BAR2 320).
pk = b''
pk += packet(0x10000, 0, 0x1234567000, 0x1000, 384 + 1, 2, 1, 0, 0, 0, 1, 1)      # GRAPHICS VEID 1
pk += packet(0x20000, 0, 0x200000, 0x2000, 43 + 2, 6, 0, 0x18, 1, 1, 0, 0)        # CE2 RO_VIOLATION
pk += packet(0x30000, 0, 0x4000, 0x3000, 320, 2, 0, 7, 0, 1, 0, 0)                # BAR2 PTE
open('faults-gh100.bin', 'wb').write(pk)
