-- The nvmodel.nv04 builder against the documents, on every NV04..NV4x
-- profile: the words it writes (RAMHT entries with nouveau's hash and the
-- context formats of nv04_fifo_dma_object_ctor / nv40_eobj_ramht_add, NV04
-- DMA objects as nv04_dmaobj_bind writes them, RAMFC as nouveau's channel
-- constructors write it), read back through the PRAMIN window, and a DMA
-- channel and a PIO channel running through it.

local nv04 = require "nvmodel.nv04"
check(nvmodel.nv04 == nv04, "require and nvmodel.nv04 give the same module")

local fmt = string.format

-- nvkm_ramht_hash, written out here: fold in 12-bit pieces, XOR chid << 8.
check(nv04.ramht_hash(0xbeef0002, 2, 12) == (0x002 ~ 0xef0 ~ 0x0be ~ 0x200), "RAMHT hash")

-- The model's own layouts, which the builders read (nvmodel.pfifo_layout,
-- nvmodel.pfifo_ramht_context): nouveau's nv04 / nv17 RAMFC, the contexts.
local l04, l17 = nvmodel.pfifo_layout("nv04"), nvmodel.pfifo_layout("nv17", true)
check(l04.channels == 16 and l04.ramfc_size == 32 and not l04.has_large, "nv04 layout")
check(l04.ramfc.DMA_INSTANCE.off == 8 and l04.ramfc.DMA_INSTANCE.bits == 16 and l04.ramfc.DMA_DCOUNT.lo == 16,
      "nv04 RAMFC DMA_INSTANCE / DCOUNT share a word")
check(l17.has_large and l17.ramfc_size == 64 and l17.ramfc.DMA_SUBROUTINE.off == 0x30, "nv17 RAMFC LARGE")
check(nvmodel.pfifo_layout("nv17").ramfc_size == 32, "nv17 RAMFC without LARGE")
check(nvmodel.pfifo_layout("g84").ramfc.CHAN_INST.off == 0x98, "g84 RAMFC CHAN_INST")
check(nvmodel.pfifo_ramht_context("nv04", 0x30010, 1, 5) == (0x80000000 | 5 << 24 | 1 << 16 | 0x3001), "nv04 context")
check(nvmodel.pfifo_ramht_context("nv40", 0x30010, 1, 31) == (31 << 23 | 1 << 20 | 0x3001), "nv40 context")
check(not pcall(nvmodel.pfifo_layout, "gv100"), "gv100 has no PFIFO layout")
check(not pcall(nvmodel.pfifo_ramht_context, "nv04", 0x30010, 1, 16), "nv04 has 16 channels")

for _, chip in ipairs{ "nv04", "nv10", "nv11", "nv17", "nv40", "nv41" } do
  local gpu = nvmodel.open{ chip = chip, vram = "16M", sysmem = "16M" }
  local nv40 = chip:sub(1, 3) == "nv4"
  local f = nv04.fifo(gpu)
  -- NV03_PFIFO_RAMHT: SEARCH 128 (25:24 = 3), SIZE 32K (17:16 = 3), ADDRESS 0x10000 >> 12 in 8:4
  check(gpu:rd32(0x2210) == 0x03030100, fmt("%s RAMHT register", chip))

  local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x1fffff }
  -- class | PT_PRESENT 12 | PT_LINEAR 13 | TARGET PCI (2) 17:16; limit; frame | RW
  check(f:rd(pb.inst) == 0x0002303d and f:rd(pb.inst + 4) == 0xfffff and f:rd(pb.inst + 8) == 0x100002,
        fmt("%s DMA object", chip))
  local gr = f:object(0x62)
  local a = f:ramht_add{ chid = 1, handle = 0xbeef, instance = gr, engine = "pgraph" }
  local want = nv40 and (1 << 23 | 1 << 20 | gr >> 4) or (0x80000000 | 1 << 24 | 1 << 16 | gr >> 4)
  check(a == 0x10000 + nv04.ramht_hash(0xbeef, 1, 12) * 8, fmt("%s RAMHT slot", chip))
  check(f:rd(a) == 0xbeef and f:rd(a + 4) == want, fmt("%s RAMHT entry 0x%08x", chip, f:rd(a + 4)))

  local ch = f:channel{ chid = 1, pushbuf = pb, offset = 0x40 }
  local fc = f.g.ramfc + 1 * f.g.size
  check(f:rd(fc) == 0x40 and f:rd(fc + 4) == 0x40, fmt("%s RAMFC DMA_PUT/GET", chip))
  ch:push([[
    inc 0 0x0000 0xbeef
    inc 0 0x0300 1 2 3
  ]])
  check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. " run")
  local log = gpu:pfifo_log("pgraph")
  check(#log == 4 and log[4].method == 0x308 and log[4].cls == 0x62 and log[4].chid == 1,
        fmt("%s: %d methods", chip, #log))
  check(ch:get() == ch.put, chip .. " DMA_GET")

  -- PIO on channel 2: a store past the reserved range and a reserved one (RAMRO)
  f:ramht_add{ chid = 2, handle = 0xf00d, instance = gr }
  f:pio(2, 3, 0x0000, 0xf00d)
  f:pio(2, 3, 0x0400, 0x55)
  f:pio(2, 3, 0x0010, 0x66)
  check(gpu:rd32(0x2100) == 0x10, chip .. " RUNOUT")
  gpu:run{ ns = 100000, idle = true }
  log = gpu:pfifo_log("pgraph")
  check(#log == 6 and log[6].data == 0x55 and log[6].chid == 2, chip .. " PIO")
  check(gpu:pfifo_stats().ramro_entries == 1, chip .. " RAMRO entry")
  gpu:close()
end

-- Chips without this PFIFO: a clear error
local gv = nvmodel.open{ chip = "gv100", vram = "64M", sysmem = "64M" }
local ok, err = pcall(function() return gv:pfifo_log("pgraph") end)
check(not ok and tostring(err):find("no NV04-style PFIFO", 1, true), "gv100 pfifo_log: " .. tostring(err))
ok, err = pcall(nv04.fifo, gv)
check(not ok and tostring(err):find("no NV04-style PFIFO", 1, true), "gv100 nv04.fifo: " .. tostring(err))
local nv = nvmodel.open{ chip = "nv04", vram = "16M", sysmem = "16M" }
ok, err = pcall(function() return nv:pfifo_log("pgrpah") end)
check(not ok and tostring(err):find("unknown engine", 1, true), "unknown engine: " .. tostring(err))
ok, err = pcall(function() return nv:pfifo_user_write(0x700000, 1, 4) end)
check(not ok and tostring(err):find("USER area", 1, true), "pfifo_user_write range: " .. tostring(err))
