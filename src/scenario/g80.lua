-- nvmodel.g80: builds G80 (Tesla) VM structures from a scenario script
-- (chips g80, g84, g92, gt215; seed 002, docs/g80.md).
--
--   local g80 = nvmodel.g80                  -- or: require "nvmodel.g80"
--   local gpu = nvmodel.open{ chip = "g84", vram = "64M", sysmem = "16M" }
--   local vm  = g80.vm(gpu, { addr = 0x20000 })        -- a channel structure in VRAM
--   local pb  = vm:dmaobj{ class = 0x3d }              -- paged, all from the page tables
--   vm:map{ virt = 0x1000, lin = 0x400000, size = 0x2000 }  -- 4 KiB VRAM pages
--   vm:flush(0)                                        -- 0x100c80 = 0 << 16 | 1, wait
--   local r = gpu:g80_translate{ chan = vm.desc, selector = pb, offset = 0x1010 }
--   local bar = g80.bar(gpu)                           -- BAR1 / BAR3 as nouveau's nv50 bar
--
-- Encoders (integers, from seed 002's bit positions): g80.pde{...},
-- g80.pte{...}, g80.dmaobj_words{...} (six words), g80.chan_desc(addr, target).
--
-- The layouts follow nouveau: the page directory at 0x1400 (G80) or 0x200
-- (G84+) of the channel structure (nv50_vmm_join), nouveau's paged DMA
-- object word 0x7fc00000 (nv50 bar and dmaobj code), PDE size bits 6:5 from
-- the page-table size, PTEs with the contig-block order (nv50_vmm_pgt_pte),
-- TLB flushes by writing engine << 16 | 1 to 0x100c80 and waiting for bit 0
-- (nv50_vmm_flush), and the BARs set up as nv50_bar_oneinit / _init do.
-- Where page tables and objects go (a bump allocator from the structure's
-- end) is this builder's choice.
--
-- Errors name the function and are raised without a position.

local fmt = string.format

local M = {}

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int


local opt, bit = U.opt, U.bit

local GEN = { g80 = 0, g84 = 1, g92 = 1, gt215 = 2 }
-- 2-bit targets of channel descriptors, PDEs and PTEs; DMA object targets.
local TARGET = { vram = 0, sysram = 2, sysram_snoop = 2, sysram_nosnoop = 3 }
local DMA_TARGET = { vm = 0, vram = 1, sysram = 2, sysram_snoop = 2, sysram_nosnoop = 3 }
local AP = { [0] = "vram", [2] = "sysmem", [3] = "sysmem" }
local PAGE_TYPE = { [0x10000] = 1, [0x4000] = 2, [0x1000] = 3 }
local PT_SIZE = { [0x20000] = 0, [0x8000] = 1, [0x4000] = 2, [0x2000] = 3 }

local function target_of(t, tbl, where)
  local v = tbl[opt(t, "vram")]
  if v == nil then fail("%s: unknown target '%s'", where, tostring(t)) end
  return v
end

-- Channel descriptor: 27:0 = address 39:12, 29:28 target.
function M.chan_desc(addr, target)
  check_int(addr, "addr", 0, (1 << 40) - 1, "chan_desc")
  if addr & 0xfff ~= 0 then fail("chan_desc: addr 0x%x is not 4 KiB aligned", addr) end
  return (addr >> 12) | target_of(target, TARGET, "chan_desc") << 28
end

-- PDE: 1:0 page size (1 large, 2 medium, 3 small), 3:2 target, 6:5 size
-- (small pages: 0x20000, 0x8000, 0x4000, 0x2000 entries), 39:12 address.
function M.pde(p)
  local where = "pde"
  local typ = PAGE_TYPE[opt(p.page, 0x1000)]
  if not typ then fail("%s: page must be 0x1000, 0x4000 or 0x10000", where) end
  local full = 0x20000000 // opt(p.page, 0x1000)
  local entries = opt(p.entries, full)
  local size = typ == 3 and PT_SIZE[entries] or (entries == full and 0 or nil)
  if not size then fail("%s: bad entries 0x%x for this page size", where, entries) end
  local addr = check_int(p.addr, "addr", 0, (1 << 40) - 1, where)
  return typ | target_of(p.target, TARGET, where) << 2 | size << 5 | (addr & 0xfffffff000)
end

-- PTE: 0 present, 3 read-only, 5:4 target, 6 supervisor-only, 9:7 contig
-- order, 39:12 address, 46:40 storage type, 48:47 compression, 60:49 tag,
-- 61 partition cycle (long), 62 encrypted.
function M.pte(p)
  local where = "pte"
  local addr = check_int(p.addr, "addr", 0, (1 << 40) - 1, where)
  local v = 1 | bit(p.ro) << 3 | target_of(p.target, TARGET, where) << 4 | bit(p.supervisor) << 6
  v = v | check_int(opt(p.contig, 0), "contig", 0, 7, where) << 7 | (addr & 0xfffffff000)
  v = v | check_int(opt(p.storage, 0), "storage", 0, 0x7f, where) << 40
  v = v | check_int(opt(p.comp, 0), "comp", 0, 2, where) << 47
  v = v | check_int(opt(p.tag, 0), "tag", 0, 0xfff, where) << 49
  v = v | bit(p.long) << 61 | bit(p.encrypted) << 62
  return v
end

-- DMA object words (seed 002 "DMA objects"). ro / us / part_cycle /
-- encrypt take the field values (0 = from the page tables), comp 3 and
-- storage 0x7f mean "from the page tables" (the defaults: nouveau's
-- 0x7fc00000 for a paged object).
function M.dmaobj_words(d)
  local where = "dmaobj"
  local w0 = check_int(opt(d.class, 0), "class", 0, 0xffff, where)
  w0 = w0 | target_of(opt(d.target, "vm"), DMA_TARGET, where) << 16
  w0 = w0 | check_int(opt(d.ro, 0), "ro", 0, 3, where) << 18
  w0 = w0 | check_int(opt(d.us, 0), "us", 0, 3, where) << 20
  w0 = w0 | check_int(opt(d.storage, 0x7f), "storage", 0, 0x7f, where) << 22
  w0 = w0 | check_int(opt(d.comp, 3), "comp", 0, 3, where) << 29
  w0 = w0 | bit(d.supervisor) << 31
  local base = check_int(opt(d.base, 0), "base", 0, (1 << 40) - 1, where)
  local limit = check_int(opt(d.limit, (1 << 40) - 1), "limit", 0, (1 << 40) - 1, where)
  local w4 = check_int(opt(d.tag_base, 0), "tag_base", 0, 0xfff, where)
    | check_int(opt(d.tag_limit, 0), "tag_limit", 0, 0xfff, where) << 16
  local cb = check_int(opt(d.comp_base, 0), "comp_base", 0, 0xffffffff, where)
  if cb & 0xffff ~= 0 then fail("%s: comp_base 0x%x is not 64 KiB aligned", where, cb) end
  local w5 = cb >> 16 | check_int(opt(d.part_cycle, 0), "part_cycle", 0, 3, where) << 16
    | check_int(opt(d.encrypt, 0), "encrypt", 0, 3, where) << 18
  return { w0, limit & 0xffffffff, base & 0xffffffff, (base >> 32) | (limit >> 32) << 24, w4, w5 }
end

-- ---------------------------------------------------------------- a VM (channel structure)

local Vm = {}
Vm.__index = Vm

local function w64(gpu, ap, addr, v)
  gpu:mem_wr32(ap, addr, v & 0xffffffff)
  gpu:mem_wr32(ap, addr + 4, (v >> 32) & 0xffffffff)
end

-- g80.vm(gpu, {addr, target = "vram", objects = 0x5000, heap = addr + 0x10000}):
-- a channel structure at addr (4 KiB aligned). DMA objects are placed from
-- addr + objects (above the page directory), page tables from heap.
function M.vm(gpu, o)
  o = o or {}
  local where = "g80.vm"
  local gen = GEN[gpu:chip()]
  if not gen then fail("%s: chip %s has no G80 VM", where, gpu:chip()) end
  local addr = check_int(o.addr, "addr", 0, (1 << 40) - 1, where)
  local tgt = target_of(o.target, TARGET, where)
  local pd = gen == 0 and 0x1400 or 0x200
  local self = setmetatable({ gpu = gpu, gen = gen, addr = addr, target = tgt, ap = AP[tgt],
                              desc = M.chan_desc(addr, o.target), pd = addr + pd,
                              next_obj = addr + opt(o.objects, pd + 0x4000),
                              heap = opt(o.heap, addr + 0x10000), pts = {} }, Vm)
  return self
end

-- vm:dmaobj{...}: writes a DMA object (g80.dmaobj_words fields) at the next
-- free 0x20-aligned slot, or at selector = n; returns its selector.
function Vm:dmaobj(d)
  local sel = d.selector
  if sel == nil then
    self.next_obj = (self.next_obj + 0x1f) & ~0x1f
    sel = (self.next_obj - self.addr) >> 4
    self.next_obj = self.next_obj + 0x20
  end
  check_int(sel, "selector", 1, 0xffff, "vm:dmaobj")
  local w = M.dmaobj_words(d)
  for i = 1, 6 do
    self.gpu:mem_wr32(self.ap, self.addr + (sel << 4) + (i - 1) * 4, w[i])
  end
  return sel
end

-- The page table of PDE i for a page size: allocated on first use (full
-- size unless entries says less), its PDE written.
function Vm:pt(i, page, entries)
  local pt = self.pts[i]
  if pt then
    if pt.page ~= page then fail("vm:map: PDE %d already has 0x%x pages", i, pt.page) end
    return pt
  end
  entries = opt(entries, 0x20000000 // page)
  local bytes = entries * 8
  self.heap = (self.heap + 0xfff) & ~0xfff
  pt = { addr = self.heap, page = page, entries = entries }
  self.heap = self.heap + bytes
  self.pts[i] = pt
  w64(self.gpu, self.ap, self.pd + i * 8, M.pde{ page = page, entries = entries, addr = pt.addr,
                                                 target = self.target == 0 and "vram" or "sysram" })
  return pt
end

-- vm:map{virt, lin, size, page = 0x1000, target = "vram", ro, supervisor,
-- storage, comp, tag, long, encrypted, contig = true}: maps size bytes; with
-- contig (the default) aligned runs become contig blocks of order up to 7,
-- as nouveau's nv50_vmm_pgt_pte does.
function Vm:map(m)
  local where = "vm:map"
  local page = opt(m.page, 0x1000)
  if not PAGE_TYPE[page] then fail("%s: page must be 0x1000, 0x4000 or 0x10000", where) end
  if page == 0x4000 and self.gen < 2 then fail("%s: medium pages need gt215", where) end
  local virt = check_int(m.virt, "virt", 0, (1 << 40) - 1, where)
  local lin = check_int(m.lin, "lin", 0, (1 << 40) - 1, where)
  local size = check_int(m.size, "size", 1, 1 << 40, where)
  if virt % page ~= 0 or lin % page ~= 0 or size % page ~= 0 then
    fail("%s: virt, lin and size must be multiples of the page size 0x%x", where, page)
  end
  local npages = size // page
  local p = 0
  while p < npages do
    local v = virt + p * page
    -- the largest order o whose block is virtually aligned and fits
    local o = 0
    if opt(m.contig, true) then
      while o < 7 and (v // page) % (1 << (o + 1)) == 0 and p + (1 << (o + 1)) <= npages do
        o = o + 1
      end
    end
    local pte = M.pte{ addr = lin + p * page, target = m.target, ro = m.ro, supervisor = m.supervisor,
                       storage = m.storage, comp = m.comp, tag = m.tag, long = m.long,
                       encrypted = m.encrypted, contig = o }
    for k = 0, (1 << o) - 1 do
      local vk = v + k * page
      local pt = self:pt(vk >> 29, page, m.entries)
      local idx = (vk & 0x1fffffff) // page
      if idx >= pt.entries then fail("%s: virt 0x%x beyond its page table", where, vk) end
      w64(self.gpu, self.ap, pt.addr + idx * 8, pte)
    end
    p = p + (1 << o)
  end
end

-- vm:unmap{virt, size, page = 0x1000}: clears the PTEs.
function Vm:unmap(m)
  local page = opt(m.page, 0x1000)
  for v = m.virt, m.virt + m.size - 1, page do
    local pt = self.pts[v >> 29]
    if pt then w64(self.gpu, self.ap, pt.addr + ((v & 0x1fffffff) // page) * 8, 0) end
  end
end

-- vm:flush(engine): a TLB flush as nouveau's nv50_vmm_flush does it.
function Vm:flush(engine)
  return M.flush(self.gpu, engine)
end

function M.flush(gpu, engine)
  check_int(engine, "engine", 0, 15, "flush")
  gpu:wr32(0x100c80, engine << 16 | 1)
  for _ = 1, 1000 do
    if gpu:rd32(0x100c80) & 1 == 0 then return true end
    gpu:run{ ns = 100 }
  end
  fail("flush: engine %d TLB flush timeout", engine)
end

-- ---------------------------------------------------------------- BARs

-- g80.bar(gpu, {mem = 0x10000, bar1_size = 0x10000000, bar3_size = 0x1000000}):
-- BAR1 and BAR3 as nouveau's nv50_bar_oneinit / _init set them up: one bare
-- channel structure (bar->mem) whose page directory both BAR VMs join, BAR1
-- covering virtual 0.., BAR3 (nouveau's "bar2") 0x100000000.., their DMA
-- objects (0x7fc00000, limit = start + size - 1, start) inside it, then
-- 0x1704 = mem >> 12 and 0x40000000 | mem >> 12, 0x170c and 0x1708 =
-- 0x80000000 | object offset >> 4. Returns {vm, bar1, bar3} where bar1/bar3
-- are {start, size, selector}; map pages with vm:map.
function M.bar(gpu, o)
  o = o or {}
  local mem = opt(o.mem, 0x10000)
  local vm = M.vm(gpu, { addr = mem, objects = 0x5000, heap = mem + 0x20000 })
  local b1 = { start = 0, size = opt(o.bar1_size, 0x10000000) }
  local b3 = { start = 0x100000000, size = opt(o.bar3_size, 0x1000000) }
  b3.selector = vm:dmaobj{ base = b3.start, limit = b3.start + b3.size - 1 }
  b1.selector = vm:dmaobj{ base = b1.start, limit = b1.start + b1.size - 1 }
  gpu:wr32(0x1704, 0x00000000 | mem >> 12)
  gpu:wr32(0x1704, 0x40000000 | mem >> 12)
  gpu:wr32(0x170c, 0x80000000 | b3.selector)
  gpu:wr32(0x1708, 0x80000000 | b1.selector)
  return { vm = vm, bar1 = b1, bar3 = b3 }
end

return M
