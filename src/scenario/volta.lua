-- nvmodel.volta: builds Volta (gv100) channels from a scenario script.
--
--   local volta = require "nvmodel.volta"        -- or: local volta = nvmodel.volta
--   local gpu  = nvmodel.open{ chip = "gv100", vram = "256M" }
--   local heap = volta.heap(gpu, "vram", 0x100000, "64M")
--   local vm   = volta.vm(gpu, heap)
--   local ch   = volta.channel(gpu, vm, { chid = 0, runlist = 0 })
--   volta.runlist(gpu, heap, { ch }):submit()
--   ch:push("inc 0 NOP 0")
--
-- Everything here writes simulated memory and pokes registers through the
-- gpu object (mem_wr32, mem_write, mem_rd32, wr32, rd32), exactly as a
-- driver would: nothing reaches into the model. Formats and register fields
-- come from the documents:
--   seed 000 sections 2 RAMIN, 3 RAMFC, 4 RAMUSERD, 5 RAMRL;
--   gv100_dev_mmu.ref.txt and gp100-mmu-format.txt (ver2 page tables);
--   gv100_dev_pbdma.ref.txt (GP entries, GP_BASE, USERD, SUBDEVICE, CONFIG ...);
--   gv100_dev_fifo.ref.txt and gv100_dev_usermode.ref.txt (registers);
--   volta-facts.md section 3 (the values nouveau writes; the builder writes the same).
-- Where things go in memory (heaps, order, the default VA, sizes) is this
-- builder's choice, not a hardware fact (docs/fidelity.md, "scenario/volta").
--
-- Errors name the function and are raised without a position; the scenario
-- runner puts the caller's file:line in front. A copy of this file works as
-- an ordinary module: it needs only the global `nvmodel` (for pb_asm).

local nvmodel = nvmodel
local fmt = string.format

local M = {}

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int

local hex = U.hex

-- Byte offsets of the NV_RAMFC_* and NV_RAMUSERD_* words, from the field
-- tables the model and `nvmodel host` read (nvmodel.host_layout): the one
-- description of these structures, per chip.
local RAMFC_OF = {}
local function ramfc_of(chip)
  local l = RAMFC_OF[chip]
  if not l then
    l = nvmodel.host_layout("ramfc", false, chip)
    RAMFC_OF[chip] = l
  end
  return l
end

local function lo32(v) return v & 0xffffffff end
local function hi32(v) return (v >> 32) & 0xffffffff end
local bit = U.bit


local function check_u32(v, name, where)
  return check_int(v, name, -0x80000000, 0xffffffff, where) & 0xffffffff
end

-- A size: an integer or a string with a K/M/G suffix ("64K", "16M").
local function check_size(v, name, where)
  if type(v) == "string" then
    local n, unit = v:match("^(%d+)([KkMmGg]?)$")
    n = n and math.tointeger(tonumber(n))
    if not n or n >= 1 << 40 then fail("%s: %s '%s' is not a size (bytes, or a K/M/G suffix)", where, name, v) end
    v = n << ({ [""] = 0, k = 10, m = 20, g = 30 })[unit:lower()]
  end
  return check_int(v, name, 1, 1 << 58, where)
end

local function is_pow2(v) return v > 0 and v & (v - 1) == 0 end

-- Rejects option names a function does not know (a typo would otherwise be ignored).
local function check_opts(o, allowed, where)
  if o == nil then return {} end
  if type(o) ~= "table" then fail("%s: options must be a table (got %s)", where, type(o)) end
  for k in pairs(o) do
    if not allowed[k] then
      local names = {}
      for n in pairs(allowed) do names[#names + 1] = n end
      table.sort(names)
      fail("%s: unknown option '%s' (known: %s)", where, tostring(k), table.concat(names, ", "))
    end
  end
  return o
end

local function set(...)
  local s = {}
  for _, k in ipairs{ ... } do s[k] = true end
  return s
end

local function check_gpu(gpu, where)
  if type(gpu) ~= "userdata" then
    fail("%s: argument 1 must be a gpu object (from nvmodel.open), got %s", where, type(gpu))
  end
end

-- ------------------------------------------------------------ Host generations

-- What a driver writes differently on each Host generation, as nouveau's
-- code for it does (everything else, RAMIN, RAMFC, PCCSR, runlist entries,
-- GP entries, is the same from gv100 to tu102): one row per chip, so a script
-- changes only the chip name. Rows:
--   nrunlist          runlist ids the submit registers take;
--   init(gpu)         once per GPU, before the first channel (nouveau's fifo init
--                     writes the channels need);
--   submit(gpu, id, target, addr, length), pending(gpu, id);
--   doorbell(gpu, ch) rings the doorbell of channel ch (after USERD GP_PUT).
local HOSTS = {
  -- gv100_dev_fifo NV_PFIFO_RUNLIST_BASE (0x2270): PTR 27:0 = addr >> 12, TARGET 29:28; then
  -- NV_PFIFO_RUNLIST (0x2274): LENGTH 15:0, ID 23:20 (this write starts the fetch);
  -- NV_PFIFO_ENG_RUNLIST(id) at 0x2284 + id*8: PENDING 20:20.
  -- gv100_dev_usermode NV_USERMODE_NOTIFY_CHANNEL_PENDING (0x810090) ID 31:0 = the channel id.
  gv100 = {
    nrunlist = 13, -- NV_PFIFO_ENG_RUNLIST__SIZE_1
    submit = function(gpu, id, target, addr, length)
      if addr >> 40 ~= 0 then fail("rl:submit: runlist at %s is beyond RUNLIST_BASE_PTR (40 bits)", hex(addr)) end
      gpu:wr32(0x2270, target << 28 | addr >> 12)
      gpu:wr32(0x2274, id << 20 | length)
    end,
    pending = function(gpu, id) return (gpu:rd32(0x2284 + 8 * id) >> 20) & 1 == 1 end,
    doorbell = function(gpu, ch) gpu:wr32(0x810090, ch.chid) end,
  },
  -- tu104 dev_fifo NV_PFIFO_RUNLIST_BASE_LO(i) 0x2B00+16i: PTR_LO 31:12, TARGET 1:0;
  -- _BASE_HI(i) 0x2B04+16i: PTR_HI 7:0; _SUBMIT(i) 0x2B08+16i: LENGTH 15:0 (nouveau
  -- tu102_runl_commit: lo, hi, count); _SUBMIT_INFO(i) 0x2B0C+16i: PENDING 15:15.
  -- The doorbell is the handle RUNLIST_ID 22:16 | CHID 11:0 (tu104 dev_usermode), written
  -- by nouveau to NV_VIRTUAL_FUNCTION_DOORBELL, BAR0 0xB80000 + 0x30000 + 0x90
  -- (vfn/tu102.c, tu102_chan_doorbell_handle), after tu102_fifo_init_pbdmas set
  -- NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE 31:31 (0xB65000, tu104 dev_ctrl).
  tu102 = {
    nrunlist = 11, -- NV_PFIFO_RUNLIST_BASE_LO__SIZE_1
    init = function(gpu) gpu:wr32(0xb65000, gpu:rd32(0xb65000) | 1 << 31) end,
    submit = function(gpu, id, target, addr, length)
      if addr >> 40 ~= 0 then fail("rl:submit: runlist at %s is beyond RUNLIST_BASE_HI PTR_HI (40 bits)", hex(addr)) end
      gpu:wr32(0x2b00 + 16 * id, lo32(addr) | target)
      gpu:wr32(0x2b04 + 16 * id, hi32(addr))
      gpu:wr32(0x2b08 + 16 * id, length)
    end,
    pending = function(gpu, id) return (gpu:rd32(0x2b0c + 16 * id) >> 15) & 1 == 1 end,
    -- RUNLIST_ID_ALL (15) when the channel's runlist is not known.
    doorbell = function(gpu, ch) gpu:wr32(0xbb0090, (ch.runlist or ch.submitted or 15) << 16 | ch.chid) end,
  },
}

-- Ampere and Hopper (ga100, ga102, gh100): runlist `id`'s register space as
-- a driver finds it (nouveau top/ga100.c, runl/ga100.c):
-- NV_PTOP_DEVICE_INFO_CFG (0x224FC) NUM_ROWS 31:20; rows at 0x22800 + 4i,
-- an entry's rows chained by bit 31, its third row the RUNLIST PRI base
-- 23:10. Runlist ids count the distinct bases in table order. From the
-- space: CHRAM (NV_RUNLIST_CHANNEL_CONFIG 31:4) and the doorbell id
-- (NV_RUNLIST_DOORBELL_CONFIG ID 31:16).
local function ampere_runlist(gpu, id, where)
  local n = gpu:rd32(0x224fc) >> 20
  local bases, seen, row = {}, {}, 0
  for i = 0, n - 1 do
    local v = gpu:rd32(0x22800 + 4 * i)
    row = row + 1
    if row == 3 and not seen[v & 0x00fffc00] then
      seen[v & 0x00fffc00] = true
      bases[#bases + 1] = v & 0x00fffc00
    end
    if v >> 31 == 0 then row = 0 end
  end
  local base = bases[id + 1]
  if not base then fail("%s: runlist %d: the device-info table publishes %d runlists", where, id, #bases) end
  return { base = base, chram = gpu:rd32(base + 4) & 0xfffffff0, dbid = gpu:rd32(base + 8) >> 16 }
end
M.ampere_runlist = ampere_runlist

-- ga100_dev_runlist, as nouveau's ga100 code writes it (and RM's Hopper code, which reuses
-- GA100's runlist and channel-RAM paths): no channel RAM instance pointer (the runlist entry
-- carries INST and USERD: bind does nothing); start = NV_CHRAM_CHANNEL(chid) ENABLE_CHANNEL 0x2
-- then NV_RUNLIST_INTERNAL_DOORBELL (+0x090) = CHID (ga100_chan_start), stop = DISABLE_CHANNEL
-- 0x3; submit = SUBMIT_BASE_LO (+0x080) PTR_LO 31:12 | TARGET 1:0, _BASE_HI (+0x084),
-- SUBMIT (+0x088) LENGTH (ga100_runl_commit); pending = SUBMIT_INFO (+0x08C) PENDING 15:15;
-- the doorbell NV_VIRTUAL_FUNCTION_DOORBELL (0xB80000 + 0x30090) = DOORBELL_CONFIG ID << 16 |
-- chid (ga100_chan_doorbell_handle). RAMFC: no USERD words, 0x0f8 INTR_NOTIFY; Hopper's
-- GP_BASE_HI / GP_INFO and SUBDEVICE 1 (the `ramfc` fields below).
local function ampere_host(nrunlist, hopper)
  local function rl(gpu, ch, where) return ampere_runlist(gpu, ch.runlist or ch.submitted or 0, where) end
  return {
    nrunlist = nrunlist, nchid = 2048, ampere = true, hopper = hopper,
    bind = function() end,
    enable = function(gpu, ch)
      local r = rl(gpu, ch, "ch:enable")
      gpu:wr32(r.chram + 4 * ch.chid, 0x2)
      gpu:wr32(r.base + 0x090, ch.chid)
    end,
    disable = function(gpu, ch) gpu:wr32(rl(gpu, ch, "ch:disable").chram + 4 * ch.chid, 0x3) end,
    submit = function(gpu, id, target, addr, length)
      local r = ampere_runlist(gpu, id, "rl:submit")
      gpu:wr32(r.base + 0x080, lo32(addr) | target)
      gpu:wr32(r.base + 0x084, hi32(addr))
      gpu:wr32(r.base + 0x088, length)
    end,
    pending = function(gpu, id) return (gpu:rd32(ampere_runlist(gpu, id, "rl:pending").base + 0x08c) >> 15) & 1 == 1 end,
    doorbell = function(gpu, ch)
      local r = rl(gpu, ch, "ch:kick")
      gpu:wr32(0xbb0090, r.dbid << 16 | ch.chid)
    end,
  }
end
HOSTS.ga100 = ampere_host(5, false)
HOSTS.ga102 = ampere_host(5, false)
HOSTS.gh100 = ampere_host(5, true)
M.HOSTS = HOSTS

-- The row of gpu's chip; runs its init once per GPU.
local INITED = setmetatable({}, { __mode = "k" })
local function host_of(gpu, where)
  local chip = gpu:chip()
  local h = HOSTS[chip]
  if not h then
    local names = {}
    for k in pairs(HOSTS) do names[#names + 1] = k end
    table.sort(names)
    fail("%s: chip %s has no Host this builder knows (%s)", where, chip, table.concat(names, ", "))
  end
  if h.init and not INITED[gpu] then
    INITED[gpu] = true
    h.init(gpu)
  end
  return h
end

-- ------------------------------------------------------------ apertures

-- The memory apertures a builder object may live in, with their encodings:
--   target: RAMIN PAGE_DIR_BASE_TARGET, RAMRL INST/USERD_TARGET, PPBDMA_USERD_TARGET,
--           PCCSR_CHANNEL_INST_TARGET, PFIFO_RUNLIST_BASE_TARGET and the ver2 PTE
--           APERTURE (0 VID_MEM, 2 SYS_MEM_COHERENT, 3 SYS_MEM_NONCOHERENT);
--   pde:    the ver2 PDE and dual PDE APERTURE fields (1 VIDEO_MEMORY, 2 SYSTEM_COHERENT,
--           3 SYSTEM_NON_COHERENT);
--   bits:   address width of the ver2 entries' ADDRESS field (VID (35-3):8 holds
--           PA 36:12, SYS 53:8 holds PA 57:12).
local APERTURES = {
  vram = { target = 0, pde = 1, bits = 37 },
  sysmem = { target = 2, pde = 2, bits = 58 },
  sysmem_coh = { target = 2, pde = 2, bits = 58 },
  sysmem_ncoh = { target = 3, pde = 3, bits = 58 },
}

local function aperture(ap, where)
  local a = type(ap) == "string" and APERTURES[ap:lower()]
  if not a then
    fail('%s: unknown aperture %s (use "vram", "sysmem", "sysmem_coh" or "sysmem_ncoh")', where, tostring(ap))
  end
  return a, ap:lower()
end

-- A {aperture, address} pair (the form gpu:mmu_translate takes).
local function check_place(p, name, where)
  if type(p) ~= "table" then fail("%s: %s must be {aperture, address}", where, name) end
  local a, ap = aperture(p[1], where)
  return a, ap, check_int(p[2], name .. " address", 0, (1 << 58) - 1, where)
end

local ZERO = string.rep("\0", 4096)

local function zero(gpu, ap, addr, size)
  for off = 0, size - 1, 4096 do
    local n = math.min(4096, size - off)
    gpu:mem_write(ap, addr + off, n == 4096 and ZERO or ZERO:sub(1, n))
  end
end

local function write64(gpu, ap, addr, v)
  gpu:mem_wr32(ap, addr, lo32(v), hi32(v))
end

-- ------------------------------------------------------------ heap

local Heap = {}
Heap.__index = Heap

-- A bump allocator over [base, base + size) of an aperture.
function M.heap(gpu, ap, base, size)
  local where = "volta.heap"
  check_gpu(gpu, where)
  local _, name = aperture(ap, where)
  check_int(base, "base", 0, (1 << 58) - 1, where)
  size = check_size(size, "size", where)
  return setmetatable({ gpu = gpu, ap = name, base = base, size = size, next = base }, Heap)
end

function Heap:alloc(size, align)
  local where = "heap:alloc"
  size = check_size(size, "size", where)
  align = align or 4096
  check_int(align, "align", 1, 1 << 40, where)
  if not is_pow2(align) then fail("%s: align %s is not a power of two", where, hex(align)) end
  local addr = (self.next + align - 1) & -align
  if addr + size > self.base + self.size then
    fail("%s: out of memory: %s bytes aligned to %s do not fit in %s %s..%s (%s bytes used)", where, hex(size),
         hex(align), self.ap, hex(self.base), hex(self.base + self.size), hex(self.next - self.base))
  end
  self.next = addr + size
  return addr
end

local function check_heap(h, name, where)
  if getmetatable(h) ~= Heap then fail("%s: %s must be a heap (volta.heap)", where, name) end
  return h
end

-- ------------------------------------------------------------ page tables (ver2)

local VM = {}
VM.__index = VM

local VA_LIMIT = 1 << 49 -- the ver2 format translates 49-bit VAs
local PAGES = { [4096] = 4096, [65536] = 65536, [0x200000] = 0x200000,
                ["4K"] = 4096, ["64K"] = 65536, ["2M"] = 0x200000 }

local function page_size(p, where)
  if p == nil then return 4096 end
  local s = PAGES[type(p) == "string" and p:upper() or p]
  if not s then fail('%s: page must be 4096, 65536 or 0x200000 ("4K", "64K", "2M"), not %s', where, hex(p)) end
  return s
end

-- A ver2 page-table builder: PDE3 -> PDE2 -> PDE1 -> dual PDE0 -> 64 KiB or
-- 4 KiB page table, or a 2 MiB PTE in the dual PDE0 slot. Tables come from
-- heap, zeroed (every entry invalid); what was written is also kept here, so
-- nothing is read back from memory.
function M.vm(gpu, heap, opts)
  local where = "volta.vm"
  check_gpu(gpu, where)
  check_heap(heap, "heap", where)
  local o = check_opts(opts, set("va_base"), where)
  local va_base = check_int(o.va_base or 0x100000000, "va_base", 0, VA_LIMIT - 1, where)
  -- Hopper's GMMU reads the ver3 format (gh100 dev_mmu.h, UVM uvm_hopper_mmu.c).
  local v3 = host_of(gpu, where).hopper == true
  local vm = setmetatable({ gpu = gpu, heap = heap, ap = heap.ap, next_va = va_base, mappings = {}, v3 = v3 }, VM)
  -- The PDE3 table (4 entries of 8 B) starts the tree: NV_RAMIN_PAGE_DIR_BASE is 4 KiB aligned.
  vm.root = { addr = vm:_table(4096, 4096), sub = {} }
  vm.pdb = { heap.ap, vm.root.addr }
  return vm
end

function VM:_table(size, align)
  local addr = self.heap:alloc(size, align)
  if addr + size - 1 >> APERTURES[self.ap].bits ~= 0 then
    fail("volta.vm: page table at %s is beyond the PDE address field of %s", hex(addr), self.ap)
  end
  zero(self.gpu, self.ap, addr, size)
  return addr
end

-- NV_MMU_VER2_PDE: IS_PTE 0:0 = 0, APERTURE 2:1, VOL 3:3 = 0, ADDRESS 53:8 = table >> 12.
-- NV_MMU_VER3_PDE: IS_PTE 0:0 = 0, APERTURE 2:1, PCF 5:3 = 0, ADDRESS 51:12 = table 51:12.
function VM:_pde(table_addr)
  if self.v3 then return table_addr & ~0xfff | APERTURES[self.ap].pde << 1 end
  return (table_addr >> 12) << 8 | APERTURES[self.ap].pde << 1
end

-- The directories above the dual PDE0: ver2 PDE3 48:47, PDE2 46:38, PDE1 37:29;
-- ver3 PDE4 56:56, PDE3 55:47, PDE2 46:38, PDE1 37:29.
function VM:_dirs(va)
  if self.v3 then return { (va >> 56) & 1, (va >> 47) & 0x1ff, (va >> 38) & 0x1ff, (va >> 29) & 0x1ff } end
  return { (va >> 47) & 0x3, (va >> 38) & 0x1ff, (va >> 29) & 0x1ff }
end

-- The directory under entry i of dir, made on first use.
function VM:_dir(dir, i)
  local d = dir.sub[i]
  if not d then
    d = { addr = self:_table(4096, 4096), sub = {} }
    dir.sub[i] = d
    write64(self.gpu, self.ap, dir.addr + 8 * i, self:_pde(d.addr))
  end
  return d
end

-- The dual PDE0 slot of va: { addr, big = table, small = table, huge = bool }.
function VM:_slot(va)
  local pd0 = self.root
  for _, i in ipairs(self:_dirs(va)) do pd0 = self:_dir(pd0, i) end
  local i = (va >> 21) & 0xff -- PDE0 index: VA 28:21, 16-byte dual entries
  local s = pd0.sub[i]
  if not s then
    s = { addr = pd0.addr + 16 * i }
    pd0.sub[i] = s
  end
  return s
end

-- The dual PDE0 slot of va if its directories exist (nothing is made).
function VM:_find_slot(va)
  local d = self.root
  for _, i in ipairs(self:_dirs(va)) do d = d and d.sub[i] end
  return d and d.sub[(va >> 21) & 0xff]
end

local MAP_OPTS = set("page", "priv", "ro", "vol", "atomic_disable", "kind")

-- NV_MMU_VER2_PTE: VALID 0:0, APERTURE 2:1, VOL 3:3, ENCRYPTED 4:4 (0), PRIVILEGE 5:5,
-- READ_ONLY 6:6, ATOMIC_DISABLE 7:7, ADDRESS 53:8 (SYS) / 32:8 (VID) = pa >> 12, KIND 63:56.
function M.pte(ap, pa, opts)
  local where = "volta.pte"
  local o = check_opts(opts, MAP_OPTS, where)
  local a = aperture(ap, where)
  check_int(pa, "pa", 0, (1 << a.bits) - 1, where)
  local kind = check_int(o.kind or 0, "kind", 0, 0xff, where)
  return 1 | a.target << 1 | bit(o.vol) << 3 | bit(o.priv) << 5 | bit(o.ro) << 6 | bit(o.atomic_disable) << 7 |
         (pa >> 12) << 8 | kind << 56
end

-- Maps [va, va + size) to [pa, pa + size) of aperture ap with pages of opts.page.
function VM:map(va, ap, pa, size, opts)
  local where = "vm:map"
  local o = check_opts(opts, MAP_OPTS, where)
  local page = page_size(o.page, where)
  local a, apname = aperture(ap, where)
  check_int(va, "va", 0, VA_LIMIT - 1, where)
  check_int(pa, "pa", 0, (1 << 58) - 1, where)
  size = check_size(size, "size", where)
  if va % page ~= 0 or pa % page ~= 0 or size % page ~= 0 then
    fail("%s: va %s, pa %s and size %s must be multiples of the page size %s", where, hex(va), hex(pa),
         hex(size), hex(page))
  end
  if va + size > VA_LIMIT then fail("%s: va %s + %s passes the 49-bit VA limit", where, hex(va), hex(size)) end
  if pa + size - 1 >> a.bits ~= 0 then
    fail("%s: pa %s + %s does not fit the %d-bit PTE address of %s", where, hex(pa), hex(size), a.bits, apname)
  end
  local flags = M.pte(apname, 0, { vol = o.vol, priv = o.priv, ro = o.ro, atomic_disable = o.atomic_disable,
                                   kind = o.kind })
  local shift = 8 -- ver2 PTE ADDRESS 53:8 = pa >> 12
  if self.v3 then
    -- NV_MMU_VER3_PTE: VALID 0:0, APERTURE 2:1, PCF 7:3 (UNCACHED 1, PRIVILEGE 2, READ_ONLY 4,
    -- NO_ATOMIC 8: 0 is REGULAR_RW_ATOMIC_CACHED_ACE), KIND 11:8, ADDRESS 51:12 = pa 51:12.
    if page == 0x200000 then fail("%s: 2 MiB pages are not built in the ver3 format (gh100)", where) end
    local kind = check_int(o.kind or 0, "kind", 0, 0xf, where)
    flags = 1 | a.target << 1 | (bit(o.vol) | bit(o.priv) << 1 | bit(o.ro) << 2 | bit(o.atomic_disable) << 3) << 3 |
            kind << 8
    shift = 12
  end
  -- A 2 MiB page fills a dual PDE0 slot, which then cannot point at page tables:
  -- check every slot before writing anything.
  for v = va & -0x200000, va + size - 1, 0x200000 do
    local s = self:_find_slot(v)
    if s and page == 0x200000 and (s.big or s.small) then
      fail("%s: va %s: a 2 MiB page cannot share its dual PDE0 with page tables", where, hex(v))
    elseif s and page ~= 0x200000 and s.huge then
      fail("%s: va %s: the dual PDE0 already holds a 2 MiB page", where, hex(v))
    end
  end
  local gpu, tap, pde_ap = self.gpu, self.ap, APERTURES[self.ap].pde
  for off = 0, size - page, page do
    local v = va + off
    local pte = flags | ((pa + off) >> 12) << shift
    local s = self:_slot(v)
    if page == 0x200000 then
      -- IS_PTE 0:0 = 1: the low 8 bytes of the dual PDE0 are a 2 MiB PTE; the upper half is unused.
      s.huge = true
      gpu:mem_wr32(tap, s.addr, lo32(pte), hi32(pte), 0, 0)
    else
      if page == 65536 then
        if not s.big then
          -- 32 entries of 8 B, 256-byte aligned (NV_MMU_VER2_DUAL_PDE_ADDRESS_BIG_SHIFT 8).
          -- Dual PDE bits 63:0: APERTURE_BIG 2:1, VOL_BIG 3:3 = 0, ADDRESS_BIG 53:4 (SYS) / 32:4 (VID) = pt >> 8.
          s.big = self:_table(256, 256)
          -- ver3: APERTURE_BIG 2:1, PCF_BIG 5:3 = 0, ADDRESS_BIG 51:8 = pt 51:8.
          write64(gpu, tap, s.addr, (s.big >> 8) << (self.v3 and 8 or 4) | pde_ap << 1)
        end
        write64(gpu, tap, s.big + 8 * ((v >> 16) & 0x1f), pte) -- big PT index: VA 20:16
      else
        if not s.small then
          -- Dual PDE bits 127:64: APERTURE_SMALL 66:65, VOL_SMALL 67:67 = 0,
          -- ADDRESS_SMALL 117:72 (SYS) / 96:72 (VID) = pt >> 12.
          s.small = self:_table(4096, 4096)
          -- ver3: APERTURE_SMALL 66:65, PCF_SMALL 69:67 = 0, ADDRESS_SMALL 115:76 = pt 51:12.
          write64(gpu, tap, s.addr + 8, (s.small >> 12) << (self.v3 and 12 or 8) | pde_ap << 1)
        end
        write64(gpu, tap, s.small + 8 * ((v >> 12) & 0x1ff), pte) -- small PT index: VA 20:12
      end
    end
  end
  self.mappings[#self.mappings + 1] = { va = va, size = size, ap = apname, pa = pa }
  return va
end

-- Allocates size bytes (rounded up to the page) from opts.heap (default: the
-- VM's heap), maps them at the next free VA and returns va, pa, aperture.
function VM:alloc_map(size, opts)
  local where = "vm:alloc_map"
  local o = check_opts(opts, set("page", "priv", "ro", "vol", "atomic_disable", "kind", "heap"), where)
  local page = page_size(o.page, where)
  size = check_size(size, "size", where)
  size = (size + page - 1) & -page
  local heap = o.heap and check_heap(o.heap, "heap", where) or self.heap
  local va = (self.next_va + page - 1) & -page
  local pa = heap:alloc(size, page)
  self:map(va, heap.ap, pa, size, { page = page, priv = o.priv, ro = o.ro, vol = o.vol,
                                    atomic_disable = o.atomic_disable, kind = o.kind })
  self.next_va = va + size
  return va, pa, heap.ap
end

-- What this builder mapped at va: aperture, pa, bytes left in that mapping
-- (the latest mapping wins, as its PTEs were written last); nil if none.
function VM:lookup(va)
  for i = #self.mappings, 1, -1 do
    local m = self.mappings[i]
    if va >= m.va and va < m.va + m.size then return m.ap, m.pa + (va - m.va), m.va + m.size - va end
  end
  return nil
end

local function span(vm, va, len, where, fn)
  check_int(va, "va", 0, VA_LIMIT - 1, where)
  local off = 0
  while off < len do
    local ap, pa, left = vm:lookup(va + off)
    if not ap then fail("%s: va %s is not mapped by this builder", where, hex(va + off)) end
    local n = math.min(left, len - off)
    fn(ap, pa, off, n)
    off = off + n
  end
end

-- CPU access to mapped memory by VA, through the builder's own records.
function VM:write(va, data)
  if type(data) ~= "string" then fail("vm:write: data must be a string") end
  span(self, va, #data, "vm:write", function(ap, pa, off, n)
    self.gpu:mem_write(ap, pa, data:sub(off + 1, off + n))
  end)
end

function VM:read(va, len)
  check_int(len, "len", 0, 64 << 20, "vm:read")
  local parts = {}
  span(self, va, len, "vm:read", function(ap, pa, _, n)
    parts[#parts + 1] = self.gpu:mem_read(ap, pa, n)
  end)
  return table.concat(parts)
end

function VM:wr32(va, ...)
  local parts = {}
  for i = 1, select("#", ...) do
    parts[i] = string.pack("<I4", check_u32(select(i, ...), fmt("value %d", i), "vm:wr32"))
  end
  if #parts == 0 then fail("vm:wr32: no value given") end
  self:write(va, table.concat(parts))
end

function VM:rd32(va, n)
  n = check_int(n or 1, "n", 1, 4096, "vm:rd32")
  local s = self:read(va, 4 * n)
  local out = {}
  for i = 1, n do out[i] = string.unpack("<I4", s, 4 * i - 3) end
  return table.unpack(out)
end

local function check_vm(vm, name, where)
  if getmetatable(vm) ~= VM then fail("%s: %s must be a vm (volta.vm)", where, name) end
  return vm
end

-- ------------------------------------------------------------ instance block (RAMIN + RAMFC)

local INSTANCE_OPTS = set("vm", "pdb", "chid", "userd", "gpfifo", "gpfifo_entries", "priv", "subdevice", "replay",
                          "vol", "subcontexts")

-- Writes a 4 KiB instance block at addr of aperture ap: RAMFC as nouveau
-- writes it (volta-facts.md section 3) and the memory-management state
-- (seed 000 section 2).
function M.instance(gpu, ap, addr, opts)
  local where = "volta.instance"
  check_gpu(gpu, where)
  host_of(gpu, where)
  local RAMFC = ramfc_of(gpu:chip())
  local o = check_opts(opts, INSTANCE_OPTS, where)
  local _, inst_ap = aperture(ap, where)
  check_int(addr, "addr", 0, (1 << 40) - 1, where)
  if addr & 0xfff ~= 0 then fail("%s: addr %s is not 4 KiB aligned (NV_RAMIN_BASE_SHIFT 12)", where, hex(addr)) end
  local pdb = o.pdb or (o.vm and check_vm(o.vm, "vm", where).pdb)
  if not pdb then fail("%s: give vm = a volta.vm or pdb = {aperture, address}", where) end
  local pa, _, pdb_addr = check_place(pdb, "pdb", where)
  if pdb_addr & 0xfff ~= 0 then fail("%s: pdb %s is not 4 KiB aligned", where, hex(pdb_addr)) end
  local ua, _, userd = check_place(o.userd, "userd", where)
  check_int(userd, "userd", 0, (1 << 40) - 1, where)
  if userd & 0x1ff ~= 0 then
    fail("%s: userd %s is not 512-byte aligned (NV_RAMUSERD_BASE_SHIFT 9)", where, hex(userd))
  end
  local chid = check_int(o.chid, "chid", 0, 4095, where)
  local gpfifo = check_int(o.gpfifo, "gpfifo", 0, (1 << 40) - 1, where)
  if gpfifo & 7 ~= 0 then fail("%s: gpfifo %s is not 8-byte aligned (GP_BASE OFFSET 31:3)", where, hex(gpfifo)) end
  local entries = check_int(o.gpfifo_entries, "gpfifo_entries", 1, 1 << 31, where)
  if not is_pow2(entries) then
    fail("%s: gpfifo_entries %d is not a power of two (LIMIT2 is its log2)", where, entries)
  end
  local limit2 = 0
  while 1 << limit2 < entries do limit2 = limit2 + 1 end
  local priv = o.priv ~= false
  local host = host_of(gpu, where)
  -- RM on Hopper: SUBDEVICE ID 1 (bit 0 on a single GPU, silicon H100); nouveau: 0xfff
  local subdevice = check_int(o.subdevice or (host.hopper and 1 or 0xfff), "subdevice", 0, 0xfff, where)
  local nsc = check_int(o.subcontexts or 1, "subcontexts", 0, 64, where)
  local replay = bit(o.replay)
  -- nouveau (gf100_vmm_join_) sets PAGE_DIR_BASE_VOL when the directory is in coherent system memory.
  local vol = o.vol
  if vol == nil then vol = pa.target == 2 end

  zero(gpu, inst_ap, addr, 4096) -- NV_RAMIN_ALLOC_SIZE
  local function w(off, v) gpu:mem_wr32(inst_ap, addr + off, v) end

  -- RAMFC (seed 000 section 3), the words nouveau writes, at the offsets of the RAMFC layout;
  -- fields from dev_pbdma.
  if not host.ampere then -- Ampere, Hopper: USERD is in the runlist entry only (RAMFC 2/3 reserved)
    w(RAMFC.USERD, lo32(userd) | ua.target) -- TARGET 1:0, ADDR 31:9
    w(RAMFC.USERD_HI, hi32(userd)) -- ADDR 7:0
  end
  w(RAMFC.SIGNATURE, 0x0000face) -- HW 15:0 = VALID (0xFACE), SW 31:16 = 0
  w(RAMFC.ACQUIRE, 0x7ffff902) -- RETRY_MAN 6:0 = 2, RETRY_EXP 10:7 = 2, TIMEOUT_EXP 14:11 = 15,
  --                              TIMEOUT_MAN 30:15 = 0xFFFF, TIMEOUT_EN 31 = DISABLE
  w(RAMFC.GP_BASE, lo32(gpfifo)) -- OFFSET 31:3
  if host.hopper then
    -- RM's kfifoWriteRamfcGpfifo_GH100: GP_BASE_HI OFFSET 24:0 only, GP_INFO LIMIT2 4:0.
    w(RAMFC.GP_BASE_HI, hi32(gpfifo))
    w(RAMFC.GP_INFO, limit2)
  else
    w(RAMFC.GP_BASE_HI, hi32(gpfifo) | limit2 << 16) -- OFFSET 7:0, LIMIT2 20:16 = log2(entries)
  end
  w(RAMFC.PB_HEADER, 0x20400000) -- TYPE 31:29 = INC, FIRST 22:22 = TRUE
  w(RAMFC.SUBDEVICE, 0x30000000 | subdevice) -- ID 11:0, STATUS 28:28 = ACTIVE, CHANNEL_DMA 29:29 = ENABLE
  -- TARGET: ENG_CTX_VALID 16:16 and CE_CTX_VALID 17:17, as nouveau sets them once the engine
  -- context / CE method buffer exist (volta-facts.md section 3); without them an engine method
  -- raises PBDMA INTR_1 CTXNOTVALID. `ctx_valid = false` leaves them clear.
  w(RAMFC.TARGET, o.ctx_valid == false and 0 or 0x30000)
  w(RAMFC.HCE_CTRL, priv and 0x20 or 0) -- HCE_PRIV_MODE 5:5
  -- Dwords 58 and 62 have no name in the gv100 manual (the RAMFC layout has no row for them):
  -- UNVERIFIED: nouveau writes the chid to 58 and 0x10003080 to 62 (RESERVED62 in Turing's).
  w(58 * 4, chid)
  w(RAMFC.CONFIG, 0x1000 | (priv and 0x100 or 0)) -- USERD_WRITEBACK 12:12 = ENABLE, AUTH_LEVEL 8:8
  if host.ampere then
    -- nouveau ga100_chan_ramfc_write: 0x0f8 = 0x80000000 | the runlist's non-stall vector
    -- (NV_PPBDMA_INTR_NOTIFY). UNVERIFIED: vector 0 (the model has no NV_CTRL tree).
    w(0x0f8, 0x80000000)
  else
    w(62 * 4, 0x10003080)
  end

  -- NV_RAMIN_PAGE_DIR_BASE (dword 128): TARGET 1:0, VOL 2:2, FAULT_REPLAY_TEX 4:4,
  -- FAULT_REPLAY_GCC 5:5, USE_VER2_PT_FORMAT 10:10 = TRUE, BIG_PAGE_SIZE 11:11 = 64KB,
  -- PAGE_DIR_BASE_LO 31:12; PAGE_DIR_BASE_HI is dword 129.
  local dir = (pdb_addr & 0xfffff000) | pa.target | bit(vol) << 2 | replay << 4 | replay << 5 | 1 << 10 | 1 << 11
  w(128 * 4, dir)
  w(129 * 4, hi32(pdb_addr))
  -- NV_RAMIN_SC_PAGE_DIR_BASE_*(i) at dwords 168 + 4i / 169 + 4i, same layout: the
  -- first `subcontexts` get this directory and an SC_PDB_VALID bit (dwords 166-167);
  -- the others are TARGET = INVALID ("unbinds the selected subcontext"), as nouveau does.
  local valid = 0
  for i = 0, 63 do
    if i < nsc then
      w((168 + 4 * i) * 4, dir)
      w((169 + 4 * i) * 4, hi32(pdb_addr))
      valid = valid | 1 << i
    else
      w((168 + 4 * i) * 4, 1)
    end
  end
  w(166 * 4, lo32(valid))
  w(167 * 4, hi32(valid))
end

-- ------------------------------------------------------------ GP entries

local LEVELS = { main = 0, subroutine = 1 }
local FETCHES = { unconditional = 0, conditional = 1 }
local OPCODES = { nop = 0, illegal = 1, gp_crc = 2, pb_crc = 3 }

local function enum(v, names, name, where)
  if v == nil then return 0 end
  local n = type(v) == "string" and names[v:lower()]
  if not n then
    local ks = {}
    for k in pairs(names) do ks[#ks + 1] = '"' .. k .. '"' end
    table.sort(ks)
    fail("%s: %s must be one of %s, not %s", where, name, table.concat(ks, ", "), tostring(v))
  end
  return n
end

local GP_OPTS = set("sync", "level", "priv", "fetch")

-- A GP entry for a PB segment of ndwords at va (gv100_dev_pbdma NV_PPBDMA_GP_ENTRY*, clc36f.h):
--   E0: FETCH 0:0 (UNCONDITIONAL 0 / CONDITIONAL 1), GET 31:2 = PB address 31:2
--   E1: GET_HI 7:0 = PB address 39:32, PRIV 8:8 (USER 0 / KERNEL 1), LEVEL 9:9 (MAIN 0 /
--       SUBROUTINE 1), LENGTH 30:10 (dwords), SYNC 31:31 (PROCEED 0 / WAIT 1)
function M.gp_entry(va, ndwords, opts)
  local where = "volta.gp_entry"
  local o = check_opts(opts, GP_OPTS, where)
  check_int(va, "va", 0, (1 << 40) - 1, where)
  if va & 3 ~= 0 then fail("%s: va %s is not 4-byte aligned (GET 31:2)", where, hex(va)) end
  -- LENGTH 0 would make a control entry (volta.gp_control).
  check_int(ndwords, "ndwords", 1, (1 << 21) - 1, where)
  local e0 = (va & 0xfffffffc) | enum(o.fetch, FETCHES, "fetch", where)
  local e1 = (va >> 32) & 0xff | bit(o.priv) << 8 | enum(o.level, LEVELS, "level", where) << 9 | ndwords << 10 |
             bit(o.sync) << 31
  return e0, e1
end

-- A control GP entry (LENGTH 30:10 = CONTROL 0): E0 = OPERAND 31:0,
-- E1 = OPCODE 7:0 (NOP 0, ILLEGAL 1, GP_CRC 2, PB_CRC 3) and SYNC 31:31.
function M.gp_control(opcode, operand, opts)
  local where = "volta.gp_control"
  local o = check_opts(opts, set("sync"), where)
  if type(opcode) == "string" then
    opcode = enum(opcode, OPCODES, "opcode", where)
  else
    check_int(opcode, "opcode", 0, 0xff, where)
  end
  return check_u32(operand or 0, "operand", where), opcode | bit(o.sync) << 31
end

-- ------------------------------------------------------------ channels

local Channel = {}
Channel.__index = Channel

-- NV_RAMUSERD_* (seed 000 section 4): byte offsets in a channel's 512-byte USERD, from the
-- RAMUSERD layout (nvmodel.host_layout).
local USERD = {}
do
  local l = nvmodel.host_layout("userd")
  for _, k in ipairs { "PUT", "GET", "REF", "PUT_HI", "TOP_LEVEL_GET", "TOP_LEVEL_GET_HI", "GET_HI", "GP_GET",
                       "GP_PUT" } do
    USERD[k] = l[k]
  end
end
M.USERD = USERD

local CHANNEL_OPTS = set("chid", "runq", "runlist", "tsg", "gpfifo_entries", "pb_size", "heap", "userd_heap", "priv",
                         "subdevice", "replay", "subcontexts", "bind", "enable")

-- A channel: instance block, USERD, GPFIFO ring and pushbuffer area mapped in
-- vm; RAMIN + RAMFC written; bound and enabled (unless bind / enable = false).
function M.channel(gpu, vm, opts)
  local where = "volta.channel"
  check_gpu(gpu, where)
  local host = host_of(gpu, where)
  check_vm(vm, "argument 2", where)
  local o = check_opts(opts, CHANNEL_OPTS, where)
  -- NV_PCCSR_CHANNEL__SIZE_1 4096; Ampere: NV_CHRAM_CHANNEL__SIZE_1 2048 per runlist
  local chid = check_int(o.chid, "chid", 0, (host.nchid or 4096) - 1, where)
  local runq = check_int(o.runq or 0, "runq", 0, 1, where) -- RUNQUEUE_SELECTOR is bit 1:1
  if o.runlist ~= nil then check_int(o.runlist, "runlist", 0, host.nrunlist - 1, where) end
  if o.tsg ~= nil then check_int(o.tsg, "tsg", 0, 4095, where) end
  local entries = check_int(o.gpfifo_entries or 512, "gpfifo_entries", 2, 1 << 31, where)
  if not is_pow2(entries) then fail("%s: gpfifo_entries %d is not a power of two", where, entries) end
  local pb_size = check_size(o.pb_size or 0x10000, "pb_size", where)
  if pb_size & 3 ~= 0 then fail("%s: pb_size %s is not a multiple of 4", where, hex(pb_size)) end
  local heap = o.heap and check_heap(o.heap, "heap", where) or vm.heap
  local uheap = o.userd_heap and check_heap(o.userd_heap, "userd_heap", where) or heap

  local inst = heap:alloc(4096, 4096) -- NV_RAMIN_BASE_SHIFT 12, NV_RAMIN_ALLOC_SIZE 4096
  local userd = uheap:alloc(512, 512) -- NV_RAMUSERD_CHAN_SIZE 512, NV_RAMUSERD_BASE_SHIFT 9
  zero(gpu, uheap.ap, userd, 512)
  local gp_va, gp_pa, gp_ap = vm:alloc_map(entries * 8, { heap = heap })
  local pb_va, pb_pa, pb_ap = vm:alloc_map(pb_size, { heap = heap })
  local ch = setmetatable({
    gpu = gpu, host = host, vm = vm, chid = chid, runq = runq, runlist = o.runlist, tsg = o.tsg,
    inst = { heap.ap, inst }, userd = { uheap.ap, userd },
    gpfifo = { va = gp_va, pa = gp_pa, ap = gp_ap, entries = entries },
    pb = { va = pb_va, pa = pb_pa, ap = pb_ap, size = pb_size, next = 0 },
    put = 0,
  }, Channel)
  M.instance(gpu, heap.ap, inst, { vm = vm, chid = chid, userd = ch.userd, gpfifo = gp_va, gpfifo_entries = entries,
                                   priv = o.priv, subdevice = o.subdevice, replay = o.replay,
                                   subcontexts = o.subcontexts })
  if o.bind ~= false then
    ch:bind()
    if o.enable ~= false then ch:enable() end
  end
  return ch
end

-- NV_PCCSR_CHANNEL_INST(chid) at 0x800000 + chid*8: PTR 27:0 = inst >> 12, TARGET 29:28, BIND 31:31.
function Channel:bind()
  if self.host.bind then return self.host.bind(self.gpu, self) end
  local a = APERTURES[self.inst[1]]
  self.gpu:wr32(0x800000 + 8 * self.chid, 0x80000000 | a.target << 28 | self.inst[2] >> 12)
end

-- NV_PCCSR_CHANNEL(chid) at 0x800004 + chid*8: ENABLE_SET 10:10, ENABLE_CLR 11:11.
function Channel:enable()
  if self.host.enable then return self.host.enable(self.gpu, self) end
  self.gpu:wr32(0x800004 + 8 * self.chid, 0x400)
end

function Channel:disable()
  if self.host.disable then return self.host.disable(self.gpu, self) end
  self.gpu:wr32(0x800004 + 8 * self.chid, 0x800)
end

-- A USERD word by its NV_RAMUSERD name ("GP_GET", "GET", "REF", ...).
function Channel:read_userd(field)
  local off = type(field) == "string" and USERD[field:upper()]
  if not off then
    fail("ch:read_userd: unknown field %s (PUT, GET, REF, PUT_HI, TOP_LEVEL_GET, TOP_LEVEL_GET_HI, GET_HI, " ..
         "GP_GET, GP_PUT)", tostring(field))
  end
  return self.gpu:mem_rd32(self.userd[1], self.userd[2] + off)
end

function Channel:gp_put()
  return self.put
end

-- Publishes GP_PUT and rings the doorbell, the last two submission steps of
-- gv100/tu104 dev_usermode: NV_RAMUSERD_GP_PUT (USERD + 0x8C), then the
-- generation's doorbell (HOSTS: the channel id on gv100, the handle on tu102).
function Channel:kick()
  self.gpu:mem_wr32(self.userd[1], self.userd[2] + USERD.GP_PUT, self.put)
  self.host.doorbell(self.gpu, self)
end

-- The ring is full when advancing GP_PUT would make it equal GP_GET (as
-- Host writes it back to USERD).
local function check_room(ch, where)
  local get = ch:read_userd("GP_GET")
  if (ch.put + 1) % ch.gpfifo.entries == get then
    fail("%s: GPFIFO full (%d entries, GP_GET %d, GP_PUT %d): run the GPU or give more gpfifo_entries", where,
         ch.gpfifo.entries, get, ch.put)
  end
  return get
end

-- Writes GP entry (e0, e1) at GP_PUT, advances GP_PUT and, unless
-- opts.kick == false, publishes it and rings the doorbell. Returns the index.
function Channel:push_entry(e0, e1, opts)
  local where = "ch:push_entry"
  local o = check_opts(opts, set("kick"), where)
  e0, e1 = check_u32(e0, "e0", where), check_u32(e1, "e1", where)
  check_room(self, where)
  local gp = self.gpfifo
  self.gpu:mem_wr32(gp.ap, gp.pa + 8 * self.put, e0, e1)
  local index = self.put
  self.put = (self.put + 1) % gp.entries
  if o.kick ~= false then self:kick() end
  return index
end

-- Copies a PB segment (assembler text, or a list of dwords) into the
-- pushbuffer area and submits a GP entry for it. Returns the GP index and the
-- segment's VA.
function Channel:push(pb, opts)
  local where = "ch:push"
  local o = check_opts(opts, set("sync", "level", "priv", "fetch", "kick", "format", "name"), where)
  local data
  if type(pb) == "string" then
    -- Through pcall, so that the message is the assembler's alone ("push:3: ..."),
    -- reported at the caller's line.
    local ok, r = pcall(nvmodel.pb_asm, pb, o.format, o.name or "push")
    if not ok then error(r, 0) end
    data = r
  elseif type(pb) == "table" then
    local parts = {}
    for i, v in ipairs(pb) do parts[i] = string.pack("<I4", check_u32(v, fmt("word %d", i), where)) end
    data = table.concat(parts)
  else
    fail("%s: give assembler text or a list of dwords, not %s", where, type(pb))
  end
  if #data == 0 then
    fail("%s: empty pushbuffer segment (a GP entry of LENGTH 0 is a control entry: volta.gp_control)", where)
  end
  local get = check_room(self, where)
  local area = self.pb
  if #data > area.size then
    fail("%s: %d bytes do not fit the pushbuffer area of %s bytes (pb_size)", where, #data, hex(area.size))
  end
  if area.next + #data > area.size then
    -- Start again at the beginning only once Host has processed every entry pushed so far.
    if get ~= self.put then
      fail("%s: pushbuffer area full (%s bytes) and Host has not processed the earlier segments (GP_GET %d, " ..
           "GP_PUT %d): run the GPU or give a larger pb_size", where, hex(area.size), get, self.put)
    end
    area.next = 0
  end
  local va = area.va + area.next
  local e0, e1 = M.gp_entry(va, #data // 4, { sync = o.sync, level = o.level, priv = o.priv, fetch = o.fetch })
  self.gpu:mem_write(area.ap, area.pa + area.next, data)
  area.next = area.next + #data
  return self:push_entry(e0, e1, { kick = o.kick }), va
end

-- ------------------------------------------------------------ runlists

local Runlist = {}
Runlist.__index = Runlist

-- Writes a runlist of TSGs to a 4 KiB-aligned block of heap. tsgs is a list
-- of { id = TSGID, timeout = 128, scale = 3, channel, channel, ... }; a
-- channel given alone is a TSG of one (id = its tsg or chid). A channel is a
-- volta.channel or any table with chid, runq, inst = {ap, addr}, userd = {ap, addr}.
function M.runlist(gpu, heap, tsgs)
  local where = "volta.runlist"
  check_gpu(gpu, where)
  local host = host_of(gpu, where)
  check_heap(heap, "heap", where)
  if type(tsgs) ~= "table" then fail("%s: argument 3 must be a list of TSGs", where) end
  local entries, runlist, mixed, chans = {}, nil, false, {}
  local function add(a, b, c, d) entries[#entries + 1] = string.pack("<I4I4I4I4", a, b, c, d) end
  for ti, t in ipairs(tsgs) do
    local w = fmt("%s: TSG %d", where, ti)
    if type(t) ~= "table" then fail("%s is not a table", w) end
    if t.chid ~= nil then t = { id = t.tsg or t.chid, t } end
    local id = check_int(t.id, "id", 0, 4095, w) -- TSGID 11:0
    local timeout = check_int(t.timeout or 128, "timeout", 0, 0xff, w) -- TIMESLICE_TIMEOUT 31:24, TIMEOUT_128
    local scale = check_int(t.scale or 3, "scale", 0, 0xf, w) -- TIMESLICE_SCALE 19:16, SCALE_3
    local n = #t
    if n < 1 or n > 128 then fail("%s: %d channels; TSG_LENGTH must be 1..128 (LENGTH_MIN, LENGTH_MAX)", w, n) end
    -- TSG header (NV_RAMRL_ENTRY_TSG_*): TYPE 0:0 = TSG, TIMESLICE_SCALE 19:16, TIMESLICE_TIMEOUT 31:24;
    -- dword 1 TSG_LENGTH 7:0; dword 2 TSGID 11:0; dword 3 unused.
    add(timeout << 24 | scale << 16 | 1, n, id, 0)
    for ci = 1, n do
      local ch = t[ci]
      local cw = fmt("%s channel %d", w, ci)
      if type(ch) ~= "table" then fail("%s is not a channel", cw) end
      local chid = check_int(ch.chid, "chid", 0, 4095, cw)
      local runq = check_int(ch.runq or 0, "runq", 0, 1, cw)
      local ia, _, inst = check_place(ch.inst, "inst", cw)
      local ua, _, userd = check_place(ch.userd, "userd", cw)
      if inst & 0xfff ~= 0 or userd & 0x1ff ~= 0 then
        fail("%s: inst %s must be 4 KiB and userd %s 512-byte aligned", cw, hex(inst), hex(userd))
      end
      -- Channel entry (NV_RAMRL_ENTRY_CHAN_*): TYPE 0:0 = CHAN, RUNQUEUE_SELECTOR 1:1,
      -- INST_TARGET 5:4, USERD_TARGET 7:6, USERD_PTR_LO 31:8 (USERD_PTR_ALIGN_SHIFT 8);
      -- dword 1 USERD_PTR_HI; dword 2 CHID 11:0, INST_PTR_LO 31:12; dword 3 INST_PTR_HI.
      add((userd & 0xffffff00) | ua.target << 6 | ia.target << 4 | runq << 1, hi32(userd),
          (inst & 0xfffff000) | chid, hi32(inst))
      chans[#chans + 1] = ch
      if ch.runlist ~= nil then
        if runlist ~= nil and runlist ~= ch.runlist then mixed = true end
        runlist = runlist or ch.runlist
      end
    end
  end
  if #entries > 0xffff then fail("%s: %d entries; NV_PFIFO_RUNLIST_LENGTH holds 0xffff", where, #entries) end
  -- NV_RAMRL_ENTRY_SIZE 16; the base is 4 KiB aligned (NV_RAMRL_ENTRY_BASE_SHIFT 12).
  local addr = heap:alloc(math.max(16 * #entries, 16), 4096)
  if #entries > 0 then gpu:mem_write(heap.ap, addr, table.concat(entries)) end
  return setmetatable({ gpu = gpu, host = host, ap = heap.ap, addr = addr, length = #entries, chans = chans,
                        runlist = not mixed and runlist or nil }, Runlist)
end

local function runlist_id(rl, id, where)
  if id == nil then
    id = rl.runlist
    if id == nil then fail("%s: give the runlist id (the channels name none, or different ones)", where) end
  end
  return check_int(id, "runlist id", 0, rl.host.nrunlist - 1, where) -- the generation's runlist count
end

-- Submits the runlist through the generation's registers (HOSTS.submit); the
-- channels on it remember the runlist (the tu102 doorbell handle names it).
function Runlist:submit(id)
  local where = "rl:submit"
  id = runlist_id(self, id, where)
  self.host.submit(self.gpu, id, APERTURES[self.ap].target, self.addr, self.length)
  for _, ch in ipairs(self.chans) do ch.submitted = id end
end

-- The submitted runlist has not been taken yet (HOSTS.pending: ENG_RUNLIST
-- PENDING on gv100, RUNLIST_SUBMIT_INFO PENDING on tu102).
function Runlist:pending(id)
  id = runlist_id(self, id, "rl:pending")
  return self.host.pending(self.gpu, id)
end

return M
