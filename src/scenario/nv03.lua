-- nvmodel.nv03: sets up PFIFO of NV01 and NV03 (chips nv01, nv03, nv03t) the way
-- rivafb does on a Riva 128, and builds RAMHT objects and PIO stores.
--
--   local nv03 = nvmodel.nv03                 -- or: require "nvmodel.nv03"
--   local gpu  = nvmodel.open{ chip = "nv03", vram = "4M", sysmem = "1M" }
--   local f    = nv03.fifo(gpu)               -- PMC reset, nv3TablePFIFO, RAMHT/RAMRO/RAMFC placed
--   local ctx  = f:context{ type = 0x42, instance = 0x3410, engine = "pgraph" }
--   f:ramht_add{ chid = 0, handle = 0x80000000, context = ctx }
--   f:pio(0, 0, 0x0000, 0x80000000)           -- bind subchannel 0 (method 0)
--   f:wait_free(0, 0, 4)                      -- RIVA_FIFO_FREE: poll FREE until 4 words fit
--
-- NV03: RAMIN is reached through BAR1 + 0xC00000 (gpu:pfifo_ramin_bar_*),
-- the layout is rivafb's nv3TablePFIFO (RAMHT 4 KiB at 0, RAMRO 512 bytes at
-- 0x2000, RAMFC at 0x2200). NV01: RAMIN through the PRAMIN window at
-- BAR0 0x700000, PRAM CONFIG 0 (RAMHT 4 KiB at 0, RAMRO at 0x1000, RAMFC at
-- 0x1800, nv1-vram.rst). RAMHT entries are 8 bytes {handle, context | chid
-- << 24} in the bucket of the XOR of the handle's bytes and the channel
-- (docs/pfifo.md "NV01 and NV03"; UNVERIFIED on NV01).
--
-- A thin wrapper over the library's set-up helpers (nvm_nv03_* in
-- include/nvmodel/setup.h, src/setup/nv03.c, through nvmodel._setup);
-- wait_free (a poll that runs the GPU) and runout_entry (reads RAMRO)
-- stay here.
--
-- Errors name the function and are raised without a position.

local nvmodel = nvmodel
local M = {}
local U = nvmodel.util
local fail, check_int = U.fail, U.check_int
local C = nvmodel._setup

local ENGINES = { software = 0, pgraph = 1 }

-- The RAMHT bucket of a handle: the XOR of its bytes and the channel (the
-- model's nvm_pfifo_ramht_slot, whose buckets hold two entries here).
function M.ramht_hash(handle, chid)
  return C.ramht_slot("nv03", handle, chid & 0xff, 9) // 2
end

local Fifo = {}
Fifo.__index = Fifo

function Fifo:wr(addr, v) C.nv03_wr(self.gpu, self.c, addr, v & 0xffffffff) end
function Fifo:rd(addr) return C.nv03_rd(self.gpu, self.c, addr) end

-- A 24-bit object context (nvm_nv03_context): NV03 instance >> 4 in 15:0 (a
-- grobj in RAMIN), the 7-bit object type in 22:16, the engine in 23; NV01 the
-- object flags in 15:0 (`flags`) and the type, whose bit 6 the model takes
-- for the engine (UNVERIFIED).
function Fifo:context(t)
  check_int(t.type, "type", 0, 0x7f, "context")
  local eng = ENGINES[t.engine or "pgraph"]
  if eng == nil then fail("context: engine must be \"pgraph\" or \"software\"") end
  if self.chip == "nv01" then
    check_int(t.flags or 0, "flags", 0, 0xffff, "context")
    if (t.type >> 6) ~= eng then fail("context: on nv01 the type's bit 6 is the engine (0x40..0x7f: pgraph)") end
  else
    check_int(t.instance or 0, "instance", 0, 0xffff0, "context")
    if (t.instance or 0) & 15 ~= 0 then fail("context: instance 0x%x is not 16-byte aligned", t.instance) end
  end
  return C.nv03_context(self.c, t.type, t.instance or 0, eng, t.flags or 0)
end

-- Puts {handle, context | chid << 24} in the first free entry of its bucket.
function Fifo:ramht_add(t)
  check_int(t.chid, "chid", 0, 127, "ramht_add")
  check_int(t.handle, "handle", 0, 0xffffffff, "ramht_add")
  check_int(t.context, "context", 0, 0xffffff, "ramht_add")
  local a, err = C.nv03_ramht_add(self.gpu, self.c, t.chid, t.handle, t.context)
  if not a then
    if err == "full" then
      fail("ramht_add: the bucket of handle 0x%08x (channel %d) at 0x%x is full", t.handle, t.chid,
           self.ramht + M.ramht_hash(t.handle, t.chid) * (self.ramht_size // 256))
    end
    fail("ramht_add: %s", err)
  end
  return a
end

function Fifo:user(chid, subch) return 0x800000 + chid * 0x10000 + subch * 0x2000 end

function Fifo:pio(chid, subch, method, data)
  check_int(chid, "chid", 0, 127, "pio")
  check_int(subch, "subch", 0, 7, "pio")
  check_int(method, "method", 0, 0x1ffc, "pio")
  C.nv03_pio(self.gpu, chid, subch, method, data & 0xffffffff)
end

-- FREE of a subchannel (bytes).
function Fifo:free(chid, subch) return self.gpu:rd32(self:user(chid, subch) + 0x10) & 0xffff end

-- RIVA_FIFO_FREE: polls FREE (>> 2: words) until n words fit, letting the
-- GPU run between polls; fails after `tries` polls.
function Fifo:wait_free(chid, subch, n, tries)
  for _ = 1, tries or 100 do
    if self:free(chid, subch) >> 2 >= n then return end
    self.gpu:run{ ns = 10000, idle = true }
  end
  fail("wait_free: channel %d subchannel %d never had %d words free", chid, subch, n)
end

-- A RAMRO entry (rnndb NV1_RAMRO): {offset, chid, subch, method, read, reason, data}.
local REASONS = { [0] = "ILLEGAL_ACCESS", "NO_CACHE_AVAILABLE", "CACHE_RAN_OUT", "FREE_COUNT_OVERRUN",
                  "CAUGHT_LYING", "RESERVED_ACCESS" }
function Fifo:runout_entry(i)
  local w, d = self:rd(self.ramro + 8 * i), self:rd(self.ramro + 8 * i + 4)
  return { chid = (w >> 16) & 0x7f, subch = (w >> 13) & 7, method = w & 0x1fff, read = (w >> 23) & 1 == 1,
           reason = REASONS[w >> 28] or tostring(w >> 28), data = d }
end

-- rivafb's RivaTablePMC and nv3TablePFIFO (riva_tbl.h), in their order; on
-- NV01 PRAM CONFIG 0 instead of the RAMHT/RAMFC/RAMRO registers
-- (nvm_nv03_fifo_init).
function M.fifo(gpu)
  local chip = gpu:chip()
  local c, g = C.nv03_fifo(gpu)
  if not c then fail("fifo: chip %s is not nv01, nv03 or nv03t (nvmodel.nv04 builds NV04..NV4x)", chip) end
  return setmetatable({ gpu = gpu, chip = chip, g = g, c = c, ramht = g.ramht, ramht_size = g.ramht_size,
                        ramro = g.ramro, ramfc = g.ramfc }, Fifo)
end

return M
