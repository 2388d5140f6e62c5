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
-- end) is the helpers' choice. This module is a thin wrapper over the
-- library's set-up helpers (nvm_g80_* in include/nvmodel/setup.h,
-- src/setup/g80.c, through nvmodel._setup): it keeps the script-facing
-- objects, argument checks and messages; the TLB flush wait stays here.
--
-- Errors name the function and are raised without a position.

local fmt = string.format

local M = {}

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int
local C = nvmodel._setup

local opt, bit = U.opt, U.bit

local GEN = { g80 = 0, g84 = 1, g92 = 1, gt215 = 2 }
-- 2-bit targets of channel descriptors, PDEs and PTEs; DMA object targets.
local TARGET = { vram = 0, sysram = 2, sysram_snoop = 2, sysram_nosnoop = 3 }
local DMA_TARGET = { vm = 0, vram = 1, sysram = 2, sysram_snoop = 2, sysram_nosnoop = 3 }
local AP = { [0] = "vram", [2] = "sysmem", [3] = "sysmem" }
local PAGE_TYPE = { [0x10000] = 1, [0x4000] = 2, [0x1000] = 3 }

local function target_of(t, tbl, where)
  local v = tbl[opt(t, "vram")]
  if v == nil then fail("%s: unknown target '%s'", where, tostring(t)) end
  return v
end

-- Channel descriptor: 27:0 = address 39:12, 29:28 target (nvm_g80_chan_desc).
function M.chan_desc(addr, target)
  check_int(addr, "addr", 0, (1 << 40) - 1, "chan_desc")
  if addr & 0xfff ~= 0 then fail("chan_desc: addr 0x%x is not 4 KiB aligned", addr) end
  return C.g80_chan_desc(addr, target_of(target, TARGET, "chan_desc"))
end

-- PDE: 1:0 page size (1 large, 2 medium, 3 small), 3:2 target, 6:5 size
-- (small pages: 0x20000, 0x8000, 0x4000, 0x2000 entries), 39:12 address (nvm_g80_pde_make).
local function check_pde(page, entries, where)
  if not PAGE_TYPE[page] then fail("%s: page must be 0x1000, 0x4000 or 0x10000", where) end
  if entries ~= nil and (math.type(entries) ~= "integer" or not C.g80_pde(page, entries, 0, 0)) then
    fail("%s: bad entries 0x%x for this page size", where, entries)
  end
end

function M.pde(p)
  local where = "pde"
  local page = opt(p.page, 0x1000)
  check_pde(page, p.entries, where)
  local addr = check_int(p.addr, "addr", 0, (1 << 40) - 1, where)
  return C.g80_pde(page, opt(p.entries, 0), addr, target_of(p.target, TARGET, where))
end

-- PTE: 0 present, 3 read-only, 5:4 target, 6 supervisor-only, 9:7 contig
-- order, 39:12 address, 46:40 storage type, 48:47 compression, 60:49 tag,
-- 61 partition cycle (long), 62 encrypted (nvm_g80_pte_make). Returns the
-- PTE fields as the helpers take them.
local function pte_fields(p, where, addr, contig)
  local t = { addr = addr, target = target_of(p.target, TARGET, where), ro = p.ro, supervisor = p.supervisor,
              long = p.long, encrypted = p.encrypted }
  t.contig = check_int(opt(contig, 0), "contig", 0, 7, where)
  t.storage = check_int(opt(p.storage, 0), "storage", 0, 0x7f, where)
  t.comp = check_int(opt(p.comp, 0), "comp", 0, 2, where)
  t.tag = check_int(opt(p.tag, 0), "tag", 0, 0xfff, where)
  return t
end

function M.pte(p)
  local where = "pte"
  local addr = check_int(p.addr, "addr", 0, (1 << 40) - 1, where)
  return C.g80_pte(pte_fields(p, where, addr, p.contig))
end

-- DMA object fields (seed 002 "DMA objects"). ro / us / part_cycle /
-- encrypt take the field values (0 = from the page tables), comp 3 and
-- storage 0x7f mean "from the page tables" (the defaults: nouveau's
-- 0x7fc00000 for a paged object).
local function dmaobj_fields(d)
  local where = "dmaobj"
  local f = { class = check_int(opt(d.class, 0), "class", 0, 0xffff, where),
              target = target_of(opt(d.target, "vm"), DMA_TARGET, where),
              ro = check_int(opt(d.ro, 0), "ro", 0, 3, where),
              us = check_int(opt(d.us, 0), "us", 0, 3, where),
              storage = check_int(opt(d.storage, 0x7f), "storage", 0, 0x7f, where),
              comp = check_int(opt(d.comp, 3), "comp", 0, 3, where),
              supervisor = d.supervisor }
  f.base = check_int(opt(d.base, 0), "base", 0, (1 << 40) - 1, where)
  f.limit = check_int(opt(d.limit, (1 << 40) - 1), "limit", 0, (1 << 40) - 1, where)
  f.tag_base = check_int(opt(d.tag_base, 0), "tag_base", 0, 0xfff, where)
  f.tag_limit = check_int(opt(d.tag_limit, 0), "tag_limit", 0, 0xfff, where)
  f.comp_base = check_int(opt(d.comp_base, 0), "comp_base", 0, 0xffffffff, where)
  if f.comp_base & 0xffff ~= 0 then fail("%s: comp_base 0x%x is not 64 KiB aligned", where, f.comp_base) end
  f.part_cycle = check_int(opt(d.part_cycle, 0), "part_cycle", 0, 3, where)
  f.encrypt = check_int(opt(d.encrypt, 0), "encrypt", 0, 3, where)
  return f
end

M._dmaobj_fields = dmaobj_fields -- for nvmodel.g80fifo

-- The six words of a DMA object (the model's nvm_g80_dmaobj_encode).
function M.dmaobj_words(d)
  return { C.g80_dmaobj_words(dmaobj_fields(d)) }
end

-- ---------------------------------------------------------------- a VM (channel structure)

local Vm = {}
Vm.__index = Vm

local function wrap_vm(gpu, gen, addr, tgt, c, desc)
  return setmetatable({ gpu = gpu, gen = gen, addr = addr, target = tgt, ap = AP[tgt], desc = desc, c = c }, Vm)
end
M._wrap_vm = function(gpu, addr, c, desc) return wrap_vm(gpu, GEN[gpu:chip()], addr, 0, c, desc) end -- nvmodel.g80fifo

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
  M.chan_desc(addr, o.target)
  local c, desc, text = C.g80_vm_new(gpu, addr, tgt, o.objects, o.heap)
  if not c then fail("%s: %s", where, text) end
  return wrap_vm(gpu, gen, addr, tgt, c, desc)
end

-- vm:dmaobj{...}: writes a DMA object (g80.dmaobj_words fields) at the next
-- free 0x20-aligned slot, or at selector = n; returns its selector.
function Vm:dmaobj(d)
  if d.selector ~= nil then check_int(d.selector, "selector", 1, 0xffff, "vm:dmaobj") end
  local sel = C.g80_vm_dmaobj(self.gpu, self.c, dmaobj_fields(d), d.selector)
  if not sel then fail("vm:dmaobj: the object area passes selector 0xffff") end
  return sel
end

-- The page table of PDE i: { addr, page, entries }, or nil before one is made.
function Vm:pt(i)
  local addr, page, entries = C.g80_vm_pt(self.c, i)
  return addr and { addr = addr, page = page, entries = entries } or nil
end

-- vm:map{virt, lin, size, page = 0x1000, target = "vram", ro, supervisor,
-- storage, comp, tag, long, encrypted, contig = true}: maps size bytes; with
-- contig (the default) aligned runs become contig blocks of order up to 7,
-- as nouveau's nv50_vmm_pgt_pte does (nvm_g80_vmb_map).
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
  local t = pte_fields(m, "pte", lin, 0)
  check_pde(page, m.entries, "pde")
  t.virt, t.lin, t.size, t.page, t.entries, t.blocks = virt, lin, size, page, m.entries, opt(m.contig, true)
  local ok, err, _, bad = C.g80_vm_map(self.gpu, self.c, t)
  if not ok then
    if err == "arg" then fail("%s: PDE %d already has 0x%x pages", where, bad >> 29, self:pt(bad >> 29).page) end
    if err == "range" then fail("%s: virt 0x%x beyond its page table", where, bad) end
    fail("%s: %s", where, err)
  end
end

-- vm:unmap{virt, size, page = 0x1000}: clears the PTEs.
function Vm:unmap(m)
  C.g80_vm_unmap(self.gpu, self.c, m.virt, m.size, opt(m.page, 0x1000))
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
  local b1 = { start = 0, size = opt(o.bar1_size, 0x10000000) }
  local b3 = { start = 0x100000000, size = opt(o.bar3_size, 0x1000000) }
  local c, desc, s1, s3 = C.g80_bar(gpu, mem, b1.size, b3.size)
  if not c then fail("bar: %s", s1) end
  b1.selector, b3.selector = s1, s3
  return { vm = wrap_vm(gpu, GEN[gpu:chip()], mem, 0, c, desc), bar1 = b1, bar3 = b3 }
end

return M
