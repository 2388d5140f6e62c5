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
-- A thin wrapper over the library's set-up helpers (nvm_g80_fifo_* and
-- nvm_g80_channel_* in include/nvmodel/setup.h, src/setup/g80fifo.c, through
-- nvmodel._setup): it keeps the script-facing objects, checks and messages.
--
-- Errors name the function and are raised without a position.

local nvmodel = nvmodel

local M = {}

local C = nvmodel._setup
-- rnndb g80_pfifo_engine ids; which names a chip has: docs/g80.md
local ENGINES = { software = 0, pgraph = 1, pmpeg = 2, pppp = 2, pme = 3, pcopy = 3, pvp1 = 4, pvp2 = 4, ppdec = 4,
                  pcipher = 5, pbsp = 6, pvld = 6 }

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int

-- nvkm_ramht_hash with channel 0 (nv50 inserts with chid 0).
function M.ramht_hash(handle, bits)
  return C.ramht_hash(handle, 0, bits)
end

local Fifo, Channel = {}, {}
Fifo.__index = Fifo
-- The Lua view of the helpers' channel: base, pb, pb_put, ib, ib_put, order,
-- va_off, next as the helpers keep them.
Channel.__index = function(ch, k)
  local m = Channel[k]
  if m ~= nil then return m end
  return C.g80ch_state(rawget(ch, "c"))[k]
end

function Channel:wr(off, v) self.gpu:mem_wr32("vram", self.base + off, v & 0xffffffff) end
function Channel:rd(off) return self.gpu:mem_rd32("vram", self.base + off) end

-- Objects go between 0x6000 and 0x7000 of the structure (16-byte units:
-- the selector is the offset >> 4); the page tables' objects (vm = true) from
-- 0x7000.
function Channel:alloc(size)
  local o = C.g80ch_alloc(self.c, size)
  if not o then fail("object: the channel structure's object area is full") end
  return o
end

-- A RAMHT entry: handle, engine << 20 | selector (nouveau's context).
function Channel:ramht_add(handle, sel, engine)
  local off = C.g80ch_ramht_add(self.gpu, self.c, handle, sel, engine)
  if not off then fail("ramht_add: RAMHT is full") end
  return off
end

-- A DMA object (seed 002 "DMA objects", nvmodel.g80's fields); the defaults
-- make it unpaged VRAM, read-write, storage type and compression 0; target =
-- "vm" makes it paged. With a handle it gets a RAMHT entry (engine 0).
-- Returns its selector.
function Channel:dmaobj(t)
  local d = {}
  for k, v in pairs(t) do d[k] = v end
  d.class = d.class or 0x3d
  d.target = d.target or "vram"
  if d.target ~= "vm" then
    d.ro, d.storage, d.comp = d.ro or 2, d.storage or 0, d.comp or 0
  end
  local f = nvmodel.g80._dmaobj_fields(d)
  if t.handle then check_int(t.handle, "handle", 0, 0xffffffff, "dmaobj") end
  local sel, err = C.g80ch_dmaobj(self.gpu, self.c, f, t.offset, t.handle)
  if not sel then
    if err == "full" and t.offset == nil and self.next + 0x18 > 0x7000 then
      fail("object: the channel structure's object area is full")
    end
    if err == "full" then fail("ramht_add: RAMHT is full") end
    fail("dmaobj: %s", err)
  end
  return sel
end

-- An engine object: its class in the first word, a RAMHT entry.
function Channel:object(t)
  local where = "object"
  local engine = ENGINES[t.engine or "pgraph"] or fail("%s: unknown engine '%s'", where, tostring(t.engine))
  local class = check_int(t.class, "class", 0, 0xffff, where)
  local handle = check_int(t.handle, "handle", 0, 0xffffffff, where)
  if self.next + 0x10 > 0x7000 then fail("object: the channel structure's object area is full") end
  local sel = C.g80ch_object(self.gpu, self.c, class, handle, engine)
  if not sel then fail("ramht_add: RAMHT is full") end
  return sel
end

function Channel:user() return 0xc00000 + self.chid * 0x2000 end

-- Writes words into the pushbuffer; returns their address as the
-- pushbuffer DMA object sees it (virtual with vm = true).
function Channel:write(words)
  local a = C.g80ch_write(self.gpu, self.c, words)
  if not a then fail("push: the pushbuffer is full") end
  return a
end

-- A raw IB entry (dma-pusher.rst "IB mode"): address, length in words,
-- NOT_MAIN. Not submitted until kick().
function Channel:ib_entry(addr, words, not_main)
  C.g80ch_ib_entry(self.gpu, self.c, addr, words, not_main)
end

function Channel:kick()
  C.g80ch_kick(self.gpu, self.c)
end

-- nouveau's nv50_dma_push + FIRE_RING: the commands as one IB entry (IB
-- mode) or after DMA_PUT (DMA mode).
function Channel:push(words)
  if type(words) == "string" then words = nvmodel.pb_words(words, "old", "push") end
  if not C.g80ch_push(self.gpu, self.c, words) then fail("push: the pushbuffer is full") end
end

function Channel:ib_get() return self.gpu:rd32(self:user() + 0x88) end
function Channel:get() return self.gpu:rd32(self:user() + 0x44) end
function Channel:ref() return self.gpu:rd32(self:user() + 0x48) end

-- A channel as nv50_fifo_gpfifo_new / g84_fifo_gpfifo_new build it (ib =
-- false: the DMA-mode constructor's DMA_FETCH and DMA_LIMIT).
function Fifo:channel(t)
  local where = "channel"
  local chid = check_int(t.chid, "chid", 1, 126, where)
  local order = check_int(t.ib_order or 9, "ib_order", 1, 16, where)
  local pb_ap = t.pushbuf_ap or "sysmem"
  local c, err, text = C.g80fifo_channel(self.gpu, self.c, { chid = chid, ib = t.ib ~= false, ib_order = order,
                                                             vram = pb_ap == "vram", vm = t.vm })
  if not c then fail("%s: %s", where, text or err) end
  local ch = setmetatable({ gpu = self.gpu, fifo = self, chid = chid, c = c, pb_ap = pb_ap, ib_mode = t.ib ~= false },
                          Channel)
  local vc, desc = C.g80ch_vm(c)
  if vc then ch.vm = nvmodel.g80._wrap_vm(self.gpu, ch.base, vc, desc) end
  return ch
end

-- nv50_runl_update / commit: the ids at PLAYLIST, then PLAYLIST_LEN.
function Fifo:commit()
  C.g80fifo_commit(self.gpu, self.c)
end

-- nv50_fifo_init.
function M.fifo(gpu)
  local chip = gpu:chip()
  local c = C.g80fifo_new(gpu)
  if not c then fail("fifo: chip %s has no G80 PFIFO (g80, g84, g92, gt215)", chip) end
  return setmetatable({ gpu = gpu, chip = chip, c = c, g84 = chip ~= "g80" }, Fifo)
end

return M
