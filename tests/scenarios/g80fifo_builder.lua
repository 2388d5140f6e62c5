-- The nvmodel.g80fifo builder against the documents, on g80, g84, g92 and
-- gt215: the words it writes (nouveau's gpfifo RAMFC, CHAN_TABLE, RAMHT with
-- engine << 20 | selector, the playlist), an IB-mode channel running
-- through it (PGRAPH methods, the long non-increasing form, REF_CNT, a G84
-- long semaphore), a NV4-style DMA channel, and IB_EMPTY.

local g80 = require "nvmodel.g80fifo"
check(nvmodel.g80fifo == g80, "require and nvmodel.g80fifo give the same module")
local fmt = string.format

-- nvkm_ramht_hash with channel 0, 12 bits: fold the handle in 12-bit pieces.
check(g80.ramht_hash(0xbeef0001, 12) == (0x001 ~ 0xef0 ~ 0x0be), "RAMHT hash")

for _, chip in ipairs{ "g80", "g84", "g92", "gt215" } do
  local gpu = nvmodel.open{ chip = chip, vram = "256M", sysmem = "256M" }
  local g84 = chip ~= "g80"
  local f = g80.fifo(gpu)
  local ch = f:channel{ chid = 3 }
  local base = 0x1000000 + 3 * 0x10000
  local fc = g84 and base + 0x5400 or base
  -- RAMFC as g84_fifo_gpfifo_new writes it
  check(gpu:mem_rd32("vram", fc + 0x3c) == 0x403f6078, chip .. " RAMFC DMA_FETCH (IB_ENABLE 30)")
  check(gpu:mem_rd32("vram", fc + 0x54) >> 16 == 9, chip .. " RAMFC IB_CONFIG ORDER")
  check(gpu:mem_rd32("vram", fc + 0x80) == (3 << 27 | 4 << 24 | 0x800), chip .. " RAMFC RAMHT")
  local ct = gpu:rd32(0x2600 + 3 * 4)
  check(ct == 0x80000000 | (g84 and fc >> 8 or base >> 12), fmt("%s CHAN_TABLE 0x%08x", chip, ct))
  if g84 then check(gpu:mem_rd32("vram", fc + 0x98) == base >> 12, chip .. " RAMFC CHAN_INST") end
  check(gpu:rd32(0x32ec) == 1 and gpu:mem_rd32("vram", 0xf00000) == 3, chip .. " playlist")

  local gr = ch:object{ handle = 0xbeef0001, class = 0x5097 }
  local slot = 0x8000 + g80.ramht_hash(0xbeef0001, 12) * 8
  check(ch:rd(slot) == 0xbeef0001 and ch:rd(slot + 4) == (1 << 20 | gr), chip .. " RAMHT entry")
  local sem = ch:dmaobj{ handle = 0xdead, target = "vram", base = 0xe00000, limit = 0xe00fff }

  ch:push[[
    inc 0 0x0000 0xbeef0001
    inc 0 0x0300 1 2 3
    long_ninc 0 0x0400 4 5 6
    inc 0 0x0050 0x77
  ]]
  check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. " run")
  local log = gpu:pfifo_log("pgraph")
  check(#log == 7 and log[7].method == 0x400 and log[7].data == 6 and log[7].cls == 0x5097 and log[7].chid == 3,
        fmt("%s: %d methods", chip, #log))
  check(ch:ref() == 0x77 and ch:ib_get() == 1, chip .. " REF and IB_GET")

  if g84 then
    -- new-style semaphore: WRITE_LONG of 0x42 at 0x10 of the semaphore object
    ch:push(fmt("inc 0 0x0060 0xdead\ninc 0 0x0010 0 0x10 0x42 2"))
    check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. " semaphore run")
    check(gpu:mem_rd32("vram", 0xe00010) == 0x42 and gpu:mem_rd32("vram", 0xe00014) == 0, chip .. " long semaphore")
  end

  -- nouveau's way: the pushbuffer and IB ring mapped in the channel's VM
  -- (page directory at +0x1400 on g80, +0x200 on G84+, seed 002), a paged
  -- DMA object; IB entries and the ring address are virtual
  local v = f:channel{ chid = 4, vm = true }
  local pde = gpu:mem_rd32("vram", 0x1000000 + 4 * 0x10000 + (g84 and 0x200 or 0x1400) + (0x10000000 >> 29) * 8)
  check(pde & 3 == 3, fmt("%s: a small-page PDE (0x%x)", chip, pde))
  check(gpu:mem_rd32("vram", (g84 and 0x1045400 or 0x1040000) + 0x50) == 0x10080000, chip .. " virtual IB address")
  v:object{ handle = 0xbeef0004, class = 0x8297 }
  v:push("inc 2 0x0000 0xbeef0004\ninc 2 0x0404 0x44")
  check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. " paged run")
  log = gpu:pfifo_log("pgraph")
  check(log[#log].chid == 4 and log[#log].data == 0x44 and log[#log].cls == 0x8297, chip .. " paged channel")
  check(v:get() == 0x10000010, fmt("%s: virtual DMA_GET 0x%x", chip, v:get()))

  -- IB_EMPTY: a zero-length entry
  ch:ib_entry(0x100000, 0, false)
  ch:kick()
  gpu:run{ ns = 1000000, idle = true }
  check(gpu:rd32(0x2100) & 0x1000 ~= 0 and gpu:rd32(0x3228) >> 29 == 5, chip .. " IB_EMPTY")

  -- a NV4-style DMA channel next to it
  local gpu2 = nvmodel.open{ chip = chip, vram = "256M", sysmem = "256M" }
  local f2 = g80.fifo(gpu2)
  local d = f2:channel{ chid = 5, ib = false }
  d:object{ handle = 0xcafe, class = 0x502d }
  d:push("inc 1 0x0000 0xcafe\ninc 1 0x0200 9")
  check(gpu2:run{ ns = 1000000, idle = true } == "idle", chip .. " DMA run")
  log = gpu2:pfifo_log("pgraph")
  check(#log == 2 and log[2].cls == 0x502d and log[2].subch == 1, chip .. " DMA channel")
  check(d:get() == d.pb + 16, chip .. " DMA_GET")
  gpu2:close()
  gpu:close()
end

-- Chips without a G80 PFIFO: a clear error
local nv = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
local ok, err = pcall(g80.fifo, nv)
check(not ok and tostring(err):find("no G80 PFIFO", 1, true), "nv17 g80fifo.fifo: " .. tostring(err))
