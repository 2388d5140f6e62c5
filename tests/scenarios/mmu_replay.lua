-- GMMU scenario: a GPC TEX access faults, UVM-style handling maps the page
-- and replays it (seed 003; volta-facts.md section 3, uvm_volta_fault_buffer.c).
-- Page tables are built as nouveau / UVM build them (ver2, volta-facts e).

local INST, PDB = 0x10000, 0x100000
local FB1 = 0x900000                                      -- replayable fault buffer
local FB_LO1, FB_HI1, FB_GET1, FB_PUT1, FB_SIZE1 = 0x100E38, 0x100E3C, 0x100E40, 0x100E44, 0x100E48
local INVALIDATE = 0x100CBC
local NISO_INTR, NISO_EN_SET = 0x100A20, 0x100A2C
local PMC_INTR, PMC_INTR_EN_SET = 0x100, 0x160

local gpu = nvmodel.open{ chip = "gv100", vram = "1G", sysmem = "1G" }

local function w64(addr, v)
  gpu:mem_wr32("vram", addr, v & 0xffffffff, (v >> 32) & 0xffffffff)
end
local function pde(table_addr) return ((table_addr >> 12) << 8) | (1 << 1) end   -- VID
local function pte(pa) return 1 | ((pa >> 12) << 8) end                            -- VALID, VID, kind 0

-- PDE3 -> PDE2 -> PDE1 -> PDE0 (dual) -> small PT, all in VRAM.
w64(PDB, pde(0x101000)); w64(0x101000, pde(0x102000)); w64(0x102000, pde(0x103000))
w64(0x103000 + 8, pde(0x104000))            -- PDE0[0] small half (bits 72+)
w64(0x104000, pte(0x500000))                -- va 0x0000 -> 0x500000

-- RAMIN: PAGE_DIR_BASE VID, FAULT_REPLAY_TEX, USE_VER2_PT_FORMAT, BIG_PAGE_SIZE 64KB.
gpu:mem_wr32("vram", INST + 128 * 4, 0 | (1 << 4) | (1 << 10) | (1 << 11) | PDB, 0)

-- Replayable fault buffer, physical in VRAM, 16 entries; interrupts on.
gpu:wr32(FB_SIZE1, 0); gpu:wr32(FB_HI1, 0); gpu:wr32(FB_LO1, FB1 | 1)
gpu:wr32(FB_SIZE1, 0x80000000 | 16)
gpu:wr32(NISO_EN_SET, 1 << 27); gpu:wr32(PMC_INTR_EN_SET, 1 << 9)

local faults = {}
gpu:on("fault", function(ev) faults[#faults + 1] = ev end)

local req = { inst = { "vram", INST }, va = 0x3000, access = "read", client_type = "gpc", client = 0, gpc = 2 }
local ok = gpu:mmu_translate{ inst = { "vram", INST }, va = 0x0008 }
check(ok.fault == nil and ok.pa == 0x500008, "mapped VA translates")

local r = gpu:mmu_translate(req)
check(r.fault == "PTE" and r.replayable and r.ticket > 0, "TEX fault is replayable")
check(#faults == 1 and faults[1].code == "PTE" and faults[1].addr == 0x3000, "fault hook saw it")
check(gpu:mmu_pending() == 1, "request waits for a replay")
check(gpu:intr(), "interrupt line raised")
check((gpu:rd32(NISO_INTR) >> 27) & 1 == 1, "NISO replayable bit")

-- The UVM driver: read PUT, parse the packet, clear VALID, write GET twice.
local put = gpu:rd32(FB_PUT1) & 0xfffff
check(put == 1, "one packet")
local dw2, dw3 = gpu:mem_rd32("vram", FB1 + 8, 2)
local dw7 = gpu:mem_rd32("vram", FB1 + 28)
check(dw2 == 0x3000 and dw3 == 0, "packet address")
check((dw7 >> 31) == 1 and ((dw7 >> 7) & 1) == 1 and ((dw7 >> 30) & 1) == 1, "VALID, REPLAYABLE_FAULT, _EN")
check(((dw7 >> 24) & 0x1f) == 2, "GPC_ID")
gpu:mem_wr32("vram", FB1 + 28, dw7 & 0x7fffffff)
gpu:wr32(FB_GET1, put); gpu:wr32(FB_GET1, put | 0xc0000000)
check(not gpu:intr(), "interrupt line drops once GET catches up")

-- Map the page, then replay as UVM does (MEM_OP TLB_INVALIDATE_TARGETED with
-- REPLAY=START_ACK_ALL; here through PFB_PRI_MMU_INVALIDATE).
w64(0x104000 + 3 * 8, pte(0x600000))
gpu:wr32(INVALIDATE, 0x80000000 | (2 << 3) | 3)
check(gpu:mmu_pending() == 0, "replayed request completed")
check(gpu:mmu_stats().replayed_ok == 1, "replay counted")
check(gpu:mmu_translate(req).pa == 0x600000, "now translates")

-- A second fault cancelled globally through the MEM_OP interface.
gpu:mmu_translate{ inst = { "vram", INST }, va = 0x7000, client = 1 }
check(gpu:mmu_pending() == 1, "second request waits")
gpu:mmu_invalidate{ replay = "cancel_global" }
check(gpu:mmu_pending() == 0 and gpu:mmu_stats().cancelled == 1, "cancelled")
print(string.format("faults %d, translations %d", gpu:mmu_stats().faults, gpu:mmu_stats().translations))
