#!/usr/bin/env python3
"""Generates the instance blocks, USERD pages and runlists of the host golden
tests (nvmodel host ramin|userd|runlist).

Fields are packed here from the positions of gv100_dev_ram.ref.txt (seed 000
sections 2-5: NV_RAMIN_*, NV_RAMFC_*, NV_RAMUSERD_*, NV_RAMRL_ENTRY_*) and
gv100_dev_pbdma.ref.txt (the NV_PPBDMA_* sub-fields of each RAMFC dword),
independently of the model's C code. The "nouveau" images hold the values
volta-facts.md section 3 lists for nouveau's gv100 channel setup. Run from
this directory.
"""
import struct


def put(img, dw, v):
    img[4 * dw:4 * dw + 4] = struct.pack('<I', v & 0xffffffff)


def save(name, img):
    open(name, 'wb').write(bytes(img))


def hexdump(name, img, per_line=8):
    words = struct.unpack('<%dI' % (len(img) // 4), bytes(img))
    with open(name, 'w') as f:
        for i in range(0, len(words), per_line):
            f.write(' '.join('0x%08x' % w for w in words[i:i + per_line]) + '\n')


# ---------------------------------------------------------------- RAMIN + RAMFC
USERD = 0x20000        # 512-byte aligned, VID_MEM
GPFIFO = 0x1000000     # GP_BASE (virtual), 2^9 = 512 entries
LIMIT2 = 9
PDB = 0x100000         # page directory base, VID_MEM
ECTX = 0x200000        # engine context (virtual)
CHID = 3


def pdb_lo(addr, target=0, ver2=1, big64=1, vol=0):
    # TARGET 1:0, VOL 2:2, USE_VER2_PT_FORMAT 10:10, BIG_PAGE_SIZE 11:11, LO 31:12
    return target | (vol << 2) | (ver2 << 10) | (big64 << 11) | (((addr >> 12) & 0xfffff) << 12)


def nouveau_ramin():
    img = bytearray(4096)
    # RAMFC, volta-facts 3 (gv100_chan_ramfc_write)
    put(img, 2, USERD & 0xffffffff)           # 0x008 NV_RAMFC_USERD (TARGET 0 VID_MEM)
    put(img, 3, USERD >> 32)                  # 0x00c NV_RAMFC_USERD_HI
    put(img, 4, 0x0000face)                   # 0x010 NV_RAMFC_SIGNATURE
    put(img, 12, 0x7ffff902)                  # 0x030 NV_RAMFC_ACQUIRE
    put(img, 18, GPFIFO & 0xffffffff)         # 0x048 NV_RAMFC_GP_BASE
    put(img, 19, (GPFIFO >> 32) | (LIMIT2 << 16))  # 0x04c GP_BASE_HI | LIMIT2 20:16
    put(img, 33, 0x20400000)                  # 0x084 NV_RAMFC_PB_HEADER (TYPE INC, FIRST)
    put(img, 37, 0x30000fff)                  # 0x094 NV_RAMFC_SUBDEVICE
    put(img, 43, 1 << 16)                     # 0x0ac NV_RAMFC_TARGET ENG_CTX_VALID
    put(img, 57, 0x20)                        # 0x0e4 NV_RAMFC_HCE_CTRL HCE_PRIV_MODE
    put(img, 58, CHID)                        # 0x0e8 (not named in the gv100 manual)
    put(img, 61, 0x1100)                      # 0x0f4 NV_RAMFC_CONFIG
    put(img, 62, 0x10003080)                  # 0x0f8 (not named in the gv100 manual)
    # RAMIN (seed 000 section 2)
    put(img, 128, pdb_lo(PDB))                # PAGE_DIR_BASE: VID_MEM, ver2, 64KB
    put(img, 129, PDB >> 32)
    put(img, 132, (ECTX & 0xfffff000) | 4)    # 0x210 ENGINE_WFI_PTR_LO | MODE VIRTUAL
    put(img, 133, ECTX >> 32)
    put(img, 166, 1)                          # SC_PDB_VALID: subcontext 0
    put(img, 167, 0)
    for i in range(64):                       # SC_PAGE_DIR_BASE(i)
        if i == 0:
            put(img, 168 + 4 * i, pdb_lo(PDB))
            put(img, 169 + 4 * i, PDB >> 32)
        else:                                 # unused: TARGET INVALID (not valid)
            put(img, 168 + 4 * i, 1)
            put(img, 169 + 4 * i, 1)
    return img


img = nouveau_ramin()
save('ramin_nouveau.bin', img)
hexdump('ramin_nouveau.hex', img)

# Every RAMFC / RAMIN problem the checker knows, in one block.
bad = nouveau_ramin()
put(bad, 4, 0x1234beef)                       # SIGNATURE_HW 0xbeef: SIGNATURE
put(bad, 0, 600)                              # GP_PUT 600 >= 2^9: GPPTR
put(bad, 20, 512)                             # GP_FETCH 512 >= 2^9: GPPTR
put(bad, 2, USERD | 0x100)                    # USERD bits 8:2 set
put(bad, 18, 0xfffff800)                      # GP_BASE 0xff_fffff800 + 512*8 > 2^40: GPFIFO
put(bad, 19, 0xff | (LIMIT2 << 16))
put(bad, 128, pdb_lo(PDB, target=1, ver2=0, big64=0))  # INVALID, old format, 128KB
put(bad, 132, (ECTX & 0xfffff000) | 4 | 8 | 1)  # ENGINE_CS FG, ENGINE_WFI_TARGET 1
put(bad, 166, 0x5)                            # subcontexts 0 and 2 valid
put(bad, 168 + 4 * 2, pdb_lo(PDB, ver2=0))    # SC(2): old format
save('ramin_bad.bin', bad)

# ---------------------------------------------------------------- USERD
u = bytearray(512)
put(u, 16, 0x00402000)                        # NV_RAMUSERD_PUT
put(u, 17, 0x00401f00)                        # NV_RAMUSERD_GET
put(u, 18, 7)                                 # NV_RAMUSERD_REF
put(u, 19, 0x10)                              # NV_RAMUSERD_PUT_HI
put(u, 22, 0x00401f00)                        # NV_RAMUSERD_TOP_LEVEL_GET
put(u, 23, 0x80000010)                        # TOP_LEVEL_GET_HI, VALID (silicon H100)
put(u, 24, 0x10)                              # NV_RAMUSERD_GET_HI
put(u, 34, 3)                                 # NV_RAMUSERD_GP_GET
put(u, 35, 5)                                 # NV_RAMUSERD_GP_PUT
save('userd.bin', u)

# ---------------------------------------------------------------- runlists


def tsg(tsgid, length, timeout=128, scale=3, stray=(0, 0, 0, 0)):
    # volta-facts 3: dw0 = (128<<24)|(3<<16)|1, dw1 = count, dw2 = TSGID
    return struct.pack('<4I', ((timeout << 24) | (scale << 16) | 1) | stray[0], length | stray[1],
                       tsgid | stray[2], stray[3])


def chan(chid, inst, userd, runq=0, inst_target=0, userd_target=0):
    # dw0 = USERD lo | runq<<1 (targets 7:6, 5:4), dw1 = USERD hi,
    # dw2 = INST lo (4K) | CHID, dw3 = INST hi
    dw0 = (userd & 0xffffff00) | (runq << 1) | (inst_target << 4) | (userd_target << 6)
    return struct.pack('<4I', dw0, userd >> 32, (inst & 0xfffff000) | chid, inst >> 32)


rl = tsg(0, 2) + chan(0, 0x10000, 0x20000) + chan(1, 0x11000, 0x20200, runq=1) \
    + tsg(1, 1, timeout=0, scale=0) + chan(2, 0x1_0000_0000, 0x8000_0000, inst_target=2, userd_target=3)
open('rl_nouveau.bin', 'wb').write(rl)
hexdump('rl_nouveau.hex', rl, per_line=4)

rl = (chan(7, 0x10000, 0x20000)                # outside a TSG
      + tsg(1, 0)                              # length 0
      + chan(8, 0x10000, 0x20000)              # outside (the empty TSG opened none)
      + tsg(2, 3)
      + chan(9, 0x12000, 0x20100, inst_target=1)  # INST_TARGET 1, USERD not 512-aligned
      + tsg(3, 2, stray=(0, 0, 0, 0xdead))     # cuts TSG 2 short; stray bits in dword 3
      + chan(10, 0x13000, 0x20400)
      + chan(11, 0x14000, 0x20600)
      + tsg(4, 200)                            # longer than 128, and the runlist ends
      + chan(12, 0x15000, 0x20800))
open('rl_errors.bin', 'wb').write(rl)

open('rl_odd.bin', 'wb').write(tsg(0, 1) + b'\0' * 8)

# A memory dump holding a USERD page at 0x200 and the nouveau instance block
# at 0x1000 (for --offset).
dump = bytearray(0x2000)
dump[0x200:0x400] = u
dump[0x1000:0x2000] = nouveau_ramin()
save('dump.bin', dump)
