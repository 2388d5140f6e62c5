-- nouveau's NV17+ fence (Linux drivers/gpu/drm/nouveau/nv17_fence.c) on the
-- nvmodel.nv04 builder, with nouveau's PFIFO interrupt handler
-- (nvkm/engine/fifo/nv04.c nv04_fifo_intr) written out in Lua register by
-- register. NvSema is a read-write NV_DMA_FROM_MEMORY (class 0x0002)
-- object over the fence bo in VRAM (nv17_fence_context_new), which
-- DMA_SEMAPHORE refuses (envytools puller.rst: only write-only objects)
-- with SEMAPHORE; the handler only sets CACHE1 SEMAPHORE CTXDMA_VALID and
-- skips the method, so the refused method must have latched the object's
-- frame and target. nv17_fence_sync: channel 2 waits for value + 1, which
-- channel 1 releases after its own acquire of value. The handler runs
-- after each run to idle ("poll"), and from the interrupt event at the
-- moment the line rises, inside the run ("hook").

local nv04 = nvmodel.nv04
local fmt = string.format
local FENCE = 0x300000
local NVSEMA = 0xbeef0202

local function session(mode, chip)
  local gpu = nvmodel.open{ chip = chip, vram = "16M", sysmem = "16M" }
  gpu:wr32(0x140, 1) -- NV_PMC_INTR_EN_0
  local f = nv04.fifo(gpu)
  local chid_mask = 31
  local nv40 = chip ~= "nv17"

  -- nv04_fifo_intr, its SEMAPHORE, CACHE_ERROR and DMA_PUSHER branches
  local handled = { sem = 0, cache = 0, dma = 0, other = 0 }
  local function nv04_fifo_intr()
    local stat = gpu:rd32(0x2100) & gpu:rd32(0x2140)
    local reassign = gpu:rd32(0x2500) & 1
    gpu:wr32(0x2500, 0)
    local chid = gpu:rd32(0x3204) & chid_mask
    local get = gpu:rd32(0x3270)
    if stat & 0x1 ~= 0 then -- nv04_fifo_intr_cache_error (no software engine here)
      local ptr = (get & 0x7ff) >> 2
      local base = nv40 and 0x90000 or 0x3800
      local _, _ = gpu:rd32(base + ptr * 8), gpu:rd32(base + ptr * 8 + 4)
      gpu:wr32(0x3220, 0)
      gpu:wr32(0x2100, 0x1)
      gpu:wr32(0x3200, gpu:rd32(0x3200) & ~1)
      gpu:wr32(0x3270, get + 4)
      gpu:wr32(0x3200, gpu:rd32(0x3200) | 1)
      gpu:wr32(0x3258, 0)
      gpu:wr32(0x3220, gpu:rd32(0x3220) | 1)
      gpu:wr32(0x3250, 1)
      stat = stat & ~0x1
      handled.cache = handled.cache + 1
    end
    if stat & 0x1000 ~= 0 then -- nv04_fifo_intr_dma_pusher
      local dma_get, dma_put = gpu:rd32(0x3244), gpu:rd32(0x3240)
      if dma_get ~= dma_put then gpu:wr32(0x3244, dma_put) end
      gpu:wr32(0x3228, 0)
      gpu:wr32(0x3220, 1)
      gpu:wr32(0x2100, 0x1000)
      stat = stat & ~0x1000
      handled.dma = handled.dma + 1
    end
    if stat & 0x100000 ~= 0 then
      stat = stat & ~0x100000
      gpu:wr32(0x2100, 0x100000)
      local sem = gpu:rd32(0x326c)
      gpu:wr32(0x326c, sem | 1)
      gpu:wr32(0x3270, get + 4)
      gpu:wr32(0x3250, 1)
      handled.sem = handled.sem + 1
    end
    if stat ~= 0 then
      gpu:wr32(0x2140, gpu:rd32(0x2140) & ~stat)
      gpu:wr32(0x2100, stat)
      handled.other = handled.other | stat
    end
    gpu:wr32(0x2500, reassign)
  end
  if mode == "hook" then
    gpu:on("interrupt", function(ev)
      if ev.value ~= 0 and gpu:intr() then nv04_fifo_intr() end
    end)
  end
  local function run()
    for _ = 1, 16 do
      gpu:run{ ns = 10000000, idle = true }
      if not gpu:intr() then return end
      check(mode == "poll", "the hook's handler left the line up")
      nv04_fifo_intr()
    end
    error("interrupts keep coming")
  end

  local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x1fffff }
  local chans = {}
  for c = 1, 2 do
    local gr = f:object(0x62)
    f:ramht_add{ chid = c, handle = 0xbeef0000 + c, instance = gr, engine = "pgraph" }
    local sema = f:dmaobj{ class = 0x0002, target = "vram", access = "rw", start = FENCE, limit = FENCE + 0xfff }
    f:ramht_add{ chid = c, handle = NVSEMA, instance = sema.inst, engine = "software" }
    chans[c] = f:channel{ chid = c, pushbuf = pb, offset = c * 0x10000 }
    chans[c]:push(fmt("inc 0 0x0000 0x%x", 0xbeef0000 + c))
  end
  run()
  gpu:mem_wr32("vram", FENCE, 0x10) -- nv17_fence_resume: the sequence

  -- nv17_fence_sync, chan's half first: it must wait
  local function sync(c, value)
    chans[c]:push(fmt("inc 0 0x0060 0x%x 0 0x%x 0x%x\ninc 0 0x0300 0x%x", NVSEMA, value, value + 1, value))
  end
  sync(2, 0x11)
  run()
  check(handled.sem == 1, fmt("%s: the refused DMA_SEMAPHORE raised SEMAPHORE", chip))
  check(gpu:rd32(0x326c) == FENCE | 1, fmt("%s: CACHE1 SEMAPHORE holds the fence bo (0x%x)", chip, gpu:rd32(0x326c)))
  check(gpu:rd32(0x3254) & 0x10 ~= 0, fmt("%s: channel 2 waits on its acquire", chip))
  check(#gpu:pfifo_log("pgraph") == 2, fmt("%s: channel 2's method waits", chip))
  sync(1, 0x10)
  run()
  check(handled.sem == 2 and handled.cache == 0 and handled.dma == 0 and handled.other == 0,
        fmt("%s: two SEMAPHORE interrupts, nothing else", chip))
  check(gpu:mem_rd32("vram", FENCE) == 0x12, fmt("%s: fence word 0x%x", chip, gpu:mem_rd32("vram", FENCE)))
  local log = gpu:pfifo_log("pgraph")
  check(#log == 4 and log[4].chid == 2 and log[4].method == 0x300, fmt("%s: channel 2 went on after the release", chip))
  check(gpu:rd32(0x2100) == 0 and not gpu:intr(), fmt("%s: nothing pending", chip))
  print(fmt("%s (%s): fence 0x%x, %d SEMAPHORE interrupts handled as nouveau does", chip, mode,
            gpu:mem_rd32("vram", FENCE), handled.sem))
  gpu:close()
end

for _, mode in ipairs{ "poll", "hook" } do
  for _, chip in ipairs{ "nv17", "nv40", "nv41" } do
    session(mode, chip)
  end
end
