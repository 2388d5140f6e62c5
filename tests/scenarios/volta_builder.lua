-- The nvmodel.volta builder and nvmodel.pb_asm: every word they write,
-- checked against the documents, with encodings written out here from the
-- field positions (not taken from the builder):
--   pushbuffer headers: seed 000 section 6 (NV_FIFO_DMA_*)
--   page tables: gv100_dev_mmu.ref.txt (NV_MMU_VER2_PDE / DUAL_PDE / PTE), volta-facts.md e
--   RAMIN: seed 000 section 2 (NV_RAMIN_*); RAMFC: section 3 (NV_RAMFC_*) with the values
--     nouveau writes (volta-facts.md section 3, gv100_chan_ramfc_write)
--   USERD: seed 000 section 4 (NV_RAMUSERD_*); runlists: section 5 (NV_RAMRL_ENTRY_*) and
--     the words nouveau writes (volta-facts.md section 3)
--   GP entries: gv100_dev_pbdma.ref.txt (NV_PPBDMA_GP_ENTRY*) and clc36f.h (PRIV 8:8)
--   registers: gv100_dev_fifo.ref.txt (NV_PFIFO_RUNLIST_BASE 0x2270, NV_PFIFO_RUNLIST 0x2274,
--     NV_PFIFO_ENG_RUNLIST 0x2284, NV_PCCSR_CHANNEL_INST/CHANNEL 0x800000/4),
--     gv100_dev_usermode.ref.txt (NV_USERMODE_NOTIFY_CHANNEL_PENDING 0x810090)

local volta = require "nvmodel.volta"
check(nvmodel.volta == volta, "require and nvmodel.volta give the same module")

local fmt = string.format

local function fails(fn, text, what)
  local ok, err = pcall(fn)
  check(not ok and tostring(err):find(text, 1, true), fmt("%s: wanted an error with %q, got %s", what, text,
                                                           ok and "no error" or tostring(err)))
end

local function words(s)
  local t = {}
  for i = 1, #s, 4 do t[#t + 1] = string.unpack("<I4", s, i) end
  return t
end

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

-- ------------------------------------------------------------ pb_asm / pb_words

-- NV_FIFO_DMA_INCR: OPCODE 31:29 = 1, COUNT 28:16, SUBCHANNEL 15:13, ADDRESS 11:0 (dword address).
local inc = 1 << 29 | 2 << 16 | 0 << 13 | 0x5c >> 2
check(nvmodel.pb_asm("inc 0 0x5c 1 2") == string.pack("<I4I4I4", inc, 1, 2), "pb_asm: INC header + data, LE")
check(same(nvmodel.pb_words("inc 0 0x5c 1 2"), { inc, 1, 2 }), "pb_words: the same dwords")
-- NV_FIFO_DMA_IMMD: OPCODE 31:29 = 4, IMMD_DATA 28:16; NONINCR 3; ONEINCR 5; END_PB_SEGMENT 7; NOP 0.
check(same(nvmodel.pb_words("immd 1 0x100 5"), { 4 << 29 | 5 << 16 | 1 << 13 | 0x40 }), "IMMD")
check(same(nvmodel.pb_words("ninc 2 0x104 1 2"), { 3 << 29 | 2 << 16 | 2 << 13 | 0x41, 1, 2 }), "NON_INC")
check(same(nvmodel.pb_words("1inc 7 0x200 1 2"), { 5 << 29 | 2 << 16 | 7 << 13 | 0x80, 1, 2 }), "ONE_INC")
check(same(nvmodel.pb_words("nop\nend_segment"), { 0, 7 << 29 }), "NOP and END_PB_SEGMENT")
-- SET_SUBDEVICE_MASK: OPCODE 31:16 = 1, VALUE 15:4.
check(same(nvmodel.pb_words("set_subdevice_mask 0x5"), { 1 << 16 | 5 << 4 }), "SSDM")
check(same(nvmodel.pb_words("inc 0 SEM_ADDR_LO 1"), { 1 << 29 | 1 << 16 | 0x5c >> 2, 1 }), "host method names")
check(nvmodel.pb_asm("# only a comment\n") == "", "empty text gives no words")
-- Old format (envytools dma-pusher.rst): increasing method, COUNT 28:18, ADDRESS 12:2.
check(same(nvmodel.pb_words("inc 0 0x100 1", "old"), { 1 << 18 | 0x100, 1 }), "old format")
fails(function() nvmodel.pb_asm("inc 0 0x5c 1\nbogus 1") end, "pb_asm:2: unknown instruction 'bogus'",
      "assembler errors name the line")
fails(function() nvmodel.pb_asm("nop\n\ninc 0 FOO 1", "new", "seg.s") end, "seg.s:3: unknown method 'FOO'",
      "a chunk name for the text")
fails(function() nvmodel.pb_asm("jump 0x100") end, "pb_asm:1: 'jump' does not exist in the new format",
      "old-only instructions in the new format")
fails(function() nvmodel.pb_asm("immd 0 0x100 0x2000") end, "pb_asm:1:", "IMMD data wider than 13 bits")
fails(function() nvmodel.pb_asm("nop", "newer") end, "invalid option 'newer'", "unknown format")
fails(function() nvmodel.pb_words({}) end, "string expected", "text must be a string")

-- ------------------------------------------------------------ heaps

local gpu = nvmodel.open{ chip = "gv100", vram = "256M", sysmem = "256M" }
local heap = volta.heap(gpu, "vram", 0x100000, "32M")
check(heap:alloc(16, 16) == 0x100000 and heap:alloc(1, 4096) == 0x101000 and heap:alloc(8, 8) == 0x101008,
      "heap: bump allocation with alignment")
heap = volta.heap(gpu, "vram", 0x200000, "32M") -- a fresh one for what follows
local small = volta.heap(gpu, "sysmem", 0, 0x2000)
fails(function() small:alloc(0x3000) end, "heap:alloc: out of memory: 0x3000 bytes", "heap exhaustion")
fails(function() small:alloc(16, 24) end, "not a power of two", "alignment must be a power of two")
fails(function() volta.heap(gpu, "peer", 0, 4096) end, "unknown aperture peer", "aperture names")
fails(function() volta.heap(gpu, "vram", 0, "12Q") end, "is not a size", "size strings")
fails(function() volta.heap(nil, "vram", 0, 4096) end, "argument 1 must be a gpu object", "gpu argument")

-- ------------------------------------------------------------ page tables

local function rd64(ap, addr)
  local lo, hi = gpu:mem_rd32(ap, addr, 2)
  return lo | hi << 32
end

-- NV_MMU_VER2_PDE: IS_PTE 0:0 = 0, APERTURE 2:1 (1 VIDEO, 2 SYS_COH, 3 SYS_NCOH), VOL 3:3,
-- ADDRESS 53:8 = table >> 12 (ADDRESS_SHIFT 12; VID uses 32:8).
local PDE_APERTURE = { "vram", "sysmem_coh", "sysmem_ncoh" }
local function pde_child(e, want_ap, what)
  check(e & 1 == 0 and (e >> 3) & 1 == 0, what .. ": a PDE (IS_PTE 0), VOL 0")
  check((e >> 1) & 3 == want_ap, fmt("%s: APERTURE %d, wanted %d", what, (e >> 1) & 3, want_ap))
  check(e >> 54 == 0, what .. ": nothing above ADDRESS 53:8")
  return ((e >> 8) & ((1 << 46) - 1)) << 12
end

-- Walks the tables by hand (VA 48:47, 46:38, 37:29, 28:21, then 20:16 or 20:12) and returns
-- the PTE word for va and a page size; want_ap is the PDE APERTURE code of the tables.
local function walk(ap, pdb, va, page, want_ap)
  local t = pde_child(rd64(ap, pdb + 8 * ((va >> 47) & 3)), want_ap, "PDE3")
  t = pde_child(rd64(ap, t + 8 * ((va >> 38) & 0x1ff)), want_ap, "PDE2")
  t = pde_child(rd64(ap, t + 8 * ((va >> 29) & 0x1ff)), want_ap, "PDE1")
  check(t & 0xfff == 0, "PDE0 table 4 KiB aligned")
  local slot = t + 16 * ((va >> 21) & 0xff)
  local lo, hi = rd64(ap, slot), rd64(ap, slot + 8)
  if page == 0x200000 then
    check(hi == 0, "2 MiB PTE: upper half of the dual PDE0 unused")
    return lo -- NV_MMU_VER2_DUAL_PDE_IS_PTE 0:0 = 1: the low 8 B are the PTE
  end
  check(lo & 1 == 0, "dual PDE0: IS_PTE 0")
  if page == 65536 then
    -- APERTURE_BIG 2:1, VOL_BIG 3:3, ADDRESS_BIG 53:4 = pt >> 8 (ADDRESS_BIG_SHIFT 8).
    check((lo >> 1) & 3 == want_ap and (lo >> 3) & 1 == 0, "dual PDE0: APERTURE_BIG, VOL_BIG 0")
    local pt = ((lo >> 4) & ((1 << 50) - 1)) << 8
    check(pt & 0xff == 0, "64 KiB page table 256-byte aligned")
    return rd64(ap, pt + 8 * ((va >> 16) & 0x1f))
  end
  -- APERTURE_SMALL 66:65, VOL_SMALL 67:67, ADDRESS_SMALL 117:72 = pt >> 12.
  check((hi >> 1) & 3 == want_ap and (hi >> 3) & 1 == 0 and hi & 1 == 0, "dual PDE0: APERTURE_SMALL, VOL_SMALL 0")
  local pt = ((hi >> 8) & ((1 << 46) - 1)) << 12
  return rd64(ap, pt + 8 * ((va >> 12) & 0x1ff))
end

-- NV_MMU_VER2_PTE: VALID 0:0, APERTURE 2:1 (0 VID, 2 SYS_COH, 3 SYS_NCOH), VOL 3:3, ENCRYPTED 4:4,
-- PRIVILEGE 5:5, READ_ONLY 6:6, ATOMIC_DISABLE 7:7, ADDRESS 53:8 = pa >> 12, KIND 63:56.
local function pte(aperture, pa, f)
  f = f or {}
  return 1 | aperture << 1 | (f.vol and 1 << 3 or 0) | (f.priv and 1 << 5 or 0) | (f.ro and 1 << 6 or 0) |
         (f.ad and 1 << 7 or 0) | (pa >> 12) << 8 | (f.kind or 0) << 56
end

local vm = volta.vm(gpu, heap)
check(vm.pdb[1] == "vram" and vm.pdb[2] & 0xfff == 0, "PDB: 4 KiB-aligned, in the heap's aperture")
local PDB = vm.pdb[2]

-- VAs with a non-zero index at every level.
local base = 1 << 47 | 5 << 38 | 7 << 29 | 9 << 21
local va4k, va64k, va2m, vasys = base | 0x11 << 12, base | 1 << 20, base + 3 * (1 << 21), base + 5 * (1 << 21)
vm:map(va4k, "vram", 0x5000000, 0x2000, { priv = true, kind = 0xfe })
vm:map(va64k, "vram", 0x6000000, 0x20000, { page = "64K", vol = true })
vm:map(va2m, "vram", 0x8000000, 0x200000, { page = 0x200000, kind = 0x10 })
vm:map(vasys, "sysmem_ncoh", 0x123000, 0x1000, { ro = true, atomic_disable = true })

check(walk("vram", PDB, va4k, 4096, 1) == pte(0, 0x5000000, { priv = true, kind = 0xfe }), "4 KiB PTE word")
check(walk("vram", PDB, va4k + 0x1000, 4096, 1) == pte(0, 0x5001000, { priv = true, kind = 0xfe }), "next 4K PTE")
check(walk("vram", PDB, va64k, 65536, 1) == pte(0, 0x6000000, { vol = true }), "64 KiB PTE word")
check(walk("vram", PDB, va64k + 0x10000, 65536, 1) == pte(0, 0x6010000, { vol = true }), "next 64K PTE")
check(walk("vram", PDB, va2m, 0x200000, 1) == pte(0, 0x8000000, { kind = 0x10 }), "2 MiB PTE word")
check(walk("vram", PDB, vasys, 4096, 1) == pte(3, 0x123000, { ro = true, ad = true }), "SYS_NCOH PTE word")

-- The model's walker agrees.
local r = gpu:mmu_walk("vram", PDB, va4k + 0x1234, "read", true)
check(r.fault == nil and r.pa == 0x5001234 and r.page_size == 4096 and r.priv and r.kind == 0xfe, "walk 4K")
r = gpu:mmu_walk("vram", PDB, va64k + 0x1abcd)
check(r.fault == nil and r.pa == 0x601abcd and r.page_size == 65536 and r.vol, "walk 64K")
r = gpu:mmu_walk("vram", PDB, va2m + 0x12345)
check(r.fault == nil and r.pa == 0x8012345 and r.page_size == 0x200000 and r.kind == 0x10, "walk 2M")
r = gpu:mmu_walk("vram", PDB, vasys + 8)
check(r.fault == nil and r.pa == 0x123008 and r.aperture == "sysmem_ncoh" and r.ro and r.atomic_disable, "walk SYS")
check(gpu:mmu_walk("vram", PDB, va4k + 0x2000).fault == "PTE", "unmapped 4K page in a built table: PTE fault")
check(gpu:mmu_walk("vram", PDB, 0x1000).fault == "PDE", "VA under no directory: PDE fault")
r = gpu:mmu_translate{ pdb = vm.pdb, va = va64k + 8 }
check(r.fault == nil and r.pa == 0x6000008, "mmu_translate through the PDB")

-- Tables in coherent system memory: PDE APERTURE 2.
local sheap = volta.heap(gpu, "sysmem", 0x100000, "4M")
local svm = volta.vm(gpu, sheap, { va_base = 0x40000000 })
check(svm.pdb[1] == "sysmem", "PDB in system memory")
svm:map(0x40000000, "vram", 0x9000000, 0x1000)
check(walk("sysmem", svm.pdb[2], 0x40000000, 4096, 2) == pte(0, 0x9000000), "tables in sysmem: PDE APERTURE 2")
check(gpu:mmu_walk("sysmem_coh", svm.pdb[2], 0x40000010).pa == 0x9000010, "walk through sysmem tables")

-- alloc_map: fresh memory from the heap at the next free VA.
local va1, pa1, ap1 = vm:alloc_map(0x1800)
local va2, pa2 = vm:alloc_map(100, { page = "64K" })
check(va1 == 0x100000000 and ap1 == "vram" and pa1 & 0xfff == 0, "alloc_map: default VA base 4 GiB")
check(va2 == 0x100010000 and pa2 & 0xffff == 0, "alloc_map: 64K pages are 64K aligned in VA and PA")
check(gpu:mmu_walk("vram", PDB, va1 + 0x1004).pa == pa1 + 0x1004, "alloc_map: 4K mapping (size rounded up)")
check(gpu:mmu_walk("vram", PDB, va2 + 0xfff0).page_size == 65536, "alloc_map: 64K mapping")
local ap, pa, left = vm:lookup(va1 + 0x10)
check(ap == "vram" and pa == pa1 + 0x10 and left == 0x2000 - 0x10, "lookup: the builder's own record")
check(vm:lookup(0x10) == nil, "lookup of an unmapped VA")
vm:write(va1 + 0x1ffc, "abcd")
check(gpu:mem_read("vram", pa1 + 0x1ffc, 4) == "abcd" and vm:read(va1 + 0x1ffc, 4) == "abcd", "write/read by VA")
vm:wr32(va2, 0x11223344, 0xdeadbeef)
check(gpu:mem_rd32("vram", pa2 + 4) == 0xdeadbeef and select(2, vm:rd32(va2, 2)) == 0xdeadbeef, "wr32/rd32 by VA")

fails(function() vm:map(0x1800, "vram", 0, 0x1000) end, "must be multiples of the page size", "unaligned VA")
fails(function() vm:map(va2m, "vram", 0, 0x1000) end, "already holds a 2 MiB page", "4K page in a 2M slot")
fails(function() vm:map(va4k & ~0x1fffff, "vram", 0, 0x200000, { page = "2M" }) end,
      "cannot share its dual PDE0 with page tables", "2M page over page tables")
fails(function() vm:map((va4k & ~0x1fffff) - 0x200000, "vram", 0, 0x400000, { page = "2M" }) end,
      "cannot share its dual PDE0", "2M pages whose second slot has page tables")
check(gpu:mmu_walk("vram", PDB, (va4k & ~0x1fffff) - 0x200000).fault ~= nil, "... and nothing was written")
fails(function() vm:map((1 << 49) - 0x1000, "vram", 0, 0x2000) end, "passes the 49-bit VA limit", "VA limit")
fails(function() vm:map(0x1000, "vram", 1 << 37, 0x1000) end, "does not fit the 37-bit PTE address of vram",
      "VID addresses are PA 36:12")
fails(function() vm:map(0x1000, "vram", 0, 0x1000, { page = 8192 }) end, "page must be 4096, 65536 or 0x200000",
      "page sizes")
fails(function() vm:map(0x1000, "vram", 0, 0x1000, { kind = 0x100 }) end, "kind = 0x100 out of range", "KIND 63:56")
fails(function() vm:map(0x1000, "vram", 0, 0x1000, { pgae = 4096 }) end, "unknown option 'pgae'", "option typos")
fails(function() vm:read(va1 + 0x1ff0, 0x20) end, "is not mapped by this builder", "read past a mapping")
fails(function() volta.vm(gpu, {}) end, "heap must be a heap", "vm wants a heap")

-- ------------------------------------------------------------ instance blocks

-- The RAMFC words nouveau writes (volta-facts.md section 3), at NV_RAMFC_* byte offsets.
local function ramfc(userd, userd_target, gpfifo, limit2, chid, o)
  o = o or {}
  local priv = o.priv ~= false
  return {
    [0x008] = (userd & 0xffffffff) | userd_target, -- USERD (TARGET 1:0, ADDR 31:9)
    [0x00c] = userd >> 32, -- USERD_HI
    [0x010] = 0xface, -- SIGNATURE
    [0x030] = 0x7ffff902, -- ACQUIRE
    [0x048] = gpfifo & 0xffffffff, -- GP_BASE
    [0x04c] = gpfifo >> 32 | limit2 << 16, -- GP_BASE_HI: OFFSET 7:0, LIMIT2 20:16
    [0x084] = 0x20400000, -- PB_HEADER
    [0x094] = 0x30000000 | (o.subdevice or 0xfff), -- SUBDEVICE
    [0x0ac] = 0x30000, -- TARGET: ENG_CTX_VALID 16:16, CE_CTX_VALID 17:17
    [0x0e4] = priv and 0x20 or 0, -- HCE_CTRL
    [0x0e8] = chid, -- dword 58
    [0x0f4] = priv and 0x1100 or 0x1000, -- CONFIG
    [0x0f8] = 0x10003080, -- dword 62
  }
end

-- NV_RAMIN_PAGE_DIR_BASE (dword 128): TARGET 1:0, VOL 2:2, FAULT_REPLAY_TEX 4:4, _GCC 5:5,
-- USE_VER2_PT_FORMAT 10:10, BIG_PAGE_SIZE 11:11 (1 = 64KB), PAGE_DIR_BASE_LO 31:12; HI dword 129.
-- The SC_* copies at dwords 168+4i/169+4i, SC_PDB_VALID(i) bits in dwords 166-167.
local function ramin(pdb, target, o)
  o = o or {}
  local dir = (pdb & 0xfffff000) | target | (o.vol and 4 or 0) | (o.replay and 0x30 or 0) | 1 << 10 | 1 << 11
  local t = { [128 * 4] = dir, [129 * 4] = pdb >> 32 }
  local n, valid = o.subcontexts or 1, 0
  for i = 0, 63 do
    if i < n then
      t[(168 + 4 * i) * 4], t[(169 + 4 * i) * 4] = dir, pdb >> 32
      valid = valid | 1 << i
    else
      t[(168 + 4 * i) * 4] = 1 -- SC_PAGE_DIR_BASE_TARGET INVALID
    end
  end
  t[166 * 4], t[167 * 4] = valid & 0xffffffff, valid >> 32
  return t
end

-- Every dword of the 4 KiB block: the expected ones, zero elsewhere.
local function check_block(ap, addr, ...)
  local want = {}
  for _, t in ipairs{ ... } do for k, v in pairs(t) do want[k] = v end end
  local got = words(gpu:mem_read(ap, addr, 4096))
  for i = 1, 1024 do
    local off = 4 * (i - 1)
    if got[i] ~= (want[off] or 0) then
      check(false, fmt("instance block %s 0x%x + 0x%03x = 0x%08x, wanted 0x%08x", ap, addr, off, got[i],
                       want[off] or 0))
    end
  end
  check(true, "instance block words")
end

local INST = 0x1000000
gpu:mem_write("vram", INST, string.rep("\xff", 4096)) -- the builder clears the whole block
volta.instance(gpu, "vram", INST, { vm = vm, chid = 5, userd = { "vram", 0x3000200 }, gpfifo = 0x100002000,
                                    gpfifo_entries = 256 })
check_block("vram", INST, ramfc(0x3000200, 0, 0x100002000, 8, 5), ramin(PDB, 0))
r = gpu:mmu_translate{ inst = { "vram", INST }, va = va4k, priv = true }
check(r.fault == nil and r.pa == 0x5000000, "translation through the instance block (PAGE_DIR_BASE)")
r = gpu:mmu_translate{ inst = { "vram", INST }, va = va4k, priv = true, veid = 0 }
check(r.fault == nil and r.pa == 0x5000000, "subcontext 0 (SC_PAGE_DIR_BASE(0), SC_PDB_VALID)")
check(gpu:mmu_translate{ inst = { "vram", INST }, va = va4k, priv = true, veid = 1 }.fault == "UNBOUND_INST_BLOCK",
      "subcontext 1 is not valid")

-- Options: user channel (priv = false), subdevice id, replayable faults, 3 subcontexts,
-- USERD in non-coherent system memory, directory in coherent system memory (VOL, as nouveau).
volta.instance(gpu, "sysmem", 0x2000000, { pdb = svm.pdb, chid = 4095, userd = { "sysmem_ncoh", 0x12345600 },
                                          gpfifo = 0xff00001000, gpfifo_entries = 2, priv = false,
                                          subdevice = 3, replay = true, subcontexts = 3 })
check_block("sysmem", 0x2000000, ramfc(0x12345600, 3, 0xff00001000, 1, 4095, { priv = false, subdevice = 3 }),
            ramin(svm.pdb[2], 2, { vol = true, replay = true, subcontexts = 3 }))

fails(function() volta.instance(gpu, "vram", INST + 8, {}) end, "not 4 KiB aligned", "instance alignment")
fails(function() volta.instance(gpu, "vram", INST, { chid = 1 }) end, "give vm =", "instance without a VM")
local iopts = { vm = vm, chid = 1, userd = { "vram", 0x3000100 }, gpfifo = 0x1000, gpfifo_entries = 8 }
fails(function() volta.instance(gpu, "vram", INST, iopts) end, "not 512-byte aligned", "USERD alignment")
iopts.userd[2], iopts.gpfifo_entries = 0x3000200, 12
fails(function() volta.instance(gpu, "vram", INST, iopts) end, "is not a power of two", "LIMIT2 needs 2^n entries")
iopts.gpfifo_entries, iopts.gpfifo = 8, 0x1004
fails(function() volta.instance(gpu, "vram", INST, iopts) end, "not 8-byte aligned", "GP_BASE OFFSET 31:3")

-- ------------------------------------------------------------ GP entries

-- E0: FETCH 0:0, GET 31:2; E1: GET_HI 7:0, PRIV 8:8, LEVEL 9:9, LENGTH 30:10, SYNC 31:31.
local e0, e1 = volta.gp_entry(0x123456789c, 0x1fffff)
check(e0 == 0x3456789c and e1 == 0x12 | 0x1fffff << 10, "gp_entry: GET, GET_HI, LENGTH")
e0, e1 = volta.gp_entry(0xff00000004, 3, { fetch = "conditional", priv = true, level = "subroutine", sync = true })
check(e0 == 0x00000005 and e1 == 0xff | 1 << 8 | 1 << 9 | 3 << 10 | 1 << 31, "gp_entry: FETCH, PRIV, LEVEL, SYNC")
-- Control entries: LENGTH 0, OPCODE 7:0 (NOP 0, ILLEGAL 1, GP_CRC 2, PB_CRC 3), OPERAND 31:0.
e0, e1 = volta.gp_control("pb_crc", 0xdeadbeef, { sync = true })
check(e0 == 0xdeadbeef and e1 == 3 | 1 << 31, "gp_control: PB_CRC with SYNC")
e0, e1 = volta.gp_control("nop")
check(e0 == 0 and e1 == 0, "gp_control: NOP")
check(select(2, volta.gp_control(0x42, 1)) == 0x42, "gp_control: any opcode number (bad ones are for tests)")
fails(function() volta.gp_entry(0x1002, 1) end, "not 4-byte aligned", "GET 31:2")
fails(function() volta.gp_entry(1 << 40, 1) end, "va = 0x10000000000 out of range", "40-bit PB addresses")
fails(function() volta.gp_entry(0x1000, 0) end, "ndwords = 0x0 out of range", "LENGTH 0 is a control entry")
fails(function() volta.gp_entry(0x1000, 1 << 21) end, "ndwords = 0x200000 out of range", "LENGTH is 21 bits")
fails(function() volta.gp_entry(0x1000, 1, { level = "sub" }) end, 'level must be one of "main", "subroutine"',
      "LEVEL names")
fails(function() volta.gp_control("jump") end, "opcode must be one of", "opcode names")

-- ------------------------------------------------------------ channels

local mmio = {}
gpu:on("mmio", function(ev) mmio[#mmio + 1] = { ev.addr, ev.value } end)
local function mmio_is(want, what)
  local ok = #mmio == #want
  for i = 1, #want do ok = ok and mmio[i][1] == want[i][1] and mmio[i][2] == want[i][2] end
  local got = {}
  for i, w in ipairs(mmio) do got[i] = fmt("0x%x=0x%x", w[1], w[2]) end
  check(ok, what .. ": register writes " .. table.concat(got, " "))
  mmio = {}
end

local ch = volta.channel(gpu, vm, { chid = 7, runlist = 0, gpfifo_entries = 4, pb_size = 0x1000 })
local inst = ch.inst[2]
check(ch.inst[1] == "vram" and inst & 0xfff == 0 and ch.userd[2] & 0x1ff == 0, "channel: inst and USERD aligned")
-- Bind: NV_PCCSR_CHANNEL_INST(7) = BIND | TARGET VID | inst >> 12; enable: NV_PCCSR_CHANNEL(7) ENABLE_SET.
mmio_is({ { 0x800000 + 7 * 8, 0x80000000 | inst >> 12 }, { 0x800004 + 7 * 8, 0x400 } }, "bind then enable")
check_block("vram", inst, ramfc(ch.userd[2], 0, ch.gpfifo.va, 2, 7), ramin(PDB, 0))
check(gpu:mem_read("vram", ch.userd[2], 512) == string.rep("\0", 512), "USERD cleared")
check(gpu:mmu_translate{ inst = ch.inst, va = ch.gpfifo.va + 24 }.pa == ch.gpfifo.pa + 24, "GPFIFO ring mapped")
check(gpu:mmu_translate{ inst = ch.inst, va = ch.pb.va + 0xffc }.pa == ch.pb.pa + 0xffc, "pushbuffer area mapped")

-- The doorbell comes after GP_PUT is in USERD (gv100_dev_usermode: steps 3 then 4).
local put_at_doorbell
gpu:on("mmio", function(ev)
  if ev.addr == 0x810090 then put_at_doorbell = gpu:mem_rd32(ch.userd[1], ch.userd[2] + 0x8c) end
end)

local text = "inc 0 SEM_ADDR_LO 0x1000 0 7 0\ninc 0 SEM_EXECUTE 1"
local idx, va = ch:push(text, { sync = true, priv = true })
check(idx == 0 and va == ch.pb.va, "first segment at the start of the area, GP entry 0")
check(gpu:mem_read(ch.pb.ap, ch.pb.pa, 28) == nvmodel.pb_asm(text), "segment bytes are the assembled text")
check(same({ gpu:mem_rd32(ch.gpfifo.ap, ch.gpfifo.pa, 2) },
           { va & 0xfffffffc, (va >> 32) & 0xff | 1 << 8 | 7 << 10 | 1 << 31 }),
      "GP entry 0: GET, LENGTH 7, PRIV, SYNC")
check(gpu:mem_rd32(ch.userd[1], ch.userd[2] + 0x8c) == 1 and ch:gp_put() == 1 and ch:read_userd("GP_PUT") == 1,
      "NV_RAMUSERD_GP_PUT (dword 35) = 1")
mmio_is({ { 0x810090, 7 } }, "doorbell: NOTIFY_CHANNEL_PENDING = chid")
check(put_at_doorbell == 1, "GP_PUT was written before the doorbell")

idx, va = ch:push({ 0x20010002, 0xabc }, { level = "subroutine", fetch = "conditional", kick = false })
check(idx == 1 and va == ch.pb.va + 28, "second segment right after the first")
check(same({ gpu:mem_rd32(ch.gpfifo.ap, ch.gpfifo.pa + 8, 2) },
           { (va & 0xfffffffc) | 1, (va >> 32) & 0xff | 1 << 9 | 2 << 10 }), "GP entry 1: FETCH, LEVEL")
check(ch:read_userd("GP_PUT") == 1 and #mmio == 0, "kick = false: GP_PUT not published, no doorbell")
ch:kick()
check(ch:read_userd("GP_PUT") == 2, "kick publishes GP_PUT")
mmio_is({ { 0x810090, 7 } }, "kick rings")
check(ch:push_entry(volta.gp_control("nop")) == 2, "a control entry at GP_PUT 2")
check(same({ gpu:mem_rd32(ch.gpfifo.ap, ch.gpfifo.pa + 16, 2) }, { 0, 0 }), "GP entry 2: NOP control")
mmio = {}

-- 4 entries: with GP_GET still 0 (no Host has run), GP_PUT 3 is the last one.
fails(function() ch:push("nop") end, "GPFIFO full (4 entries, GP_GET 0, GP_PUT 3)", "a full ring")
-- Host writes GP_GET back to USERD (NV_RAMUSERD_GP_GET, dword 34); here the script plays Host.
gpu:mem_wr32(ch.userd[1], ch.userd[2] + 0x88, 1)
check(ch:read_userd("GP_GET") == 1, "read_userd by name")
local big = {}
for i = 1, 0x3f8 do big[i] = 0 end -- 0xfe0 bytes: more than is left after the first two segments
fails(function() ch:push(big) end, "pushbuffer area full (0x1000 bytes) and Host has not processed", "no room left")
gpu:mem_wr32(ch.userd[1], ch.userd[2] + 0x88, 3) -- everything pushed so far was processed
idx, va = ch:push(big)
check(idx == 3 and va == ch.pb.va, "once Host has caught up, the area is reused from its start")
check(ch:gp_put() == 0 and ch:read_userd("GP_PUT") == 0, "GP_PUT wraps modulo the ring size")
idx, va = ch:push("nop")
check(idx == 0 and va == ch.pb.va + 0xfe0, "GP entry 0 again, after the big segment")
check(gpu:mem_rd32(ch.gpfifo.ap, ch.gpfifo.pa) == va & 0xffffffff, "GP entry 0 rewritten")
mmio = {}

fails(function() ch:push("nop\nbogus") end, "push:2: unknown instruction 'bogus'", "assembler errors")
fails(function() ch:push("bogus", { name = "seg.s" }) end, "seg.s:1: unknown instruction", "named text")
fails(function() ch:push("# nothing") end, "empty pushbuffer segment", "an empty segment")
fails(function() ch:push({ 1 << 32 }) end, "word 1 = 0x100000000 out of range", "words are 32-bit")
fails(function() ch:push(42) end, "give assembler text or a list of dwords", "push argument")
fails(function() ch:push("nop", { snyc = true }) end, "unknown option 'snyc'", "push option typos")
fails(function() ch:read_userd("GP_GOT") end, "unknown field GP_GOT", "USERD names")
for i = 1, 0x401 do big[i] = 0 end
fails(function() ch:push(big) end, "4100 bytes do not fit the pushbuffer area of 0x1000", "too big a segment")

-- NV_RAMUSERD_* byte offsets (seed 000 section 4: dword n at 4n).
local USERD = { PUT = 16, GET = 17, REF = 18, PUT_HI = 19, TOP_LEVEL_GET = 22, TOP_LEVEL_GET_HI = 23, GET_HI = 24,
                GP_GET = 34, GP_PUT = 35 }
for name, dw in pairs(USERD) do
  gpu:mem_wr32(ch.userd[1], ch.userd[2] + 4 * dw, 0x1000 + dw)
  check(ch:read_userd(name) == 0x1000 + dw and ch:read_userd(name:lower()) == 0x1000 + dw, "USERD " .. name)
end

mmio = {}
local ch2 = volta.channel(gpu, vm, { chid = 9, runq = 1, runlist = 0, bind = false })
check(#mmio == 0, "bind = false: no register writes")
ch2:bind()
ch2:disable()
mmio_is({ { 0x800048, 0x80000000 | ch2.inst[2] >> 12 }, { 0x80004c, 0x800 } }, "bind, then ENABLE_CLR 11:11")
local ch3 = volta.channel(gpu, vm, { chid = 12, heap = sheap, userd_heap = volta.heap(gpu, "sysmem_ncoh", 0x800000,
                                                                                       0x1000), enable = false })
check(ch3.inst[1] == "sysmem" and ch3.userd[1] == "sysmem_ncoh", "instance and USERD in system memory")
mmio_is({ { 0x800060, 0x80000000 | 2 << 28 | ch3.inst[2] >> 12 } }, "bind TARGET SYS_MEM_COHERENT, no enable")
check(gpu:mem_rd32("sysmem", ch3.inst[2] + 8) == ch3.userd[2] | 3, "RAMFC USERD TARGET SYS_MEM_NONCOHERENT")
-- The channel's GPFIFO and pushbuffer come from its heap but are mapped in the VM (tables in vram).
check(gpu:mmu_translate{ inst = ch3.inst, va = ch3.gpfifo.va }.aperture == "sysmem_coh", "ring in system memory")

fails(function() volta.channel(gpu, vm, { chid = 4096 }) end, "chid = 0x1000 out of range", "4096 channels")
fails(function() volta.channel(gpu, vm, { chid = 1, gpfifo_entries = 3 }) end, "not a power of two", "ring size")
fails(function() volta.channel(gpu, vm, { chid = 1, runq = 2 }) end, "runq = 0x2 out of range", "RUNQUEUE 1:1")
fails(function() volta.channel(gpu, vm, { chid = 1, entries = 8 }) end, "unknown option 'entries'", "option typos")
fails(function() volta.channel(gpu, heap, { chid = 1 }) end, "argument 2 must be a vm", "channel wants a vm")

-- ------------------------------------------------------------ runlists

local plain = { chid = 100, inst = { "sysmem", 0x5000 }, userd = { "sysmem_ncoh", 0x6200 } }
mmio = {}
local rl = volta.runlist(gpu, heap, { { id = 3, ch, ch2 }, { id = 4, timeout = 10, scale = 2, plain }, ch3 })
check(rl.addr & 0xfff == 0 and rl.length == 7 and rl.ap == "vram", "runlist: 4 KiB aligned, 7 entries")
check(#mmio == 0, "writing a runlist pokes no register")
local rw = words(gpu:mem_read("vram", rl.addr, 7 * 16))
local function entry(i) return { rw[4 * i + 1], rw[4 * i + 2], rw[4 * i + 3], rw[4 * i + 4] } end
-- nouveau's TSG header: (128 << 24) | (3 << 16) | 1, channel count, TSGID, 0.
check(same(entry(0), { 128 << 24 | 3 << 16 | 1, 2, 3, 0 }), "TSG header as nouveau writes it")
-- nouveau's channel entry: USERD lo | runq << 1 (targets 0 = VID), USERD hi, inst lo | chid, inst hi.
check(same(entry(1), { ch.userd[2] & 0xffffffff, 0, inst | 7, 0 }), "channel entry as nouveau writes it")
check(same(entry(2), { ch2.userd[2] | 1 << 1, 0, ch2.inst[2] | 9, 0 }), "RUNQUEUE_SELECTOR 1:1")
-- TIMESLICE_TIMEOUT 31:24, TIMESLICE_SCALE 19:16; INST_TARGET 5:4, USERD_TARGET 7:6.
check(same(entry(3), { 10 << 24 | 2 << 16 | 1, 1, 4, 0 }), "TSG timeslice fields")
check(same(entry(4), { 0x6200 | 3 << 6 | 2 << 4, 0, 0x5000 | 100, 0 }), "channel entry with sysmem targets")
check(same(entry(5), { 128 << 24 | 3 << 16 | 1, 1, 12, 0 }), "a channel alone is a TSG of one (id = chid)")
check(same(entry(6), { ch3.userd[2] | 3 << 6 | 2 << 4, 0, ch3.inst[2] | 12, 0 }), "its channel entry")

rl:submit(2)
-- NV_PFIFO_RUNLIST_BASE: PTR 27:0 = addr >> 12, TARGET 29:28; NV_PFIFO_RUNLIST: LENGTH 15:0, ID 23:20.
mmio_is({ { 0x2270, rl.addr >> 12 }, { 0x2274, 2 << 20 | 7 } }, "submit: RUNLIST_BASE then RUNLIST")
local rl0 = volta.runlist(gpu, volta.heap(gpu, "sysmem_ncoh", 0x900000, 0x1000), { ch })
rl0:submit() -- the channel names runlist 0
mmio_is({ { 0x2270, 3 << 28 | 0x900 }, { 0x2274, 0 << 20 | 2 } }, "submit: runlist id from the channels")
check(rl0:pending(0) == ((gpu:rd32(0x2284) >> 20) & 1 == 1), "pending reads NV_PFIFO_ENG_RUNLIST(0) PENDING 20:20")
check(rl0:pending(5) == ((gpu:rd32(0x2284 + 5 * 8) >> 20) & 1 == 1), "pending(id) at 0x2284 + id*8")
local empty = volta.runlist(gpu, heap, {})
empty:submit(1)
mmio_is({ { 0x2270, empty.addr >> 12 }, { 0x2274, 1 << 20 } }, "an empty runlist: LENGTH 0")

fails(function() empty:submit() end, "give the runlist id", "no id and no channel naming one")
fails(function() rl:submit(13) end, "runlist id = 0xd out of range [0x0, 0xc]", "13 runlists")
fails(function() volta.runlist(gpu, heap, { { id = 1 } }) end, "TSG_LENGTH must be 1..128", "an empty TSG")
local many = { id = 1 }
for i = 1, 129 do many[i] = plain end
fails(function() volta.runlist(gpu, heap, { many }) end, "129 channels", "TSG_LENGTH_MAX 128")
fails(function() volta.runlist(gpu, heap, { { id = 4096, plain } }) end, "id = 0x1000 out of range", "TSGID 11:0")
fails(function() volta.runlist(gpu, heap, { { id = 1, timeout = 256, plain } }) end, "timeout = 0x100", "TIMEOUT")
fails(function() volta.runlist(gpu, heap, { { id = 1, { chid = 1 } } }) end, "inst must be {aperture, address}",
      "channel entries need inst and USERD")
fails(function() volta.runlist(gpu, heap, { { id = 1, { chid = 1, inst = { "vram", 0x1100 },
                                                        userd = { "vram", 0 } } } }) end, "must be 4 KiB",
      "INST_PTR_LO 31:12")
fails(function() volta.runlist(gpu, heap, { 5 }) end, "TSG 1 is not a table", "TSG entries")

-- The builder's RAMFC and USERD offsets come from the field tables the model and
-- `nvmodel host` read (nvmodel.host_layout), not from copies.
do
  local fc, ud = nvmodel.host_layout("ramfc", true), nvmodel.host_layout("userd")
  check(fc.name == "NV_RAMFC" and fc.size == 512 and ud.name == "NV_RAMUSERD", "host_layout names")
  check(fc.USERD == 0x008 and fc.SIGNATURE == 0x010 and fc.GP_BASE_HI == 0x04c and fc.CONFIG == 0x0f4,
        "RAMFC offsets")
  check(fc.fields.GP_BASE_HI.LIMIT2[1] == 20 and fc.fields.GP_BASE_HI.LIMIT2[2] == 16, "GP_BASE_HI LIMIT2 20:16")
  check(ud.GP_PUT == 0x8c and ud.GP_GET == 0x88 and volta.USERD.GP_PUT == ud.GP_PUT, "USERD offsets")
  check(next(ud.fields) == nil, "field positions only when asked")
  check(not pcall(nvmodel.host_layout, "ramht"), "unknown structure refused")
end
