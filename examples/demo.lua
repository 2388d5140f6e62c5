-- nvmodel demo: the embedded default scenario (`nvmodel demo`).
--
-- On gv100 (the default) and tu102 it builds, with the nvmodel.volta builder, page
-- tables, two TSGs of two channels each (one TSG on the graphics runlist,
-- one on a copy-engine runlist), GPFIFO rings and pushbuffers, and lets the
-- Volta Host run them: channels copy a buffer with the copy engine (as
-- GRCOPY and on its own runlist), release and acquire semaphores across
-- channels (one channel waits for another), raise a non-stall interrupt,
-- and send a software method that the demo's interrupt handler services as
-- a driver would. It prints what happened; `--trace FILE` writes the
-- timeline (Chrome trace JSON: open it in Perfetto).
--
-- On NV01 and NV03 it then drives a PIO channel (pio_demo below).
-- On the older chips (nvmodel demo --chip nv40) it shows the basics: PMC,
-- memory apertures, virtual time and the PTIMER alarm interrupt.


-- The classes each Host chip's engines take (3D, compute, copy: clc397/clc3c0/clc3b5 on
-- Volta, clc597/clc5c0/clc5b5 on Turing) and its PBDMA count (NV_PFIFO_CFG0_NUM_PBDMA).
local CHIPS = {
  gv100 = { three_d = 0xc397, compute = 0xc3c0, copy = 0xc3b5, npbdma = 14 },
  tu102 = { three_d = 0xc597, compute = 0xc5c0, copy = 0xc5b5, npbdma = 12 },
  -- Ampere and Hopper: clc697/clc6c0/clc6b5, clc797/clc7c0/clc7b5, clcb97/clcbc0/clc8b5; their
  -- PBDMA interrupts reach the runlist's INTR_0 through the PBDMA's interrupt trees.
  ga100 = { three_d = 0xc697, compute = 0xc6c0, copy = 0xc6b5, ampere = true },
  ga102 = { three_d = 0xc797, compute = 0xc7c0, copy = 0xc7b5, ampere = true },
  gh100 = { three_d = 0xcb97, compute = 0xcbc0, copy = 0xc8b5, ampere = true },
}

local function volta_demo()
  local volta = nvmodel.volta
  local chip = nvmodel.default_chip
  local C = CHIPS[chip]
  local gpu = nvmodel.open{ chip = chip, vram = "256M" }
  local heap = volta.heap(gpu, "vram", 0x100000, "128M")
  local vm = volta.vm(gpu, heap)
  local SIZE = 256 * 1024
  local src, dst1, dst2 = vm:alloc_map(SIZE), vm:alloc_map(SIZE), vm:alloc_map(SIZE)
  local sems = vm:alloc_map(4096)
  local S_COPIED, S_SW, S_DONE = sems, sems + 0x10, sems + 0x20
  local pattern = {}
  for i = 0, 1023 do pattern[#pattern + 1] = string.pack("<I4", (i * 2654435761) & 0xffffffff) end
  pattern = table.concat(pattern)
  for off = 0, SIZE - 1, #pattern do vm:write(src + off, pattern) end

  -- TSG 1 on the graphics runlist (0): g0 draws and copies with GRCOPY,
  -- g1 waits for the copy, computes and raises a non-stall interrupt.
  -- TSG 2 on copy-engine runlist 1 (ce2): c0 waits for c1, then copies
  -- again; c1 sends a software method, then releases.
  local g0 = volta.channel(gpu, vm, { chid = 1, runlist = 0 })
  local g1 = volta.channel(gpu, vm, { chid = 2, runlist = 0 })
  local c0 = volta.channel(gpu, vm, { chid = 3, runlist = 1 })
  local c1 = volta.channel(gpu, vm, { chid = 4, runlist = 1 })
  volta.runlist(gpu, heap, { { id = 1, g0, g1 } }):submit(0)
  volta.runlist(gpu, heap, { { id = 2, c0, c1 } }):submit(1)

  local sw, nonstall = {}, 0
  if C.ampere then
    -- The driver's interrupt handler on Ampere (nouveau ga100_runl_intr / ga100_runq_intr): a
    -- runlist's INTR_0 PBDMAk_INTR_TREE_0 (16 + k) names the PBDMA of its PBDMA_CONFIG(k)
    -- whose INTR_0 holds the software method (DEVICE 23); non-stall interrupts go to an NV_CTRL
    -- vector the model does not have, so they are counted from the trace.
    local R = { volta.ampere_runlist(gpu, 0, "demo"), volta.ampere_runlist(gpu, 1, "demo") }
    for _, r in ipairs(R) do
      r.runq = {}
      for q = 0, 1 do
        local v = gpu:rd32(r.base + 0x10 + 4 * q)                      -- PBDMA_CONFIG(q)
        if v >> 31 == 1 then r.runq[#r.runq + 1] = ((v & 0x03fffc00) - 0x40000) // 0x800 end
      end
      gpu:wr32(r.base + 0x120, 0x30000)                                -- INTR_0_EN_SET_TREE(0): PBDMA trees
      for _, id in ipairs(r.runq) do gpu:wr32(0x40000 + id * 0x800 + 0x170, 1 << 23) end -- PBDMA tree: DEVICE
    end
    gpu:wr32(0x160, 1 << 8)                                            -- PMC_INTR_EN_SET(0)
    gpu:on("trace", function(ev) if ev.code == "nonstall_intr" then nonstall = nonstall + 1 end end)
    gpu:on("interrupt", function(ev)
      if ev.value ~= 1 then return end
      for _, r in ipairs(R) do
        local st = gpu:rd32(r.base + 0x100)
        for k, id in ipairs(r.runq) do
          if st & (1 << (15 + k)) ~= 0 then
            local base = 0x40000 + id * 0x800
            sw[#sw + 1] = string.format("PBDMA %d: software method 0x%x <- 0x%x", id,
                                        gpu:rd32(base + 0xc0) & 0x3ffc, gpu:rd32(base + 0xc4))
            gpu:wr32(base + 0xc0, 0)                                   -- METHOD0 VALID off: serviced
            gpu:wr32(base + 0x108, 1 << 23)                            -- clear DEVICE: the PBDMA continues
          end
        end
      end
    end)
  else
    -- The driver's interrupt handler: PBDMA software methods and non-stall
    -- interrupts (PFIFO_INTR_0 bit 31), acknowledged through the registers.
    gpu:wr32(0x2140, 1 << 29 | 1 << 31)              -- PFIFO_INTR_EN_0: PBDMA_INTR, CHANNEL_INTR
    gpu:wr32(0x160, 1 << 8)                          -- PMC_INTR_EN_SET(0): PFIFO
    for i = 0, C.npbdma - 1 do gpu:wr32(0x40000 + i * 0x2000 + 0x10c, 1 << 23) end -- PBDMA INTR_EN_0 DEVICE
    gpu:on("interrupt", function(ev)
      if ev.value ~= 1 then return end
      local pfifo = gpu:rd32(0x2100)
      if pfifo & (1 << 31) ~= 0 then
        nonstall = nonstall + 1
        gpu:wr32(0x2100, 1 << 31)
      end
      local ids = gpu:rd32(0x25a0)
      for i = 0, C.npbdma - 1 do
        if ids & (1 << i) ~= 0 then
          local base = 0x40000 + i * 0x2000
          sw[#sw + 1] = string.format("PBDMA %d: software method 0x%x <- 0x%x", i,
                                      gpu:rd32(base + 0xc0) & 0x3ffc, gpu:rd32(base + 0xc4))
          gpu:wr32(base + 0xc0, 0)                   -- METHOD0 VALID off: serviced
          gpu:wr32(base + 0x108, 1 << 23)            -- clear DEVICE: the PBDMA continues
        end
      end
    end)
  end

  local function copy(subch, from, to, sem, payload)
    return string.format([[
      inc %d 0x400 0x%x 0x%x 0x%x 0x%x      # OFFSET_IN_UPPER/LOWER, OFFSET_OUT_UPPER/LOWER
      inc %d 0x418 %d 1                     # LINE_LENGTH_IN, LINE_COUNT
      inc %d 0x240 0x%x 0x%x 0x%x           # SET_SEMAPHORE_A/B/PAYLOAD
      inc %d 0x300 0x196                    # LAUNCH_DMA: NON_PIPELINED, FLUSH, FOUR_WORD semaphore, PITCH
    ]], subch, from >> 32, from & 0xffffffff, to >> 32, to & 0xffffffff, subch, SIZE, subch,
        sem >> 32, sem & 0xffffffff, payload, subch)
  end
  local function acquire(sem, value)
    return string.format("inc 0 SEM_ADDR_LO 0x%x 0x%x %d 0\ninc 0 SEM_EXECUTE 0x1002\n",
                         sem & 0xffffffff, sem >> 32, value)                -- ACQ_STRICT_GEQ, SWITCH_TSG
  end
  local function release(sem, value)
    return string.format("inc 0 SEM_ADDR_LO 0x%x 0x%x %d 0\ninc 0 SEM_EXECUTE 0x100001\n",
                         sem & 0xffffffff, sem >> 32, value)                -- RELEASE, WFI
  end

  c0:push(string.format("inc 4 SET_OBJECT 0x%x\n", C.copy) .. acquire(S_SW, 1) .. copy(4, dst1, dst2, S_DONE, 3))
  g1:push(string.format("inc 1 SET_OBJECT 0x%x\n", C.compute) .. acquire(S_COPIED, 1) ..
          "inc 1 0x380 1 2 3 4\ninc 0 NON_STALL_INTERRUPT 0\n")
  g0:push(string.format("inc 0 SET_OBJECT 0x%x\ninc 0 0x200 1 2 3 4 5 6 7 8\ninc 4 SET_OBJECT 0x%x\n", C.three_d,
                        C.copy) .. copy(4, src, dst1, S_COPIED, 1))
  c1:push("inc 5 0x100 0xd0d0\n" .. release(S_SW, 1))

  local status = gpu:run{ ns = 10000000, idle = true }
  local ok = vm:read(dst2, SIZE) == vm:read(src, SIZE)
  local st = gpu:host_stats()
  print(string.format("%s: 2 TSGs, 4 channels on runlists 0 (graphics + GRCOPY) and 1 (copy engine ce2): %s",
                      chip, status))
  for _, e in ipairs({ "gr", "grce", "ce2" }) do
    print(string.format("  %-5s %d methods", e, gpu:host_log_total(e)))
  end
  print(string.format("  copied %d bytes twice (GRCOPY, then ce2): %s", SIZE, ok and "verified" or "MISMATCH"))
  print(string.format("  semaphores: %d released by Host, %d acquires (%d waited); CE release payload %d",
                      st.sem_releases, st.sem_acquires, st.acquire_waits, vm:rd32(S_DONE)))
  for _, line in ipairs(sw) do print("  " .. line) end
  print(string.format("  non-stall interrupts %d, context loads %d, doorbells %d, GP entries %d, PB dwords %d",
                      nonstall, st.ctx_loads, st.doorbells, st.gp_entries, st.pb_dwords))
  print(string.format("  virtual time %d ns", gpu:time_ns()))
  check(status == "idle", "every channel ran to its end")
  check(ok, "the copies arrived")
  check(#sw == 1 and nonstall == 1, "one software method and one non-stall interrupt")
  check(vm:rd32(S_DONE) == 3, "the last copy released its semaphore")
end

local function basics()
  local NV_PMC_BOOT_0        = 0x000000
  local NV_PMC_INTR_0        = 0x000100
  local NV_PMC_INTR_EN_0     = 0x000140 -- NV04..G80: bit 0 enables hardware interrupts
  local NV_PMC_INTR_EN_SET_0 = 0x000160 -- GV100: set bits of the enable mask
  local NV_PTIMER_INTR_0     = 0x009100
  local NV_PTIMER_INTR_EN_0  = 0x009140
  local NV_PTIMER_TIME_0     = 0x009400
  local NV_PTIMER_TIME_1     = 0x009410
  local NV_PTIMER_ALARM_0    = 0x009420
  local PMC_INTR_PTIMER      = 1 << 20

  -- Memory sized from the chip: 256 MiB of VRAM and 1 GiB of system memory,
  -- or what the chip has if that is less (nv04 has 16 MiB of VRAM).
  local info = nvmodel.chip_info(nvmodel.default_chip)
  local gpu = nvmodel.open{ vram = math.min(256 << 20, info.vram_max), sysmem = math.min(1 << 30, info.sysmem_max) }
  print(string.format("chip %s: PMC_BOOT_0 = 0x%08x", gpu:chip(), gpu:rd32(NV_PMC_BOOT_0)))

  -- Memory: sparse apertures, little-endian words.
  gpu:mem_wr32("vram", 0x1000, 0xcafe0001, 0xcafe0002)
  gpu:mem_write("sysmem", 0x2000, "nvmodel")
  local a, b = gpu:mem_rd32("vram", 0x1000, 2)
  print(string.format("vram[0x1000] = 0x%08x 0x%08x; sysmem[0x2000] = %q", a, b,
                      gpu:mem_read("sysmem", 0x2000, 7)))
  print(string.format("untouched vram reads 0x%08x; pages allocated: vram %d, sysmem %d",
                      gpu:mem_rd32("vram", gpu:mem_size("vram") - 0x1000), gpu:mem_pages("vram"), gpu:mem_pages("sysmem")))
  check(a == 0xcafe0001 and b == 0xcafe0002, "memory round trip")

  -- Time: PTIMER counts virtual nanoseconds in TIME_0 31:5 and TIME_1 28:0.
  local function ptimer()
    return (gpu:rd32(NV_PTIMER_TIME_1) << 32) | gpu:rd32(NV_PTIMER_TIME_0)
  end
  gpu:run{ ns = 1000 }
  print(string.format("after run{ns=1000}: time %d ns, PTIMER %d ns", gpu:time_ns(), ptimer()))

  -- Interrupts: the alarm fires when TIME_0 31:5 reaches ALARM_0.
  gpu:on("interrupt", function(ev)
    print(string.format("  t=%d ns  %s", ev.time_ns, ev.message))
  end)
  gpu:wr32(NV_PTIMER_INTR_EN_0, 1)
  if gpu:chip() == "gv100" then
    gpu:wr32(NV_PMC_INTR_EN_SET_0, PMC_INTR_PTIMER)
  else
    gpu:wr32(NV_PMC_INTR_EN_0, 1)
  end
  local alarm = gpu:rd32(NV_PTIMER_TIME_0) + 5000
  gpu:wr32(NV_PTIMER_ALARM_0, alarm)
  print(string.format("alarm armed for TIME_0 = %d; running 10 us", alarm))
  local status = gpu:run{ ns = 10000 }
  local intr = gpu:rd32(NV_PMC_INTR_0)
  print(string.format("run: %s; PMC_INTR_0 = 0x%08x, PTIMER_INTR_0 = 0x%x", status, intr,
                      gpu:rd32(NV_PTIMER_INTR_0)))
  check(intr & PMC_INTR_PTIMER ~= 0, "PTIMER interrupt pending in PMC")
  check(gpu:intr(), "interrupt line asserted")

  -- Acknowledge: PTIMER_INTR_0 is write-1-to-clear.
  gpu:wr32(NV_PTIMER_INTR_0, 1)
  check(not gpu:intr(), "interrupt line released")
  print(string.format("acknowledged; line %s; done at %d ns", gpu:intr() and "high" or "low", gpu:time_ns()))
end

-- NV01 / NV03 (nvmodel demo --chip nv03): a PIO channel as rivafb drives a
-- Riva 128: an object in RAMHT, bound on a subchannel by method 0, methods
-- stored to the USER area behind a FREE check; PGRAPH receives the object's
-- context through method 0, sent again by PFIFO on a change of subchannel.
local function pio_demo()
  local gpu = nvmodel.open{ vram = "4M", sysmem = "1M" }
  local f = nvmodel.nv03.fifo(gpu)
  local nv1 = gpu:chip() == "nv01"
  local blit = nv1 and f:context{ type = 0x50 } or f:context{ type = 0x50, instance = 0x3450 }
  local rop = nv1 and f:context{ type = 0x42 } or f:context{ type = 0x42, instance = 0x3410 }
  f:ramht_add{ chid = 0, handle = 0x80000011, context = blit }
  f:ramht_add{ chid = 0, handle = 0x80000000, context = rop }
  print(string.format("%s PIO channel 0: FREE = 0x%x bytes", gpu:chip(), f:free(0, 0)))
  f:pio(0, 0, 0, 0x80000000)
  f:pio(0, 4, 0, 0x80000011)
  f:wait_free(0, 0, 1)
  f:pio(0, 0, 0x300, 0xcc)
  f:wait_free(0, 4, 3)
  f:pio(0, 4, 0x300, 0x00140010)
  f:pio(0, 4, 0x304, 0x00c80064)
  f:pio(0, 4, 0x308, 0x00320064)
  print("run:", gpu:run{ ns = 100000, idle = true })
  local log = gpu:pfifo_log("pgraph")
  for _, m in ipairs(log) do
    print(string.format("  t=%4d ns  subch %d ctx 0x%06x  method 0x%04x  data 0x%08x%s", m.time_ns, m.subch,
                        m.ctx or 0, m.method, m.data, m.implicit and "  (context sent by PFIFO)" or ""))
  end
  check(#log == 8, "two binds, two context loads, four methods")
end

if CHIPS[nvmodel.default_chip] then
  volta_demo()
else
  basics()
  if nvmodel.default_chip:match("^nv0[13]") then pio_demo() end
end
