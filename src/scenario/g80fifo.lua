-- nvmodel.g80fifo: builds G80 PFIFO channels (chips g80, g84, g92, gt215)
-- from a scenario script, the way nouveau's nv50/g84 fifo code does it.
--
--   local g80 = nvmodel.g80fifo               -- or: require "nvmodel.g80fifo"
--   local gpu = nvmodel.open{ chip = "g84", vram = "256M", sysmem = "256M" }
--   local f   = g80.fifo(gpu)                 -- nv50_fifo_init
--   local ch  = f:channel{ chid = 1, vm = true }  -- an IB-mode (gpfifo) channel, pushbuffer paged
--   local gr  = ch:object{ handle = 0xbeef, class = 0x5097 }   -- PGRAPH object + RAMHT entry
--   ch:push("inc 0 0x0 0xbeef\ninc 0 0x300 1 2 3")            -- `pb asm` text or words: one IB entry
--   ch:ib_entry(addr, words, not_main)        -- a raw IB entry; ch:kick() writes IB_PUT
--
-- The layouts are nouveau's (docs/g80.md): 64 KiB channel structures in
-- VRAM from 0x1000000; on G80 RAMFC at 0 and the cache at 0x400 (seed 002),
-- on G84+ the cache at 0x4400 and RAMFC at 0x5400 (g84_fifo_chan_ctor's
-- allocations); RAMHT of 32 KiB at 0x8000 (nvkm_ramht_new 0x8000, RAMFC
-- RAMHT with SEARCH_FULL); the RAMFC fields of the gpfifo constructors
-- (DMA_FETCH 0x403f6078, DMA_TIMESLICE 0x01003fff, DMA_INSTANCE the
-- pushbuffer object >> 4, IB_ADDRESS_LOW / IB_CONFIG the IB ring and its
-- order, ACQUIRE_TIMEOUT, UNK88, SLI 0x30000001, G84+ CACHE_INST cache >>
-- 10, CHAN_INST channel >> 12), at the offsets of the model's own layout
-- (nvmodel.pfifo_layout); CHAN_TABLE (G80: channel >> 12, G84+:
-- RAMFC >> 8, ENABLE 31); the playlist of channel ids. DMA objects are
-- unpaged (seed 002 word layout): the pushbuffer object covers all of
-- system memory (or VRAM with pushbuf_ap = "vram"); DMA objects come from
-- nvmodel.g80 (the VM builder), which also builds page tables for paged
-- objects in the same channel structure.
--
-- Errors name the function and are raised without a position.

local nvmodel = nvmodel
local fmt = string.format

local M = {}

local CHAN_BASE, PLAYLIST, PB_BASE = 0x1000000, 0xf00000, 0x100000
local USER = 0xc00000
local CHIPS = { g80 = false, g84 = true, g92 = true, gt215 = true }
-- rnndb g80_pfifo_engine ids; which names a chip has: docs/g80.md
local ENGINES = { software = 0, pgraph = 1, pmpeg = 2, pppp = 2, pme = 3, pcopy = 3, pvp1 = 4, pvp2 = 4, ppdec = 4,
                  pcipher = 5, pbsp = 6, pvld = 6 }

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int


-- nvkm_ramht_hash with channel 0 (nv50 inserts with chid 0).
function M.ramht_hash(handle, bits)
  local h, mask = 0, (1 << bits) - 1
  handle = handle & 0xffffffff
  while handle ~= 0 do
    h = h ~ (handle & mask)
    handle = handle >> bits
  end
  return h
end

local Fifo, Channel = {}, {}
Fifo.__index, Channel.__index = Fifo, Channel

-- The channel's structure: where each part is.
local function layout(g84, chid)
  local base = CHAN_BASE + chid * 0x10000
  return { base = base, ramfc = base + (g84 and 0x5400 or 0), cache = base + (g84 and 0x4400 or 0x400),
           ramht = base + 0x8000 }
end

function Channel:wr(off, v) self.gpu:mem_wr32("vram", self.base + off, v & 0xffffffff) end
function Channel:rd(off) return self.gpu:mem_rd32("vram", self.base + off) end

-- Objects go between 0x6000 and 0x7000 of the structure (16-byte units:
-- the selector is the offset >> 4); nvmodel.g80's objects (vm = true) from
-- 0x7000.
function Channel:alloc(size)
  local o = self.next
  if o + size > 0x7000 then fail("object: the channel structure's object area is full") end
  self.next = o + ((size + 15) & ~15)
  return o
end

-- A RAMHT entry: handle, engine << 20 | selector (nouveau's context).
function Channel:ramht_add(handle, sel, engine)
  local h = M.ramht_hash(handle, 12)
  for i = 0, 4095 do
    local off = 0x8000 + ((h + i) & 4095) * 8
    if self:rd(off + 4) == 0 then
      self:wr(off, handle)
      self:wr(off + 4, engine << 20 | sel)
      return off
    end
  end
  fail("ramht_add: RAMHT is full")
end

-- A DMA object (nvmodel.g80.dmaobj_words: seed 002 "DMA objects"); the
-- defaults make it unpaged VRAM, read-write, storage type and compression
-- 0; target = "vm" makes it paged (the channel's page tables, nvmodel.g80).
-- With a handle it gets a RAMHT entry (engine 0). Returns its selector.
function Channel:dmaobj(t)
  local d = {}
  for k, v in pairs(t) do d[k] = v end
  d.class = d.class or 0x3d
  d.target = d.target or "vram"
  if d.target ~= "vm" then
    d.ro, d.storage, d.comp = d.ro or 2, d.storage or 0, d.comp or 0
  end
  local w = nvmodel.g80.dmaobj_words(d)
  local off = t.offset or self:alloc(0x18)
  for i = 1, 6 do self:wr(off + (i - 1) * 4, w[i]) end
  if t.handle then self:ramht_add(check_int(t.handle, "handle", 0, 0xffffffff, "dmaobj"), off >> 4, 0) end
  return off >> 4
end

-- An engine object: its class in the first word, a RAMHT entry.
function Channel:object(t)
  local where = "object"
  local engine = ENGINES[t.engine or "pgraph"] or fail("%s: unknown engine '%s'", where, tostring(t.engine))
  local off = self:alloc(0x10)
  self:wr(off, check_int(t.class, "class", 0, 0xffff, where))
  self:ramht_add(check_int(t.handle, "handle", 0, 0xffffffff, where), off >> 4, engine)
  return off >> 4
end

function Channel:user() return USER + self.chid * 0x2000 end

-- Writes words into the pushbuffer; returns their address as the
-- pushbuffer DMA object sees it (virtual with vm = true).
function Channel:write(words)
  local a = self.pb + self.pb_put
  if self.pb_put + #words * 4 > 0x80000 then fail("push: the pushbuffer is full") end
  for i, w in ipairs(words) do self.gpu:mem_wr32(self.pb_ap, a + (i - 1) * 4, w & 0xffffffff) end
  self.pb_put = self.pb_put + #words * 4
  return a + self.va_off
end

-- A raw IB entry (dma-pusher.rst "IB mode"): address, length in words,
-- NOT_MAIN. Not submitted until kick().
function Channel:ib_entry(addr, words, not_main)
  local n = 1 << self.order
  local e = self.ib + (self.ib_put % n) * 8 -- its memory (the object maps it at + va_off)
  self.gpu:mem_wr32(self.pb_ap, e, addr & 0xfffffffc)
  self.gpu:mem_wr32(self.pb_ap, e + 4, (addr >> 32) & 0xff | (not_main and 1 << 9 or 0) | words << 10)
  self.ib_put = (self.ib_put + 1) % n
end

function Channel:kick()
  if self.ib_mode then
    self.gpu:wr32(self:user() + 0x8c, self.ib_put)
  else
    self.gpu:wr32(self:user() + 0x40, (self.pb + self.pb_put + self.va_off) & 0xffffffff)
  end
end

-- nouveau's nv50_dma_push + FIRE_RING: the commands as one IB entry (IB
-- mode) or after DMA_PUT (DMA mode).
function Channel:push(words)
  if type(words) == "string" then words = nvmodel.pb_words(words, "old", "push") end
  local a = self:write(words)
  if self.ib_mode then self:ib_entry(a, #words, false) end
  self:kick()
end

function Channel:ib_get() return self.gpu:rd32(self:user() + 0x88) end
function Channel:get() return self.gpu:rd32(self:user() + 0x44) end
function Channel:ref() return self.gpu:rd32(self:user() + 0x48) end

-- nv50_runl_update / commit: the ids at PLAYLIST, then PLAYLIST_LEN.
function Fifo:commit()
  for i, c in ipairs(self.channels) do self.gpu:mem_wr32("vram", PLAYLIST + (i - 1) * 4, c) end
  self.gpu:wr32(0x32f4, PLAYLIST >> 12)
  self.gpu:wr32(0x32ec, #self.channels)
end

-- A channel as nv50_fifo_gpfifo_new / g84_fifo_gpfifo_new build it (ib =
-- false: the DMA-mode constructor's DMA_FETCH and DMA_LIMIT).
function Fifo:channel(t)
  local where = "channel"
  local chid = check_int(t.chid, "chid", 1, 126, where)
  local ib = t.ib ~= false
  local l = layout(self.g84, chid)
  local ch = setmetatable({ gpu = self.gpu, fifo = self, chid = chid, base = l.base, next = 0x6000,
                            pb_ap = t.pushbuf_ap or "sysmem", pb = PB_BASE + chid * 0x100000, pb_put = 0,
                            ib_mode = ib, ib_put = 0,
                            order = check_int(t.ib_order or 9, "ib_order", 1, 16, where) }, Channel)
  ch.ib = ch.pb + 0x80000
  ch.va_off = 0
  for o = 0, 0xfffc, 4 do ch:wr(o, 0) end
  local pbsel
  if t.vm then
    -- As nouveau: the channel's VM (nvmodel.g80, page directory in this
    -- structure, page tables at 0x4000000 + chid * 0x200000 of VRAM), the
    -- pushbuffer and IB ring mapped at virtual 0x10000000, a paged DMA
    -- object (all attributes from the page tables) over the VM.
    ch.vm = nvmodel.g80.vm(self.gpu, { addr = l.base, objects = 0x7000, heap = 0x4000000 + chid * 0x200000 })
    ch.vm:map{ virt = 0x10000000, lin = ch.pb, size = 0x100000,
               target = ch.pb_ap == "vram" and "vram" or "sysram" }
    ch.va_off = 0x10000000 - ch.pb
    pbsel = ch.vm:dmaobj{ class = 0x3d }
  else
    pbsel = ch:dmaobj{ target = ch.pb_ap == "vram" and "vram" or "sysram", base = 0, limit = 0xffffffffff }
  end
  local fc = l.ramfc - l.base
  local F = nvmodel.pfifo_layout(self.chip).ramfc -- the model's RAMFC layout (rnndb G80_RAMFC)
  ch:wr(fc + F.DMA_FETCH.off, ib and 0x403f6078 or 0x003f6078)
  ch:wr(fc + F.DMA_TIMESLICE.off, 0x01003fff)
  ch:wr(fc + F.DMA_INSTANCE.off, pbsel)
  if ib then
    local iba = ch.ib + ch.va_off
    ch:wr(fc + F.IB_ADDRESS_LOW.off, iba & 0xffffffff)
    ch:wr(fc + F.IB_CONFIG.off, (iba >> 32) | ch.order << 16)
  else
    ch:wr(fc + F.DMA_PUT.off, (ch.pb + ch.va_off) & 0xffffffff)
    ch:wr(fc + F.DMA_GET.off, (ch.pb + ch.va_off) & 0xffffffff)
    ch:wr(fc + F.DMA_LIMIT.off, 0xffffffff)
  end
  ch:wr(fc + F.ACQUIRE_TIMEOUT.off, 0x7fffffff)
  ch:wr(fc + F.UNK88.off, 0)
  ch:wr(fc + F.SLI.off, 0x30000001)
  ch:wr(fc + F.RAMHT.off, 3 << 27 | 4 << 24 | 0x8000 >> 4)
  if self.g84 then
    ch:wr(fc + F.CACHE_INST.off, l.cache >> 10)
    ch:wr(fc + F.CHAN_INST.off, l.base >> 12)
    self.gpu:wr32(0x2600 + chid * 4, 0x80000000 | l.ramfc >> 8)
  else
    self.gpu:wr32(0x2600 + chid * 4, 0x80000000 | l.base >> 12)
  end
  self.channels[#self.channels + 1] = chid
  self:commit()
  return ch
end

-- nv50_fifo_init.
function M.fifo(gpu)
  local chip = gpu:chip()
  local g84 = CHIPS[chip]
  if g84 == nil then fail("fifo: chip %s has no G80 PFIFO (g80, g84, g92, gt215)", chip) end
  local f = setmetatable({ gpu = gpu, chip = chip, g84 = g84, channels = {} }, Fifo)
  gpu:wr32(0x250c, 0x6f3cfc34)
  gpu:wr32(0x2044, 0x01003fff)
  gpu:wr32(0x2100, 0xffffffff)
  gpu:wr32(0x2140, 0xbfffffff)
  for i = 0, 127 do gpu:wr32(0x2600 + i * 4, 0) end
  f:commit()
  gpu:wr32(0x3200, 1)
  gpu:wr32(0x3250, 1)
  gpu:wr32(0x2500, 1)
  gpu:wr32(0x140, 1)
  return f
end

return M
