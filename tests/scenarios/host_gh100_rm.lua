-- A Hopper (gh100) pair of channels set up with raw memory and register
-- pokes as RM's Hopper code writes them (host-generations-facts.md H1-H8:
-- kernel_fifo_gh100.c kfifoWriteRamfcGpfifo_GH100 writes GP_BASE, GP_BASE_HI
-- OFFSET only and GP_INFO LIMIT2; SUBDEVICE 0x30000001; the work-submit token
-- runlist << 16 | chid at NV_VIRTUAL_FUNCTION_DOORBELL) over ver3 page
-- tables (gh100 dev_mmu.h). No Hopper Host manual is public: the runlist,
-- CHRAM and PBDMA registers are GA100's (UNVERIFIED, RM's Hopper code reuses
-- GA100's paths). Then: semaphores, SET_REFERENCE, a software-method stall,
-- C8B5 copies on GRCOPY and CE2, the non-stall interrupt, and the silicon
-- H100 cases the Volta manual disagrees with (refs/silicon-h100.md
-- "Semaphores": a signed 64-bit IADD is accepted and carries; 64-bit INC
-- stays invalid; C86F SEM_ADDR_HI OFFSET 24:0).
local fmt = string.format

local CLASSES = { gh100 = { gr = 0xcbc0, ce = 0xc8b5 } }

local function run_chip(chip)
  local gpu = nvmodel.open{ chip = chip, vram = "64M", sysmem = "16M" }
  local cls = CLASSES[chip]
  local function w64(a, v) gpu:mem_wr32("vram", a, v & 0xffffffff, v >> 32) end
  local function lo(v) return v & 0xffffffff end
  local function hi(v) return v >> 32 end

  -- 1. ga100_top_parse: NV_PTOP_DEVICE_INFO_CFG (0x224FC) NUM_ROWS 31:20, rows at 0x22800 + 4i,
  --    chained by bit 31: row 0 TYPE 29:24 / INST 19:16 / FAULT_ID 10:0, row 1 ADDR 23:12, row 2
  --    RUNLIST PRI base 23:10 / ENGINE 1:0.
  local devs, cur = {}, {}
  for i = 0, (gpu:rd32(0x224fc) >> 20) - 1 do
    cur[#cur + 1] = gpu:rd32(0x22800 + 4 * i)
    if cur[#cur] >> 31 == 0 then
      devs[#devs + 1] = { type = (cur[1] >> 24) & 0x3f, inst = (cur[1] >> 16) & 0xf, fault = cur[1] & 0x7ff,
                          runl = cur[3] & 0x00fffc00, engine = cur[3] & 3 }
      cur = {}
    end
  end
  local function find(t, inst)
    for _, d in ipairs(devs) do if d.type == t and d.inst == inst then return d end end
  end
  local gr, grce, ce2 = find(0x00, 0), find(0x13, 0), find(0x13, 2)
  check(gr and grce and ce2, chip .. ": PTOP lists GR, CE0 and CE2")
  check(grce.runl == gr.runl and grce.engine == 1, "CE0 is GRCOPY: engine 1 of the GR runlist")
  -- RM's gh100 dev_fault.h: NV_PFAULT_MMU_ENG_ID_GRAPHICS 384, CE0 43 (CE2 45)
  check(gr.fault == 384 and ce2.fault == 45, "MMU fault ids of GR and CE2")

  -- 2. ga100_runl_new: each runlist's CHRAM (CHANNEL_CONFIG 31:4), doorbell id (DOORBELL_CONFIG
  --    31:16) and PBDMAs (PBDMA_CONFIG(i) VALID 31, runq id ((v & 0x03fffc00) - 0x40000) / 0x800).
  local RUNL = {}
  for i, base in ipairs{ gr.runl, ce2.runl } do
    local r = { base = base, chram = gpu:rd32(base + 4) & 0xfffffff0, dbid = gpu:rd32(base + 8) >> 16, runq = {} }
    check(gpu:rd32(base + 4) & 0xf == 11, "NUM_CHANNELS_LOG2 2K")
    for q = 0, 1 do
      local v = gpu:rd32(base + 0x10 + 4 * q)
      if v >> 31 == 1 then r.runq[#r.runq + 1] = ((v & 0x03fffc00) - 0x40000) // 0x800 end
    end
    RUNL[i] = r
  end
  check(#RUNL[1].runq == 2 and #RUNL[2].runq == 1, "two PBDMAs serve GR, one CE2")

  -- 3. ga100_runl_init, then ga100_runq_init for each PBDMA of the runlist.
  for _, r in ipairs(RUNL) do
    local b = r.base
    gpu:wr32(b + 0x088, 0)                                 -- SUBMIT LENGTH 0
    gpu:wr32(b + 0x098, 0)                                 -- PREEMPT TYPE RUNLIST
    gpu:wr32(b + 0x300, gpu:rd32(b + 0x300) | 1 << 31)     -- VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE
    gpu:wr32(b + 0x100, 0xffffffff)                        -- INTR_0: clear
    gpu:wr32(b + 0x140, 0xffffffff)                        -- INTR_0_EN_CLEAR_TREE(0)
    gpu:wr32(b + 0x120, 0x000f1307)                        -- INTR_0_EN_SET_TREE(0)
    gpu:wr32(b + 0x148, 0xffffffff)                        -- INTR_0_EN_CLEAR_TREE(1)
    gpu:wr32(b + 0x128, 0)                                 -- INTR_0_EN_SET_TREE(1)
    for _, id in ipairs(r.runq) do
      local p = 0x40000 + id * 0x800
      gpu:wr32(p + 0x108, 0xffffffff); gpu:wr32(p + 0x148, 0xffffffff) -- INTR_0, INTR_1: clear
      gpu:wr32(p + 0x170, 0xffffffff); gpu:wr32(p + 0x180, 0xffffffff) -- INTR_0/1_EN_SET_TREE(0)
    end
    check(gpu:rd32(b + 0x140) == 0x000f1307, "EN_CLEAR_TREE(0) reads the enable EN_SET_TREE(0) set")
  end
  gpu:wr32(0x160, 1 << 8) -- NV_PMC_INTR_EN_SET(0): the line the model routes the runlists' trees to

  -- ver3 page tables: PDE4 (VA 56) -> PDE3 (55:47) -> PDE2 (46:38) -> PDE1 (37:29) -> dual PDE0
  -- (28:21) -> 4K PTEs (20:12). PDE: APERTURE 2:1 = VIDEO_MEMORY 1, ADDRESS 51:12 in place; the
  -- dual PDE0's small half APERTURE 66:65, ADDRESS 115:76; PTE VALID 0, APERTURE 2:1 VID 0,
  -- PCF 7:3 0 (REGULAR_RW_ATOMIC_CACHED_ACE), ADDRESS 51:12.
  local pdb, next_table = 0x100000, 0x101000
  local tables = { [pdb] = {} }
  local function table_at(dir, i)
    local t = tables[dir][i]
    if not t then
      t = next_table
      next_table = next_table + 0x1000
      tables[dir][i] = t
      tables[t] = {}
    end
    return t
  end
  local function map(va, pa)
    local d = pdb
    for _, sh in ipairs{ 56, 47, 38, 29 } do
      local i = (va >> sh) & (sh == 56 and 1 or 0x1ff)
      local fresh = tables[d][i] == nil
      local t = table_at(d, i)
      if fresh then w64(d + 8 * i, t | 1 << 1) end
      d = t
    end
    local i = (va >> 21) & 0xff
    local fresh = tables[d][i] == nil
    local pt = table_at(d, i)
    if fresh then w64(d + 16 * i + 8, pt | 1 << 1) end
    w64(pt + ((va >> 12) & 511) * 8, pa | 1)
  end
  local VA = { gp = { 0x10000, 0x11000 }, pb = { 0x20000, 0x21000 }, sem = 0x30000, ctx = 0x40000,
               src = 0x50000, dst = 0x51000, dst2 = 0x52000, high = 0x1000000000000 }
  local PA = { gp = { 0x200000, 0x201000 }, pb = { 0x202000, 0x203000 }, sem = 0x204000, ctx = 0x205000,
               src = 0x206000, dst = 0x207000, dst2 = 0x208000, high = 0x209000 }
  for k, v in pairs(VA) do
    if type(v) == "table" then map(v[1], PA[k][1]); map(v[2], PA[k][2]) else map(v, PA[k]) end
  end
  local pattern = {}
  for i = 0, 1023 do pattern[#pattern + 1] = string.pack("<I4", (i * 2654435761) & 0xffffffff) end
  gpu:mem_write("vram", PA.src, table.concat(pattern))

  -- Channels: chid 3 on the GR runlist, chid 9 on CE2's (each runlist has its own CHRAM).
  local CH = {
    { chid = 3, runl = RUNL[1], tsg = 1, inst = 0x300000, userd = 0x310000, ce = false },
    { chid = 9, runl = RUNL[2], tsg = 2, inst = 0x301000, userd = 0x310200, ce = true },
  }
  for i, c in ipairs(CH) do
    c.gp_pa, c.pb, c.pb_va, c.put, c.pb_next = PA.gp[i], PA.pb[i], VA.pb[i], 0, 0
    local function w(off, v) gpu:mem_wr32("vram", c.inst + off, v) end
    -- 4a. RAMIN: PAGE_DIR_BASE (dword 128) VID_MEM, bit 10 (UNVERIFIED: "current format"), 64KB; subcontext 0.
    w(128 * 4, pdb | 1 << 10 | 1 << 11); w(129 * 4, 0)
    w(166 * 4, 1); w(168 * 4, pdb | 1 << 10 | 1 << 11); w(169 * 4, 0)
    -- 4b. RAMFC: kfifoWriteRamfcGpfifo_GH100 (GP_BASE, GP_BASE_HI OFFSET 24:0, GP_INFO LIMIT2 4:0 = 4:
    --     16 entries); the words GSP-RM writes are not public (UNVERIFIED: nouveau ga100's), with
    --     SUBDEVICE 0x30000001 (SUBDEVICE_ID bit 0 on one GPU, silicon H100).
    w(0x010, 0xface)
    w(0x030, 0x7ffff902)
    w(0x048, lo(VA.gp[i])); w(0x04c, hi(VA.gp[i])); w(0x0a4, 4)
    w(0x084, 0x20400000)
    w(0x094, 0x30000001)
    w(0x0e4, 0x20)
    w(0x0e8, c.chid)
    w(0x0f4, 0x1000 | 0x100)
    w(0x0f8, 0x80000000)
    -- 4c. Engine binds (gv100_ectx_bind / _ce_bind): GR 0x210/0x214 and TARGET 16; CE 0x220/0x224, TARGET 17.
    if not c.ce then
      w(0x210, lo(VA.ctx) | 4); w(0x214, hi(VA.ctx))
      w(0x0ac, gpu:mem_rd32("vram", c.inst + 0xac) | 1 << 16)
    end
    w(0x220, lo(PA.ctx)); w(0x224, hi(PA.ctx))
    w(0x0ac, gpu:mem_rd32("vram", c.inst + 0xac) | 1 << 17)
    -- 5. The runlist (gv100_runl_insert_cgrp / _chan: the entry carries INST and USERD), then
    --    ga100_runl_commit: SUBMIT_BASE_LO = lo, _BASE_HI = hi, SUBMIT = count; poll SUBMIT_INFO PENDING.
    local rl = 0x320000 + 0x1000 * i
    gpu:mem_wr32("vram", rl, 128 << 24 | 3 << 16 | 1, 1, c.tsg, 0)
    gpu:mem_wr32("vram", rl + 16, c.userd, 0, c.inst | c.chid, 0)
    local b = c.runl.base
    gpu:wr32(b + 0x080, lo(rl)); gpu:wr32(b + 0x084, hi(rl)); gpu:wr32(b + 0x088, 2)
    check(gpu:rd32(b + 0x08c) >> 15 & 1 == 1, "runlist pending after the submit")
    local polls = 0
    while gpu:rd32(b + 0x08c) >> 15 & 1 == 1 do
      gpu:run{ ns = 1000 }
      polls = polls + 1
      check(polls < 100, "the runlist is taken")
    end
    -- 6. ga100_chan_start: CHRAM(chid) = ENABLE_CHANNEL (2), INTERNAL_DOORBELL = gfid << 16 | chid.
    gpu:wr32(c.runl.chram + 4 * c.chid, 2)
    check(gpu:rd32(c.runl.chram + 4 * c.chid) & 2 == 2, "CHRAM ENABLE")
    gpu:wr32(b + 0x090, c.chid)
    c.handle = (i - 1) << 16 | c.chid -- kfifoGenerateWorkSubmitToken: runlistId << 16 | chid
  end
  check(gpu:run{ ns = 100000, idle = true } == "idle", "both channels idle after their start")

  -- 7. A submission: segment, GP entry, USERD GP_PUT (+0x8C), then the VF doorbell (0xBB0090).
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

  -- The interrupt handler (ga100_runl_intr / ga100_runq_intr as far as the model raises them):
  -- the runlist's INTR_0 PBDMAk_INTR_TREE_0 (16 + k) -> that PBDMA's INTR_0; a DEVICE (23)
  -- software method is read from METHOD0/DATA0, marked serviced and cleared; INTR_RETRIGGER.
  local swm, nonstall = {}, 0
  gpu:on("interrupt", function(ev)
    if ev.value ~= 1 then return end
    for _, r in ipairs(RUNL) do
      local st = gpu:rd32(r.base + 0x100)
      for k, id in ipairs(r.runq) do
        if st & (1 << (15 + k)) ~= 0 then
          local p = 0x40000 + id * 0x800
          local intr = gpu:rd32(p + 0x108)
          swm[#swm + 1] = { pbdma = id, intr = intr, method = gpu:rd32(p + 0xc0) & 0x3ffc, data = gpu:rd32(p + 0xc4) }
          gpu:wr32(p + 0xc0, 0)
          gpu:wr32(p + 0x108, intr)
        end
      end
      gpu:wr32(r.base + 0x180, 1)
    end
  end)
  gpu:on("trace", function(ev) if ev.code == "nonstall_intr" then nonstall = nonstall + 1 end end)

  local S_COPIED, S_REL, S_DONE = VA.sem, VA.sem + 0x10, VA.sem + 0x20
  local function copy(subch, from, to, sem, payload)
    return fmt([[
      inc %d 0x400 0x%x 0x%x 0x%x 0x%x
      inc %d 0x418 4096 1
      inc %d 0x240 0x%x 0x%x 0x%x
      inc %d 0x300 0x196
    ]], subch, hi(from), lo(from), hi(to), lo(to), subch, subch, hi(sem), lo(sem), payload, subch)
  end
  submit(CH[2], fmt("inc 4 SET_OBJECT 0x%x\n", cls.ce) ..
                fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 1 0\ninc 0 SEM_EXECUTE 0x1002\n", lo(S_COPIED), hi(S_COPIED)) ..
                copy(4, VA.dst, VA.dst2, S_DONE, 3))
  submit(CH[1], fmt([[
    inc 0 SET_OBJECT 0x%x
    inc 0 0x200 1 2 3
    inc 0 SET_REFERENCE 0x55
    inc 5 0x100 0xd0d0
    inc 4 SET_OBJECT 0x%x
  ]], cls.gr, cls.ce) .. copy(4, VA.src, VA.dst, S_COPIED, 1) ..
    fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 0x1234 0\ninc 0 SEM_EXECUTE 0x100001\ninc 0 NON_STALL_INTERRUPT 0\n",
        lo(S_REL), hi(S_REL)))
  check(gpu:run{ ns = 10000000, idle = true } == "idle", "both channels ran to their end")

  local src = gpu:mem_read("vram", PA.src, 4096)
  check(gpu:mem_read("vram", PA.dst, 4096) == src, "GRCOPY copied the buffer")
  check(gpu:mem_read("vram", PA.dst2, 4096) == src, "CE2 copied it again after its acquire")
  check(gpu:mem_rd32("vram", PA.sem) == 1 and gpu:mem_rd32("vram", PA.sem + 0x20) == 3, "CE semaphores released")
  check(gpu:mem_rd32("vram", PA.sem + 0x10) == 0x1234, "Host semaphore released")
  check(gpu:mem_rd32("vram", CH[1].userd + 0x48) == 0x55, "USERD REF = SET_REFERENCE")
  check(#swm == 1 and swm[1].pbdma == RUNL[1].runq[1] and swm[1].intr == 1 << 23, "one DEVICE interrupt on GR's PBDMA")
  check(swm[1].method == 0x100 and swm[1].data == 0xd0d0, "the software method and its data")
  check(nonstall == 1, "NON_STALL_INTERRUPT: one non-stalling interrupt")
  check(not gpu:intr(), "no interrupt left pending")
  -- Silicon H100 (refs/silicon-h100.md "Semaphores"): a 64-bit IADD with the signed format
  -- (SEM_EXECUTE 0x29000006) is accepted and carries; at a VA above 2^40 (SEM_ADDR_HI 24:0).
  gpu:mem_wr32("vram", PA.high, 0xffffffff, 0x1)
  submit(CH[1], fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 1 0\ninc 0 SEM_EXECUTE 0x29000006\n", lo(VA.high), hi(VA.high)))
  check(gpu:run{ ns = 1000000, idle = true } == "idle", "the 64-bit signed IADD ran")
  local l0, h0 = gpu:mem_rd32("vram", PA.high, 2)
  check(l0 == 0 and h0 == 2, fmt("IADD carried into the upper word: 0x%08x_%08x", h0, l0))
  -- ... while a 64-bit INC stays invalid: INTR_0 SEMAPHORE, memory unchanged.
  swm = {}
  submit(CH[1], fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 1 0\ninc 0 SEM_EXECUTE 0x31000006\n", lo(VA.high), hi(VA.high)))
  gpu:run{ ns = 1000000, idle = true }
  check(#swm == 1 and swm[1].intr == 1 << 25 and swm[1].method == 0x6c, "64-bit INC: INTR_0 SEMAPHORE")
  check(select(2, gpu:mem_rd32("vram", PA.high, 2)) == 2, "memory unchanged by the invalid INC")
  local log = gpu:host_log("gr")
  check(#log == 3 and log[1].cls == cls.gr and log[3].data == 3, "GR got the methods of its class")
  local st = gpu:host_stats()
  check(st.sem_acquires >= 1 and st.sem_releases == 2, "semaphore stats (the release and the IADD)")
  -- The channel's state by its Host index (runlist * 2048 + CHID).
  local info = gpu:host_channel(2048 + 9)
  check(info.enabled and info.runlist == 1, "CE2's channel 9 is channel 2048 + 9 of the model")
  print(fmt("%s: 2 channels; %d doorbells, %d context loads, %d GP entries", chip, st.doorbells, st.ctx_loads,
            st.gp_entries))
end

run_chip("gh100")
