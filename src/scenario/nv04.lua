-- nvmodel.nv04: builds PFIFO channels of NV04..NV4x (chips nv04, nv10, nv11,
-- nv17, nv40, nv41) from a scenario script.
--
--   local nv04 = nvmodel.nv04                 -- or: require "nvmodel.nv04"
--   local gpu = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
--   local f   = nv04.fifo(gpu)                -- RAMHT, RAMFC, RAMRO placed, PFIFO enabled
--   local pb  = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x1fffff }
--   local gr  = f:object(0x62)                -- a graph object: its class in RAMIN
--   f:ramht_add{ chid = 1, handle = 0xbeef, instance = gr, engine = "pgraph" }
--   local ch  = f:channel{ chid = 1, pushbuf = pb }   -- a DMA channel
--   ch:push("inc 0 0x0 0xbeef\ninc 0 0x300 1 2 3")    -- `pb asm` old-format text
--   f:pio(2, 0, 0x100, 5)                      -- a PIO store to channel 2, subchannel 0
--
-- A thin wrapper over the library's set-up helpers (include/nvmodel/setup.h,
-- src/setup/nv04.c, through nvmodel._setup): PFIFO init as nouveau's
-- nv04/nv10/nv17/nv40 fifo init does it (RAMHT at RAMIN 0x10000, 32 KiB,
-- search 128; RAMRO 0x18800 or, on NV40, 0x18000; RAMFC 0x18000 or
-- 0x20000), nvkm_ramht's insertion, nv04_dmaobj_bind's DMA objects and each
-- generation's RAMFC from the model's own tables (docs/pfifo.md). They write
-- through the gpu's BAR0 (the PRAMIN window at 0x700000, the USER areas) as
-- a driver does; pushbuffer words go through gpu:mem_wr32. Where objects go
-- in RAMIN (a bump allocator from 0x30000) is the helpers' choice.
--
-- Errors name the function and are raised without a position: the runner
-- puts the caller's file:line in front.

local nvmodel = nvmodel

local M = {}

local PRAMIN = 0x700000

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int
local C = nvmodel._setup

local TARGETS = { vram = 0, pci = 2, agp = 3 }
local ACCESS = { rw = 0, ro = 1, wo = 2 }
-- rnndb nv4_pfifo_engine (PMPEG NV31+, PME NV40+, PVP1 NV41+)
local ENGINES = { software = 0, pgraph = 1, pmpeg = 2, pme = 3, pvp1 = 4 }

-- The RAMHT hash (nvkm_ramht_hash, nvm_pfifo_ramht_hash): the handle folded
-- in `bits`-wide pieces, XOR chid << (bits - 4); an entry index.
function M.ramht_hash(handle, chid, bits)
  return C.ramht_hash(handle, chid, bits)
end

local Fifo = {}
-- f.next: the allocator's next free RAMIN byte, as the helpers keep it.
Fifo.__index = function(f, k)
  if k == "next" then return C.nv04_next(rawget(f, "c")) end
  return Fifo[k]
end

function Fifo:wr(addr, v) self.gpu:wr32(PRAMIN + addr, v & 0xffffffff) end
function Fifo:rd(addr) return self.gpu:rd32(PRAMIN + addr) end

-- Instance memory for objects: 16-byte aligned unless told.
function Fifo:alloc(size, align)
  local a = C.nv04_alloc(self.c, size, align or 16)
  if not a then fail("alloc: the PRAMIN window (1 MiB) is full") end
  return a
end

-- An NV04 DMA object (nv4-dmaobj as nouveau's nv04_dmaobj_bind writes it,
-- nvm_nv04_dmaobj_write). Returns {inst, start, limit, ap}.
function Fifo:dmaobj(t)
  local where = "dmaobj"
  local class = check_int(t.class or 0x3d, "class", 0, 0xfff, where)
  local target = TARGETS[t.target or "pci"] or fail("%s: target must be vram, pci or agp", where)
  local access = ACCESS[t.access or "rw"] or fail("%s: access must be rw, ro or wo", where)
  local start = check_int(t.start, "start", 0, 0xffffffff, where)
  local limit = check_int(t.limit, "limit", start, 0xffffffff, where)
  local inst = C.nv04_dmaobj(self.gpu, self.c, class, target, access, start, limit, t.inst)
  if not inst then fail("alloc: the PRAMIN window (1 MiB) is full") end
  return { inst = inst, start = start, limit = limit, ap = target == 0 and "vram" or "sysmem" }
end

-- A graph object: its class in the first word (16 bytes of RAMIN).
function Fifo:object(class)
  check_int(class, "class", 0, 0xffff, "object")
  local inst = C.nv04_object(self.gpu, self.c, class)
  if not inst then fail("alloc: the PRAMIN window (1 MiB) is full") end
  return inst
end

-- The context word of a RAMHT entry, as the model decodes it
-- (NV04..NV3x valid 31, chid << 24, engine << 16; NV40 chid << 23, engine
-- << 20; instance >> 4).
function Fifo:ramht_context(instance, engine, chid)
  return nvmodel.pfifo_ramht_context(self.chip, instance, engine, chid)
end

-- Inserts handle -> object for channel chid at the first free entry from
-- its hash slot (nvkm_ramht_insert). Returns the entry's RAMIN address.
function Fifo:ramht_add(t)
  local where = "ramht_add"
  local chid = check_int(t.chid, "chid", 0, self.g.nchan - 1, where)
  local handle = check_int(t.handle, "handle", 0, 0xffffffff, where)
  local inst = type(t.instance) == "table" and t.instance.inst or t.instance
  inst = check_int(inst, "instance", 0, 0xffff0, where)
  local engine = t.engine or "pgraph"
  engine = ENGINES[engine] or check_int(engine, "engine", 0, 7, where)
  local a, err = C.nv04_ramht_add(self.gpu, self.c, chid, handle, inst, engine)
  if not a then
    if err == "full" then fail("%s: RAMHT is full", where) end
    fail("%s: %s", where, err)
  end
  return a
end

-- Writes fields of channel chid's RAMFC entry: dma_put, dma_get, ref,
-- dma_instance, dma_state, dma_fetch, engine, pull1 and, where the layout
-- has them, semaphore, subroutine, acquire_*, timeslice, grctx.
function Fifo:ramfc(chid, t)
  check_int(chid, "chid", 0, self.g.nchan - 1, "ramfc")
  for k, v in pairs(t) do
    local ok = FIELDS[k] and C.nv04_ramfc_set(self.gpu, self.c, chid, FIELDS[k], v & 0xffffffff)
    if not ok then fail("ramfc: no field '%s' in the %s layout", k, self.chip) end
  end
end

function Fifo:user(chid)
  return C.nv04_user(self.c, chid)
end

-- A PIO store to channel + subchannel * 0x2000 + method (seed 001).
function Fifo:pio(chid, subch, method, data)
  check_int(chid, "chid", 0, self.g.nchan - 1, "pio")
  check_int(subch, "subch", 0, 7, "pio")
  check_int(method, "method", 0, 0x1ffc, "pio")
  C.nv04_pio(self.gpu, self.c, chid, subch, method, data & 0xffffffff)
end

local Channel = {}
Channel.__index = Channel

-- Writes words (a list, or `pb asm` old-format text) at PUT and moves
-- DMA_PUT past them.
function Channel:push(words)
  if type(words) == "string" then words = nvmodel.pb_words(words, "old", "push") end
  local pb = self.pushbuf
  for i, w in ipairs(words) do
    local off = self.put + (i - 1) * 4
    if off > pb.limit - pb.start then fail("push: the pushbuffer is full at offset 0x%x", off) end
    self.gpu:mem_wr32(pb.ap, pb.start + off, w)
  end
  self.put = self.put + #words * 4
  self:kick()
  return self
end

-- Writes words at an offset of the pushbuffer without moving PUT (for
-- jump targets and subroutines).
function Channel:write(offset, words)
  if type(words) == "string" then words = nvmodel.pb_words(words, "old", "write") end
  for i, w in ipairs(words) do
    self.gpu:mem_wr32(self.pushbuf.ap, self.pushbuf.start + offset + (i - 1) * 4, w)
  end
  return self
end

function Channel:kick()
  C.nv04_kick(self.gpu, self.fifo.c, self.chid, self.put & 0xffffffff)
end

function Channel:get() return self.gpu:rd32(self.fifo:user(self.chid) + 0x44) end
function Channel:ref() return self.gpu:rd32(self.fifo:user(self.chid) + 0x48) end

-- A DMA channel as nouveau creates one (nvm_nv04_dma_channel): RAMFC DMA_PUT =
-- DMA_GET = offset, DMA_INSTANCE = the pushbuffer object >> 4, DMA_FETCH TRIG
-- 128 / SIZE 128 / MAX_REQS 8 (big_endian on request, NV1A+), then MODE bit chid.
function Fifo:channel(t)
  local where = "channel"
  local chid = check_int(t.chid, "chid", 0, self.g.nchan - 1, where)
  local pb = t.pushbuf
  if type(pb) ~= "table" or not pb.inst then fail("%s: pushbuf must be a dmaobj", where) end
  local offset = check_int(t.offset or 0, "offset", 0, 0xfffffffc, where)
  C.nv04_channel(self.gpu, self.c, chid, pb.inst, offset, t.big_endian)
  return setmetatable({ gpu = self.gpu, fifo = self, chid = chid, pushbuf = pb, put = offset }, Channel)
end

-- PFIFO set up as nouveau's nv04/nv17/nv40_fifo_init does it (nvm_nv04_fifo_init).
function M.fifo(gpu)
  local chip = gpu:chip()
  local c, g = C.nv04_fifo(gpu)
  if not c then fail("fifo: chip %s has no NV04-style PFIFO (nv04..nv41)", chip) end
  local f = setmetatable({ gpu = gpu, chip = chip, g = g, c = c, ramht = g.ramht, ramht_bits = g.ramht_bits },
                         Fifo)
  return f
end

return M
