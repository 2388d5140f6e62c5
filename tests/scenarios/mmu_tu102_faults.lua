-- GMMU scenario on the tu102 chip row: the fault buffers and the TLB
-- invalidate are NV_VIRTUAL_FUNCTION_PRIV_MMU_* registers at BAR0 0xB80000 +
-- 0x3000 (tu104_dev_vm.ref; where nouveau's tu102 fault and flush code
-- reads and writes them), not gv100's NV_PFB_PRI_MMU_* addresses. The page
-- tables are ver2, as on gv100.

local INST, PDB = 0x10000, 0x100000
local FB1 = 0x900000                                           -- replayable fault buffer
local VF = 0xB83000
local FB_LO1, FB_HI1, FB_GET1, FB_PUT1, FB_SIZE1 = VF + 0x20, VF + 0x24, VF + 0x28, VF + 0x2C, VF + 0x30
local FAULT_STATUS = VF + 0x94
local INV_PDB, INV_UPPER_PDB, INVALIDATE = VF + 0xA0, VF + 0xA4, VF + 0xB0

local gpu = nvmodel.open{ chip = "tu102", vram = "1G", sysmem = "1G" }

local function w64(addr, v)
  gpu:mem_wr32("vram", addr, v & 0xffffffff, (v >> 32) & 0xffffffff)
end
local function pde(table_addr) return ((table_addr >> 12) << 8) | (1 << 1) end   -- VID
local function pte(pa) return 1 | ((pa >> 12) << 8) end                            -- VALID, VID, kind 0

w64(PDB, pde(0x101000)); w64(0x101000, pde(0x102000)); w64(0x102000, pde(0x103000))
w64(0x103000 + 8, pde(0x104000))
w64(0x104000, pte(0x500000))

-- RAMIN: PAGE_DIR_BASE VID, FAULT_REPLAY_TEX, USE_VER2_PT_FORMAT, BIG_PAGE_SIZE 64KB.
gpu:mem_wr32("vram", INST + 128 * 4, 0 | (1 << 4) | (1 << 10) | (1 << 11) | PDB, 0)

-- The replayable buffer, physical in VRAM, 16 entries, at the VF registers.
gpu:wr32(FB_SIZE1, 0); gpu:wr32(FB_HI1, 0); gpu:wr32(FB_LO1, FB1 | 1)
gpu:wr32(FB_SIZE1, 0x80000000 | 16)
check(gpu:rd32(0x100E48) == 0, "no fault buffer at gv100's address")

local req = { inst = { "vram", INST }, va = 0x3000, access = "read", client_type = "gpc", client = 0, gpc = 1 }
local r = gpu:mmu_translate(req)
check(r.fault == "PTE" and r.replayable, "TEX fault is replayable")
check(gpu:rd32(FB_PUT1) & 0xfffff == 1, "one packet at the VF PUT")
check((gpu:rd32(FAULT_STATUS) >> 8) & 1 == 1, "VF FAULT_STATUS REPLAYABLE")
local dw2 = gpu:mem_rd32("vram", FB1 + 8)
check(dw2 == 0x3000, "packet address")
gpu:wr32(FB_GET1, 1)

-- Map the page and replay through the VF invalidate (PDB, then TRIGGER |
-- REPLAY START_ACK_ALL | ALL_PDB | ALL_VA).
w64(0x104000 + 3 * 8, pte(0x600000))
gpu:wr32(INV_PDB, (PDB >> 12) << 4); gpu:wr32(INV_UPPER_PDB, 0)
gpu:wr32(INVALIDATE, 0x80000000 | (2 << 3) | 3)
check(gpu:mmu_pending() == 0, "replayed request completed")
check(gpu:mmu_translate(req).pa == 0x600000, "now translates")
print(string.format("tu102: faults %d, translations %d", gpu:mmu_stats().faults, gpu:mmu_stats().translations))
