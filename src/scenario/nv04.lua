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
-- Everything goes through the gpu object (wr32 to BAR0, the PRAMIN window
-- at 0x700000 and the USER areas; mem_wr32 for pushbuffers), as a driver
-- does it. The layouts are the ones nouveau writes: its nv04/nv10/nv17/nv40
-- fifo init (RAMHT at RAMIN 0x10000, 32 KiB, search 128; RAMRO 0x18800 or,
-- on NV40, 0x18000; RAMFC 0x18000 or 0x20000), nvkm_ramht's hash and
-- contexts, nv04_dmaobj_bind's DMA objects and each generation's RAMFC
-- (docs/pfifo.md). Where objects go in RAMIN (a bump allocator from
-- 0x30000) is this builder's choice.
--
-- Errors name the function and are raised without a position: the runner
-- puts the caller's file:line in front.

local nvmodel = nvmodel
local fmt = string.format

local M = {}

local PRAMIN, USER, USER_NEW = 0x700000, 0x800000, 0xc00000

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int


-- Per generation: where RAMFC and RAMRO go (nouveau's nv04/nv17/nv40 fifo
-- init) and whether NV40's registers are used; the channels, the RAMFC
-- layout (RAMFC LARGE where the chip has it) and the RAMHT context come
-- from the model's own descriptions (nvmodel.pfifo_layout,
-- nvmodel.pfifo_ramht_context), not copies.
local GENS = {
  nv04 = { ramfc = 0x18000, ramro = 0x18800, nv40 = false },
  nv10 = { ramfc = 0x18000, ramro = 0x18800, nv40 = false },
  nv11 = { ramfc = 0x18000, ramro = 0x18800, nv40 = false },
  nv17 = { ramfc = 0x18000, ramro = 0x18800, nv40 = false },
  nv40 = { ramfc = 0x20000, ramro = 0x18000, nv40 = true },
  nv41 = { ramfc = 0x20000, ramro = 0x18000, nv40 = true },
}
-- The builder's RAMFC keys and the model's field names.
local FIELDS = { dma_put = "DMA_PUT", dma_get = "DMA_GET", ref = "REF_CNT", dma_instance = "DMA_INSTANCE",
                 dcount = "DMA_DCOUNT", dma_state = "DMA_STATE", dma_fetch = "DMA_FETCH", sli = "SLI",
                 engine = "ENGINE", pull1 = "PULL1", acquire_value = "ACQUIRE_VALUE",
                 acquire_timestamp = "ACQUIRE_TIMESTAMP", acquire_timeout = "ACQUIRE_TIMEOUT",
                 semaphore = "SEMAPHORE", subroutine = "DMA_SUBROUTINE", grctx = "GRCTX_INSTANCE",
                 timeslice = "DMA_TIMESLICE" }

local function generation(chip)
  local g = GENS[chip]
  if not g then return nil end
  local l = nvmodel.pfifo_layout(chip, true)
  return { ramfc = g.ramfc, ramro = g.ramro, nv40 = g.nv40, nchan = l.channels, size = l.ramfc_size,
           large = l.has_large, fields = l.ramfc }
end

local TARGETS = { vram = 0, pci = 2, agp = 3 }
local ACCESS = { rw = 0, ro = 1, wo = 2 }
-- rnndb nv4_pfifo_engine (PMPEG NV31+, PME NV40+, PVP1 NV41+)
local ENGINES = { software = 0, pgraph = 1, pmpeg = 2, pme = 3, pvp1 = 4 }

-- The RAMHT hash (nvkm_ramht_hash): the handle folded in `bits`-wide
-- pieces, XOR chid << (bits - 4); an entry index.
function M.ramht_hash(handle, chid, bits)
  local h, mask = 0, (1 << bits) - 1
  handle = handle & 0xffffffff
  while handle ~= 0 do
    h = h ~ (handle & mask)
    handle = handle >> bits
  end
  return (h ~ (chid << (bits - 4))) & mask
end

local Fifo = {}
Fifo.__index = Fifo

function Fifo:wr(addr, v) self.gpu:wr32(PRAMIN + addr, v & 0xffffffff) end
function Fifo:rd(addr) return self.gpu:rd32(PRAMIN + addr) end

-- Instance memory for objects: 16-byte aligned unless told.
function Fifo:alloc(size, align)
  align = align or 16
  local a = (self.next + align - 1) // align * align
  if a + size > 0x100000 then fail("alloc: the PRAMIN window (1 MiB) is full") end
  self.next = a + size
  return a
end

-- An NV04 DMA object (nv4-dmaobj as nouveau's nv04_dmaobj_bind writes it):
-- class, PT_PRESENT | PT_LINEAR, ACCESS 15:14, TARGET 17:16, ADJUST 31:20;
-- the limit; the page frame (twice). Returns {inst, start, limit, ap}.
function Fifo:dmaobj(t)
  local where = "dmaobj"
  local class = check_int(t.class or 0x3d, "class", 0, 0xfff, where)
  local target = TARGETS[t.target or "pci"] or fail("%s: target must be vram, pci or agp", where)
  local access = ACCESS[t.access or "rw"] or fail("%s: access must be rw, ro or wo", where)
  local start = check_int(t.start, "start", 0, 0xffffffff, where)
  local limit = check_int(t.limit, "limit", start, 0xffffffff, where)
  local inst = t.inst or self:alloc(16)
  local pte = (start & 0xfffff000) | (access ~= 1 and 2 or 0)
  self:wr(inst, class | 0x3000 | target << 16 | access << 14 | (start & 0xfff) << 20)
  self:wr(inst + 4, limit - start)
  self:wr(inst + 8, pte)
  self:wr(inst + 12, pte)
  return { inst = inst, start = start, limit = limit, ap = target == 0 and "vram" or "sysmem" }
end

-- A graph object: its class in the first word (16 bytes of RAMIN).
function Fifo:object(class)
  local inst = self:alloc(16)
  self:wr(inst, check_int(class, "class", 0, 0xffff, "object"))
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
  local n = 1 << self.ramht_bits
  local h = M.ramht_hash(handle, chid, self.ramht_bits)
  for i = 0, n - 1 do
    local a = self.ramht + ((h + i) % n) * 8
    if self:rd(a + 4) == 0 then
      self:wr(a, handle)
      self:wr(a + 4, self:ramht_context(inst, engine, chid))
      return a
    end
  end
  fail("%s: RAMHT is full", where)
end

-- Writes fields of channel chid's RAMFC entry: dma_put, dma_get, ref,
-- dma_instance, dma_state, dma_fetch, engine, pull1 and, where the layout
-- has them, semaphore, subroutine, acquire_*, timeslice, grctx.
function Fifo:ramfc(chid, t)
  check_int(chid, "chid", 0, self.g.nchan - 1, "ramfc")
  local base = self.g.ramfc + chid * self.g.size
  for k, v in pairs(t) do
    local f = FIELDS[k] and self.g.fields[FIELDS[k]] or fail("ramfc: no field '%s' in the %s layout", k, self.chip)
    -- the field's bits of the word: a register value v as the model saves it
    local mask = ((1 << f.bits) - 1) << f.lo
    self:wr(base + f.off, (self:rd(base + f.off) & ~mask) | (((v >> f.reg_lo) << f.lo) & mask))
  end
end

function Fifo:user(chid)
  return self.g.nv40 and USER_NEW + chid * 0x1000 or USER + chid * 0x10000
end

-- A PIO store to channel + subchannel * 0x2000 + method (seed 001).
function Fifo:pio(chid, subch, method, data)
  check_int(chid, "chid", 0, self.g.nchan - 1, "pio")
  check_int(subch, "subch", 0, 7, "pio")
  check_int(method, "method", 0, 0x1ffc, "pio")
  self.gpu:wr32(USER + chid * 0x10000 + subch * 0x2000 + method, data & 0xffffffff)
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
  self.gpu:wr32(self.fifo:user(self.chid) + 0x40, self.put)
end

function Channel:get() return self.gpu:rd32(self.fifo:user(self.chid) + 0x44) end
function Channel:ref() return self.gpu:rd32(self.fifo:user(self.chid) + 0x48) end

-- A DMA channel as nouveau creates one: RAMFC DMA_PUT = DMA_GET = offset,
-- DMA_INSTANCE = the pushbuffer object >> 4, DMA_FETCH TRIG 128 / SIZE 128
-- / MAX_REQS 8 (big_endian on request, NV1A+), then MODE bit chid.
function Fifo:channel(t)
  local where = "channel"
  local chid = check_int(t.chid, "chid", 0, self.g.nchan - 1, where)
  local pb = t.pushbuf
  if type(pb) ~= "table" or not pb.inst then fail("%s: pushbuf must be a dmaobj", where) end
  local offset = check_int(t.offset or 0, "offset", 0, 0xfffffffc, where)
  local fetch = 0x78 | 0x6000 | 0x80000
  if t.big_endian then fetch = fetch | 0x80000000 end
  local fields = { dma_put = offset, dma_get = offset, dma_instance = pb.inst >> 4, dma_fetch = fetch }
  if self.g.nv40 then
    fields.sli = 0x30000000 -- SLI ACTIVE 28, ENABLE 29
    fields.timeslice = 0x0001ffff
  end
  self:ramfc(chid, fields)
  self.gpu:wr32(0x2504, self.gpu:rd32(0x2504) | 1 << chid)
  return setmetatable({ gpu = self.gpu, fifo = self, chid = chid, pushbuf = pb, put = offset }, Channel)
end

-- PFIFO set up as nouveau's nv04/nv17/nv40_fifo_init does it.
function M.fifo(gpu)
  local chip = gpu:chip()
  local g = generation(chip) or fail("fifo: chip %s has no NV04-style PFIFO (nv04..nv41)", chip)
  local f = setmetatable({ gpu = gpu, chip = chip, g = g, ramht = 0x10000, ramht_bits = 12, next = 0x30000 },
                         Fifo)
  gpu:wr32(0x2040, 0xff)
  gpu:wr32(0x2044, g.nv40 and 0x2101ffff or 0x0101ffff)
  gpu:wr32(0x2210, 3 << 24 | (f.ramht_bits - 9) << 16 | f.ramht >> 8)
  gpu:wr32(0x2218, g.ramro >> 8)
  if g.nv40 then
    gpu:wr32(0x2058, 1)
    gpu:wr32(0x2220, 0x00030002)
  else
    gpu:wr32(0x2214, g.ramfc >> 8 | (g.large and 0x10000 or 0))
  end
  gpu:wr32(0x3204, g.nchan - 1)
  gpu:wr32(0x2100, 0xffffffff)
  gpu:wr32(0x2140, 0xffffffff)
  gpu:wr32(0x3200, 1)
  gpu:wr32(0x3250, 1)
  gpu:wr32(0x2500, 1)
  gpu:wr32(0x140, 1)
  return f
end

return M
