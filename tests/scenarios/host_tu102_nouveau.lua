-- Two Turing (tu102) channels set up with raw memory and register pokes,
-- with the words nouveau's tu102 code writes (host-generations-facts.md
-- "Setup sequences: tu102" and T1-T6, from nvkm/engine/fifo/tu102.c,
-- gv100.c, gk104.c and vfn/tu102.c) in the order nouveau's channel code
-- runs them: the RAMFC at creation, then nvkm_uchan_init (uchan.c) binds
-- (func->bind), allows (nvkm_chan_allow -> func->start: ENABLE_SET and the
-- doorbell) and inserts (nvkm_chan_insert -> nvkm_runl_update_locked: the
-- runlist commit and the PENDING poll). Then run:
-- semaphores (release, and an acquire across channels), SET_REFERENCE, a
-- software method that stalls the PBDMA until the interrupt handler services
-- it, copies with the copy engine (GRCOPY and CE2, class C5B5) and the
-- non-stalling interrupt. Registers: tu104 dev_fifo, dev_usermode, dev_vm,
-- dev_ctrl, dev_pbdma; structures: tu104 dev_ram.
local gpu = nvmodel.open{ chip = "tu102", vram = "64M", sysmem = "16M" }
local fmt = string.format
local function w64(a, v) gpu:mem_wr32("vram", a, v & 0xffffffff, v >> 32) end
local function lo(v) return v & 0xffffffff end
local function hi(v) return v >> 32 end

-- 1. gk104_fifo_init: NV_PFIFO_INTR_0 = ~0 (clear), NV_PFIFO_INTR_EN_0 = 0x7fffffff.
gpu:wr32(0x2100, 0xffffffff)
gpu:wr32(0x2140, 0x7fffffff)
check(gpu:rd32(0x2140) == 0x718101f3, "INTR_EN_0 keeps the bits tu104 defines, CHANNEL_INTR off")
-- 2. tu102_fifo_init_pbdmas: NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE 31:31 (0xB65000).
gpu:wr32(0xb65000, gpu:rd32(0xb65000) | 1 << 31)
-- 3. gk104_runq_init for each of the 12 PBDMAs (NV_PFIFO_CFG0 NUM_PBDMA):
--    NV_PPBDMA_INTR_EN_0 = 0xfffffeff, NV_PPBDMA_INTR_EN_1 = ~0.
local npbdma = gpu:rd32(0x2004) & 0xff
check(npbdma == 12, "12 PBDMAs")
for i = 0, npbdma - 1 do
  gpu:wr32(0x4010c + i * 0x2000, 0xfffffeff)
  gpu:wr32(0x4014c + i * 0x2000, 0xffffffff)
end
gpu:wr32(0x160, 1 << 8) -- NV_PMC_INTR_EN_SET(0): PFIFO

-- ver2 page tables (tu102 uses gv100's GMMU format): PDE3 -> PDE2 -> PDE1 -> dual PDE0 -> 4K PTEs.
local pdb, pd2, pd1, pd0, pt = 0x100000, 0x101000, 0x102000, 0x103000, 0x104000
local function pde(t) return ((t >> 12) << 8) | (1 << 1) end -- ADDRESS, APERTURE VIDEO_MEMORY
w64(pdb, pde(pd2)); w64(pd2, pde(pd1)); w64(pd1, pde(pd0))
w64(pd0 + 8, ((pt >> 12) << 8) | (1 << 1))                   -- the small-page half of the dual PDE
local function map(va, pa) w64(pt + ((va >> 12) & 511) * 8, ((pa >> 12) << 8) | 1) end
local VA = { gp = { 0x10000, 0x11000 }, pb = { 0x20000, 0x21000 }, sem = 0x30000, ctx = 0x40000,
             src = 0x50000, dst = 0x51000, dst2 = 0x52000 }
local PA = { gp = { 0x200000, 0x201000 }, pb = { 0x202000, 0x203000 }, sem = 0x204000, ctx = 0x205000,
             src = 0x206000, dst = 0x207000, dst2 = 0x208000 }
for k, v in pairs(VA) do
  if type(v) == "table" then map(v[1], PA[k][1]); map(v[2], PA[k][2]) else map(v, PA[k]) end
end
local pattern = {}
for i = 0, 1023 do pattern[#pattern + 1] = string.pack("<I4", (i * 2654435761) & 0xffffffff) end
gpu:mem_write("vram", PA.src, table.concat(pattern))

-- Channels: chid 3 on runlist 0 (GR, GRCOPY on subchannel 4), chid 9 on runlist 1 (CE2).
local CH = {
  { chid = 3, runl = 0, tsg = 1, inst = 0x300000, userd = 0x310000, ce = false },
  { chid = 9, runl = 1, tsg = 2, inst = 0x301000, userd = 0x310200, ce = true },
}
for i, c in ipairs(CH) do
  c.gp, c.pb, c.put, c.pb_next = VA.gp[i], PA.pb[i], 0, 0
  c.gp_pa, c.pb_va = PA.gp[i], VA.pb[i]
  local function w(off, v) gpu:mem_wr32("vram", c.inst + off, v) end
  -- 4a. RAMIN (gp100_vmm_join / gv100's subcontexts): PAGE_DIR_BASE (dword 128) TARGET VID_MEM,
  --     USE_VER2_PT_FORMAT 10, BIG_PAGE_SIZE 11 = 64KB, PAGE_DIR_BASE_LO 31:12; SC_PDB_VALID(0)
  --     and SC_PAGE_DIR_BASE(0) the same directory.
  w(128 * 4, pdb | 1 << 10 | 1 << 11); w(129 * 4, 0)
  w(166 * 4, 1); w(168 * 4, pdb | 1 << 10 | 1 << 11); w(169 * 4, 0)
  -- 4b. RAMFC as gv100_chan_ramfc_write (tu102 uses it; T6), GPFIFO of 16 entries (LIMIT2 4).
  w(0x008, c.userd); w(0x00c, 0)             -- USERD (TARGET VID_MEM), USERD_HI
  w(0x010, 0xface)                           -- SIGNATURE VALID
  w(0x030, 0x7ffff902)                       -- ACQUIRE
  w(0x048, lo(c.gp)); w(0x04c, hi(c.gp) | 4 << 16) -- GP_BASE, GP_BASE_HI with LIMIT2
  w(0x084, 0x20400000)                       -- PB_HEADER
  w(0x094, 0x30000000 | 0xfff)               -- SUBDEVICE
  w(0x0e4, 0x20)                             -- HCE_CTRL (priv)
  w(0x0e8, c.chid)                           -- dword 58
  w(0x0f4, 0x1000 | 0x100)                   -- CONFIG: USERD_WRITEBACK, AUTH_LEVEL PRIVILEGED
  w(0x0f8, 0x10003080)                       -- NV_RAMFC_RESERVED62
  -- 4c. Engine binds: GR (gv100_ectx_bind) 0x210/0x214 = ctx VA | 4 and TARGET ENG_CTX_VALID 16;
  --     CE (gv100_ectx_ce_bind) 0x220/0x224 = the ctx address and TARGET CE_CTX_VALID 17.
  if not c.ce then
    w(0x210, lo(VA.ctx) | 4); w(0x214, hi(VA.ctx))
    w(0x0ac, gpu:mem_rd32("vram", c.inst + 0xac) | 1 << 16)
  end
  w(0x220, lo(PA.ctx)); w(0x224, hi(PA.ctx))
  w(0x0ac, gpu:mem_rd32("vram", c.inst + 0xac) | 1 << 17)
  -- 5. gk104_chan_bind_inst: NV_PCCSR_CHANNEL_INST(chid) = 0x80000000 | inst >> 12.
  gpu:wr32(0x800000 + 8 * c.chid, 0x80000000 | c.inst >> 12)
  -- 6. nvkm_chan_allow -> gk104_chan_start: NV_PCCSR_CHANNEL(chid) |= ENABLE_SET 10:10; tu102_chan_start rings the
  --    doorbell: NV_VIRTUAL_FUNCTION_DOORBELL (0xB80000 + 0x30000 + 0x90) = runl << 16 | chid.
  gpu:wr32(0x800004 + 8 * c.chid, gpu:rd32(0x800004 + 8 * c.chid) | 0x400)
  c.handle = c.runl << 16 | c.chid
  gpu:wr32(0xbb0090, c.handle)
  -- 7. nvkm_chan_insert -> the runlist: gv100_runl_insert_cgrp (128 << 24 | 3 << 16 | 1, chan_nr, id, 0) and
  --    gv100_runl_insert_chan (userd | runq << 1, userd_hi, inst | chid, inst_hi); then
  --    tu102_runl_commit: RUNLIST_BASE_LO(i) = lo, _BASE_HI(i) = hi, _SUBMIT(i) = count;
  --    tu102_runl_pending polls SUBMIT_INFO(i) PENDING 15:15.
  local rl = 0x320000 + 0x1000 * c.runl
  gpu:mem_wr32("vram", rl, 128 << 24 | 3 << 16 | 1, 1, c.tsg, 0)
  gpu:mem_wr32("vram", rl + 16, c.userd, 0, c.inst | c.chid, 0)
  local r = 0x2b00 + 16 * c.runl
  gpu:wr32(r, lo(rl)); gpu:wr32(r + 4, hi(rl)); gpu:wr32(r + 8, 2)
  check(gpu:rd32(r + 12) >> 15 & 1 == 1, fmt("runlist %d pending after the submit", c.runl))
  local polls = 0
  while gpu:rd32(r + 12) >> 15 & 1 == 1 do
    gpu:run{ ns = 1000 }
    polls = polls + 1
    check(polls < 100, "the runlist is taken")
  end
end
check(gpu:run{ ns = 100000, idle = true } == "idle", "both channels idle after their start")

-- 8. A submission (nouveau nvif's GPFIFO kick): the segment, the GP entry (GET 31:2, LENGTH
--    30:10; no PRIV in C46F), USERD GP_PUT (+0x8C), then the doorbell handle.
local function submit(c, text)
  local data = nvmodel.pb_asm(text)
  gpu:mem_write("vram", c.pb + c.pb_next, data)
  local va = c.pb_va + c.pb_next
  c.pb_next = c.pb_next + #data
  gpu:mem_wr32("vram", c.gp_pa + 8 * c.put, lo(va) & ~3, (hi(va) & 0xff) | (#data // 4) << 10)
  c.put = c.put + 1
  gpu:mem_wr32("vram", c.userd + 0x8c, c.put)
  gpu:wr32(0xbb0090, c.handle)
end

-- The driver's interrupt handler (gk104_fifo_intr / gk104_runq_intr as far as the model
-- raises them): PBDMA_INTR (29) -> NV_PFIFO_INTR_PBDMA_ID -> that PBDMA's INTR_0; a
-- DEVICE (23) software method is read from METHOD0/DATA0, marked serviced and cleared.
local swm = {}
gpu:on("interrupt", function(ev)
  if ev.value ~= 1 then return end
  if gpu:rd32(0x2100) & (1 << 29) == 0 then return end
  local ids = gpu:rd32(0x25a0)
  for i = 0, npbdma - 1 do
    if ids & (1 << i) ~= 0 then
      local b = 0x40000 + i * 0x2000
      local intr = gpu:rd32(b + 0x108)
      swm[#swm + 1] = { pbdma = i, intr = intr, method = gpu:rd32(b + 0xc0) & 0x3ffc, data = gpu:rd32(b + 0xc4) }
      gpu:wr32(b + 0xc0, 0)   -- METHOD0 VALID off: serviced
      gpu:wr32(b + 0x108, intr) -- clear INTR_0: the PBDMA continues
    end
  end
end)

local S_COPIED, S_REL, S_DONE = VA.sem, VA.sem + 0x10, VA.sem + 0x20
local function copy(subch, from, to, sem, payload)
  return fmt([[
    inc %d 0x400 0x%x 0x%x 0x%x 0x%x
    inc %d 0x418 4096 1
    inc %d 0x240 0x%x 0x%x 0x%x
    inc %d 0x300 0x196
  ]], subch, hi(from), lo(from), hi(to), lo(to), subch, subch, hi(sem), lo(sem), payload, subch)
end

-- CE2 channel (runlist 1): waits until the GR channel's copy has landed, copies it again.
submit(CH[2], "inc 4 SET_OBJECT 0xc5b5\n" ..
              fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 1 0\ninc 0 SEM_EXECUTE 0x1002\n", lo(S_COPIED), hi(S_COPIED)) ..
              copy(4, VA.dst, VA.dst2, S_DONE, 3))
-- GR channel (runlist 0): TURING_A, a reference, a software method, a copy with GRCOPY that
-- releases S_COPIED, a Host semaphore release and a non-stalling interrupt.
submit(CH[1], fmt([[
  inc 0 SET_OBJECT 0xc597
  inc 0 0x200 1 2 3
  inc 0 SET_REFERENCE 0x55
  inc 5 0x100 0xd0d0
  inc 4 SET_OBJECT 0xc5b5
]]) .. copy(4, VA.src, VA.dst, S_COPIED, 1) ..
  fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 0x1234 0\ninc 0 SEM_EXECUTE 0x100001\ninc 0 NON_STALL_INTERRUPT 0\n",
      lo(S_REL), hi(S_REL)))
check(gpu:run{ ns = 10000000, idle = true } == "idle", "both channels ran to their end")

local src = gpu:mem_read("vram", PA.src, 4096)
check(gpu:mem_read("vram", PA.dst, 4096) == src, "GRCOPY copied the buffer")
check(gpu:mem_read("vram", PA.dst2, 4096) == src, "CE2 copied it again after its acquire")
check(gpu:mem_rd32("vram", PA.sem) == 1 and gpu:mem_rd32("vram", PA.sem + 0x20) == 3, "CE semaphores released")
check(gpu:mem_rd32("vram", PA.sem + 0x10) == 0x1234, "Host semaphore released")
check(gpu:mem_rd32("vram", CH[1].userd + 0x48) == 0x55, "USERD REF = SET_REFERENCE")
check(#swm == 1 and swm[1].pbdma == 0 and swm[1].intr == 1 << 23, "one DEVICE interrupt on PBDMA 0")
check(swm[1].method == 0x100 and swm[1].data == 0xd0d0, "the software method and its data")
check(gpu:rd32(0x2100) >> 31 == 1, "NON_STALL_INTERRUPT set PFIFO_INTR_0 CHANNEL_INTR")
local log = gpu:host_log("gr")
check(#log == 3 and log[1].cls == 0xc597 and log[3].data == 3, "GR got TURING_A methods")
local st = gpu:host_stats()
check(st.sem_acquires >= 1 and st.sem_releases == 1, fmt("semaphore stats: %d acquires, %d releases",
                                                        st.sem_acquires, st.sem_releases))
print(fmt("tu102: 2 channels; %d doorbells, %d context loads, %d GP entries", st.doorbells, st.ctx_loads,
          st.gp_entries))
