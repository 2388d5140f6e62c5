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
-- A thin wrapper over the library's set-up helpers (include/nvmodel/setup.h,
-- src/setup/, reached through nvmodel._setup): they write the page tables,
-- instance blocks, USERD, GP entries and runlists and poke the generation's
-- registers exactly as a driver would, from the layout tables the model
-- reads. This module keeps the script-facing objects and their argument
-- checks and messages; it holds no format or register of its own.
-- Where things go in memory (heaps, order, the default VA, sizes) is the
-- helpers' choice, not a hardware fact (docs/fidelity.md, "setup/host").
--
-- Errors name the function and are raised without a position; the scenario
-- runner puts the caller's file:line in front. A copy of this file works as
-- an ordinary module: it needs only the global `nvmodel` (pb_asm, _setup).

local nvmodel = nvmodel
local fmt = string.format

local M = {}

local U = nvmodel.util
local fail, check_int = U.fail, U.check_int

local hex = U.hex

local C = nvmodel._setup

-- A helper's error the builder has no words of its own for (nil, name, text from
-- nvmodel._setup), raised at the builder's line that called it.
local function c_error(where, text)
  error(fmt("%s: %s", where, text), 2)
end


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

-- What a driver writes differently per Host generation (the runlist submit
-- registers, the doorbell, channel enable) is a row of the helpers' table
-- (src/setup/host.c): a script changes only the chip name.
local KNOWN = "ga100, ga102, gh100, gv100, tu102"

-- The helpers' row of gpu's chip ({ name, nrunlist, nchid, ramfc_userd, chram,
-- subdevice }); runs the generation's once-per-GPU writes the first time.
local HOSTINFO = setmetatable({}, { __mode = "k" })
local function host_of(gpu, where)
  local h = HOSTINFO[gpu]
  if h then return h end
  h = C.host(gpu)
  if not h then fail("%s: chip %s has no Host this builder knows (%s)", where, gpu:chip(), KNOWN) end
  HOSTINFO[gpu] = h
  C.host_init(gpu)
  return h
end

-- Ampere and Hopper: runlist `id`'s register space as a driver finds it through
-- the device-info table (nvm_runlist_space_get): { base, chram, dbid }.
local function ampere_runlist(gpu, id, where)
  local base, chram, dbid = C.runlist_space(gpu, id)
  if not base then fail("%s: runlist %d: the device-info table publishes %d runlists", where, id, chram) end
  return { base = base, chram = chram, dbid = dbid }
end
M.ampere_runlist = ampere_runlist

-- ------------------------------------------------------------ apertures

-- The memory apertures a builder object may live in: target is the encoding
-- of RAMIN / RAMRL / PTE targets (0 VID_MEM, 2 SYS_MEM_COHERENT, 3
-- SYS_MEM_NONCOHERENT); bits the address width of the PTE ADDRESS field.
local APERTURES = {
  vram = { target = 0, bits = 37 },
  sysmem = { target = 2, bits = 58 },
  sysmem_coh = { target = 2, bits = 58 },
  sysmem_ncoh = { target = 3, bits = 58 },
}
local AP_NAME = { [0] = "vram", [2] = "sysmem_coh", [3] = "sysmem_ncoh" }

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

-- ------------------------------------------------------------ heap

local Heap = {}
-- heap.next: the first free byte, as the helpers' heap keeps it.
Heap.__index = function(h, k)
  if k == "next" then return (select(3, C.heap_state(rawget(h, "c")))) end
  return Heap[k]
end

-- A bump allocator over [base, base + size) of an aperture (nvm_heap).
function M.heap(gpu, ap, base, size)
  local where = "volta.heap"
  check_gpu(gpu, where)
  local a, name = aperture(ap, where)
  check_int(base, "base", 0, (1 << 58) - 1, where)
  size = check_size(size, "size", where)
  return setmetatable({ gpu = gpu, ap = name, base = base, size = size, c = C.heap_new(a.target, base, size) }, Heap)
end

local function heap_fits(h, size, align)
  local base, hsize, nxt = C.heap_state(h.c)
  return ((nxt + align - 1) & -align) + size <= base + hsize
end

local function heap_full(h, where, size, align)
  local base, hsize, nxt = C.heap_state(h.c)
  if size then
    fail("%s: out of memory: %s bytes aligned to %s do not fit in %s %s..%s (%s bytes used)", where, hex(size),
         hex(align), h.ap, hex(base), hex(base + hsize), hex(nxt - base))
  end
  fail("%s: out of memory: %s %s..%s is full (%s bytes used)", where, h.ap, hex(base), hex(base + hsize),
       hex(nxt - base))
end

function Heap:alloc(size, align)
  local where = "heap:alloc"
  size = check_size(size, "size", where)
  align = align or 4096
  check_int(align, "align", 1, 1 << 40, where)
  if not is_pow2(align) then fail("%s: align %s is not a power of two", where, hex(align)) end
  local addr = C.heap_alloc(self.c, size, align)
  if not addr then heap_full(self, where, size, align) end
  return addr
end

local function check_heap(h, name, where)
  if getmetatable(h) ~= Heap then fail("%s: %s must be a heap (volta.heap)", where, name) end
  return h
end

-- ------------------------------------------------------------ page tables

local VM = {}
VM.__index = VM

local VA_LIMIT = 1 << 49 -- NVM_GMMU_VA_LIMIT
local PAGES = { [4096] = 4096, [65536] = 65536, [0x200000] = 0x200000,
                ["4K"] = 4096, ["64K"] = 65536, ["2M"] = 0x200000 }

local function page_size(p, where)
  if p == nil then return 4096 end
  local s = PAGES[type(p) == "string" and p:upper() or p]
  if not s then fail('%s: page must be 4096, 65536 or 0x200000 ("4K", "64K", "2M"), not %s', where, hex(p)) end
  return s
end

-- A page-table builder (nvm_gmmu_vm) in the format of gpu's GMMU: ver2, or
-- ver3 on Hopper. Tables come from heap, zeroed.
function M.vm(gpu, heap, opts)
  local where = "volta.vm"
  check_gpu(gpu, where)
  check_heap(heap, "heap", where)
  local o = check_opts(opts, set("va_base"), where)
  local va_base = check_int(o.va_base or 0x100000000, "va_base", 0, VA_LIMIT - 1, where)
  host_of(gpu, where)
  local c, target, pdb, v3 = C.vm_new(gpu, heap.c, va_base)
  if not c then
    if target == "full" then heap_full(heap, "heap:alloc", 4096, 4096) end
    c_error(where, pdb)
  end
  return setmetatable({ gpu = gpu, heap = heap, ap = heap.ap, c = c, v3 = v3, pdb = { heap.ap, pdb } }, VM)
end

local MAP_OPTS = set("page", "priv", "ro", "vol", "atomic_disable", "kind")

-- The ver2 PTE of pa in aperture ap (nvm_gmmu_pte_ver2).
function M.pte(ap, pa, opts)
  local where = "volta.pte"
  local o = check_opts(opts, MAP_OPTS, where)
  local a = aperture(ap, where)
  check_int(pa, "pa", 0, (1 << a.bits) - 1, where)
  check_int(o.kind or 0, "kind", 0, 0xff, where)
  return C.vm_pte(a.target, pa, { kind = o.kind, vol = o.vol, priv = o.priv, ro = o.ro,
                                  atomic_disable = o.atomic_disable })
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
  check_int(o.kind or 0, "kind", 0, 0xff, where)
  if self.v3 then
    if page == 0x200000 then fail("%s: 2 MiB pages are not built in the ver3 format (gh100)", where) end
    check_int(o.kind or 0, "kind", 0, 0xf, where)
  end
  local bad = C.vm_conflict(self.c, va, size, page)
  if bad and page == 0x200000 then
    fail("%s: va %s: a 2 MiB page cannot share its dual PDE0 with page tables", where, hex(bad))
  elseif bad then
    fail("%s: va %s: the dual PDE0 already holds a 2 MiB page", where, hex(bad))
  end
  local ok, err, text = C.vm_map(self.gpu, self.c, va, a.target, pa, size,
                                 { page = page, priv = o.priv, ro = o.ro, vol = o.vol,
                                   atomic_disable = o.atomic_disable, kind = o.kind })
  if not ok then
    if err == "full" then heap_full(self.heap, where) end
    c_error(where, text)
  end
  return va
end

-- Allocates size bytes (rounded up to the page) from opts.heap (default: the
-- VM's heap), maps them at the next free VA and returns va, pa, aperture.
function VM:alloc_map(size, opts)
  local where = "vm:alloc_map"
  local o = check_opts(opts, set("page", "priv", "ro", "vol", "atomic_disable", "kind", "heap"), where)
  local page = page_size(o.page, where)
  size = check_size(size, "size", where)
  local heap = o.heap and check_heap(o.heap, "heap", where) or self.heap
  local rsize = (size + page - 1) & -page
  if not heap_fits(heap, rsize, page) then heap_full(heap, "heap:alloc", rsize, page) end
  -- what vm:map checks
  check_int(o.kind or 0, "kind", 0, self.v3 and 0xf or 0xff, "vm:map")
  if self.v3 and page == 0x200000 then fail("vm:map: 2 MiB pages are not built in the ver3 format (gh100)") end
  local va, pa, text = C.vm_alloc_map(self.gpu, self.c, heap.c, size,
                                      { page = page, priv = o.priv, ro = o.ro, vol = o.vol,
                                        atomic_disable = o.atomic_disable, kind = o.kind })
  if not va then
    if pa == "full" then heap_full(self.heap, where) end
    c_error(where, text)
  end
  return va, pa, heap.ap
end

-- What this builder mapped at va: aperture, pa, bytes left in that mapping
-- (the latest mapping wins, as its PTEs were written last); nil if none.
function VM:lookup(va)
  local t, pa, left = C.vm_lookup(self.c, va)
  if not t then return nil end
  return AP_NAME[t], pa, left
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

-- Writes a 4 KiB instance block at addr of aperture ap (nvm_instance_write):
-- RAMFC as nouveau writes it and the memory-management state.
function M.instance(gpu, ap, addr, opts)
  local where = "volta.instance"
  check_gpu(gpu, where)
  host_of(gpu, where)
  local o = check_opts(opts, INSTANCE_OPTS, where)
  local ia = aperture(ap, where)
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
  if o.subdevice ~= nil then check_int(o.subdevice, "subdevice", 0, 0xfff, where) end
  check_int(o.subcontexts or 1, "subcontexts", 0, 64, where)
  C.instance(gpu, ia.target, addr, { pdb_target = pa.target, pdb = pdb_addr, userd_target = ua.target,
                                     userd = userd, gpfifo = gpfifo, gpfifo_entries = entries, chid = chid,
                                     priv = o.priv ~= false, subdevice = o.subdevice, replay = o.replay,
                                     vol = o.vol, subcontexts = o.subcontexts })
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

-- A GP entry for a PB segment of ndwords at va (nvm_gp_entry).
function M.gp_entry(va, ndwords, opts)
  local where = "volta.gp_entry"
  local o = check_opts(opts, GP_OPTS, where)
  check_int(va, "va", 0, (1 << 40) - 1, where)
  if va & 3 ~= 0 then fail("%s: va %s is not 4-byte aligned (GET 31:2)", where, hex(va)) end
  -- LENGTH 0 would make a control entry (volta.gp_control).
  check_int(ndwords, "ndwords", 1, (1 << 21) - 1, where)
  return C.gp_entry(va, ndwords, enum(o.fetch, FETCHES, "fetch", where), o.priv,
                    enum(o.level, LEVELS, "level", where), o.sync)
end

-- A control GP entry (nvm_gp_control): opcode NOP, ILLEGAL, GP_CRC, PB_CRC.
function M.gp_control(opcode, operand, opts)
  local where = "volta.gp_control"
  local o = check_opts(opts, set("sync"), where)
  if type(opcode) == "string" then
    opcode = enum(opcode, OPCODES, "opcode", where)
  else
    check_int(opcode, "opcode", 0, 0xff, where)
  end
  return C.gp_control(opcode, check_u32(operand or 0, "operand", where), o.sync)
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

-- The Lua view of the helpers' channel after a call that moved it.
local function sync(ch)
  local s = C.channel_state(ch.c)
  ch.put, ch.pb.next = s.put, s.pb_next
end

-- A channel (nvm_channel_create): instance block, USERD, GPFIFO ring and
-- pushbuffer area mapped in vm; RAMIN + RAMFC written; bound and enabled
-- (unless bind / enable = false).
function M.channel(gpu, vm, opts)
  local where = "volta.channel"
  check_gpu(gpu, where)
  local host = host_of(gpu, where)
  check_vm(vm, "argument 2", where)
  local o = check_opts(opts, CHANNEL_OPTS, where)
  local chid = check_int(o.chid, "chid", 0, host.nchid - 1, where)
  local runq = check_int(o.runq or 0, "runq", 0, 1, where) -- RUNQUEUE_SELECTOR is bit 1:1
  if o.runlist ~= nil then check_int(o.runlist, "runlist", 0, host.nrunlist - 1, where) end
  if o.tsg ~= nil then check_int(o.tsg, "tsg", 0, 4095, where) end
  local entries = check_int(o.gpfifo_entries or 512, "gpfifo_entries", 2, 1 << 31, where)
  if not is_pow2(entries) then fail("%s: gpfifo_entries %d is not a power of two", where, entries) end
  local pb_size = check_size(o.pb_size or 0x10000, "pb_size", where)
  if pb_size & 3 ~= 0 then fail("%s: pb_size %s is not a multiple of 4", where, hex(pb_size)) end
  local heap = o.heap and check_heap(o.heap, "heap", where) or vm.heap
  local uheap = o.userd_heap and check_heap(o.userd_heap, "userd_heap", where) or heap
  if o.subdevice ~= nil then check_int(o.subdevice, "subdevice", 0, 0xfff, where) end
  check_int(o.subcontexts or 1, "subcontexts", 0, 64, where)

  local c, err, text = C.channel_new(gpu, vm.c, heap.c, uheap.c, {
    chid = chid, runq = runq, runlist = o.runlist, gpfifo_entries = entries, pb_size = pb_size, priv = o.priv ~= false,
    subdevice = o.subdevice, replay = o.replay, subcontexts = o.subcontexts })
  if not c then
    if err == "full" then heap_full(heap, where) end
    c_error(where, text)
  end
  local s = C.channel_state(c)
  local ch = setmetatable({
    gpu = gpu, host = host, vm = vm, chid = chid, runq = runq, runlist = o.runlist, tsg = o.tsg, c = c,
    inst = { heap.ap, s.inst }, userd = { uheap.ap, s.userd },
    gpfifo = { va = s.gpfifo_va, pa = s.gpfifo_pa, ap = heap.ap, entries = entries },
    pb = { va = s.pb_va, pa = s.pb_pa, ap = heap.ap, size = pb_size, next = 0 },
    put = 0,
  }, Channel)
  if o.bind ~= false then
    ch:bind()
    if o.enable ~= false then ch:enable() end
  end
  return ch
end

-- Bind (PCCSR CHANNEL_INST; nothing on Ampere), enable and disable through the
-- generation's registers (nvm_channel_bind / _enable / _disable).
function Channel:bind() C.channel_bind(self.gpu, self.c) end
function Channel:enable() C.channel_enable(self.gpu, self.c) end
function Channel:disable() C.channel_disable(self.gpu, self.c) end

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

-- Publishes GP_PUT in USERD and rings the generation's doorbell (nvm_channel_kick).
function Channel:kick()
  C.channel_kick(self.gpu, self.c)
end

local function ring_full(ch, where)
  fail("%s: GPFIFO full (%d entries, GP_GET %d, GP_PUT %d): run the GPU or give more gpfifo_entries", where,
       ch.gpfifo.entries, ch:read_userd("GP_GET"), ch.put)
end

-- Writes GP entry (e0, e1) at GP_PUT, advances GP_PUT and, unless
-- opts.kick == false, publishes it and rings the doorbell. Returns the index.
function Channel:push_entry(e0, e1, opts)
  local where = "ch:push_entry"
  local o = check_opts(opts, set("kick"), where)
  e0, e1 = check_u32(e0, "e0", where), check_u32(e1, "e1", where)
  local index, err, text = C.channel_push_entry(self.gpu, self.c, e0, e1, o.kick ~= false)
  if not index then
    if err == "full" then ring_full(self, where) end
    c_error(where, text)
  end
  sync(self)
  return index
end

-- Copies a PB segment (assembler text, or a list of dwords) into the
-- pushbuffer area and submits a GP entry for it (nvm_channel_push). Returns
-- the GP index and the segment's VA.
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
  local gpo = { fetch = enum(o.fetch, FETCHES, "fetch", where), level = enum(o.level, LEVELS, "level", where),
                priv = o.priv, sync = o.sync }
  local index, va, text = C.channel_push(self.gpu, self.c, data, gpo, o.kick ~= false)
  if not index then
    local area = self.pb
    if va == "range" and #data > area.size then
      fail("%s: %d bytes do not fit the pushbuffer area of %s bytes (pb_size)", where, #data, hex(area.size))
    elseif va == "full" and (self.put + 1) % self.gpfifo.entries == self:read_userd("GP_GET") then
      ring_full(self, where)
    elseif va == "full" then
      fail("%s: pushbuffer area full (%s bytes) and Host has not processed the earlier segments (GP_GET %d, " ..
           "GP_PUT %d): run the GPU or give a larger pb_size", where, hex(area.size), self:read_userd("GP_GET"),
           self.put)
    end
    c_error(where, text)
  end
  sync(self)
  return index, va
end

-- ------------------------------------------------------------ runlists

local Runlist = {}
Runlist.__index = Runlist

-- Writes a runlist of TSGs to a 4 KiB-aligned block of heap (nvm_runlist_write).
-- tsgs is a list of { id = TSGID, timeout = 128, scale = 3, channel, channel, ... };
-- a channel given alone is a TSG of one (id = its tsg or chid). A channel is a
-- volta.channel or any table with chid, runq, inst = {ap, addr}, userd = {ap, addr}.
function M.runlist(gpu, heap, tsgs)
  local where = "volta.runlist"
  check_gpu(gpu, where)
  local host = host_of(gpu, where)
  check_heap(heap, "heap", where)
  if type(tsgs) ~= "table" then fail("%s: argument 3 must be a list of TSGs", where) end
  local entries, n, runlist, mixed, chans = {}, 0, nil, false, {}
  local function add(...)
    local k = #entries
    for i = 1, 7 do entries[k + i] = select(i, ...) end
    n = n + 1
  end
  for ti, t in ipairs(tsgs) do
    local w = fmt("%s: TSG %d", where, ti)
    if type(t) ~= "table" then fail("%s is not a table", w) end
    if t.chid ~= nil then t = { id = t.tsg or t.chid, t } end
    local id = check_int(t.id, "id", 0, 4095, w) -- TSGID 11:0
    local timeout = check_int(t.timeout or 128, "timeout", 0, 0xff, w) -- TIMESLICE_TIMEOUT 31:24, TIMEOUT_128
    local scale = check_int(t.scale or 3, "scale", 0, 0xf, w) -- TIMESLICE_SCALE 19:16, SCALE_3
    local nch = #t
    if nch < 1 or nch > 128 then fail("%s: %d channels; TSG_LENGTH must be 1..128 (LENGTH_MIN, LENGTH_MAX)", w, nch) end
    add(1, id, nch, timeout, scale, 0, 0)
    for ci = 1, nch do
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
      add(0, chid, runq, ia.target, inst, ua.target, userd)
      chans[#chans + 1] = ch
      if ch.runlist ~= nil then
        if runlist ~= nil and runlist ~= ch.runlist then mixed = true end
        runlist = runlist or ch.runlist
      end
    end
  end
  if n > 0xffff then fail("%s: %d entries; NV_PFIFO_RUNLIST_LENGTH holds 0xffff", where, n) end
  local addr, err, text = C.runlist_write(gpu, heap.c, entries)
  if not addr then
    if err == "full" then heap_full(heap, "heap:alloc", math.max(16 * n, 16), 4096) end
    c_error(where, text)
  end
  return setmetatable({ gpu = gpu, host = host, ap = heap.ap, addr = addr, length = n, chans = chans,
                        runlist = not mixed and runlist or nil }, Runlist)
end

local function runlist_id(rl, id, where)
  if id == nil then
    id = rl.runlist
    if id == nil then fail("%s: give the runlist id (the channels name none, or different ones)", where) end
  end
  return check_int(id, "runlist id", 0, rl.host.nrunlist - 1, where) -- the generation's runlist count
end

-- Submits the runlist through the generation's registers (nvm_runlist_submit);
-- the channels on it remember the runlist (the tu102 doorbell handle names it).
function Runlist:submit(id)
  local where = "rl:submit"
  id = runlist_id(self, id, where)
  local ok, err, text = C.runlist_submit(self.gpu, id, APERTURES[self.ap].target, self.addr, self.length)
  if not ok then
    if err == "range" then fail("%s: runlist at %s is beyond the 40-bit runlist pointer", where, hex(self.addr)) end
    if err == "noent" then ampere_runlist(self.gpu, id, where) end
    c_error(where, text)
  end
  for _, ch in ipairs(self.chans) do
    ch.submitted = id
    if getmetatable(ch) == Channel then C.channel_set(ch.c, id) end
  end
end

-- The submitted runlist has not been taken yet (nvm_runlist_pending).
function Runlist:pending(id)
  id = runlist_id(self, id, "rl:pending")
  return C.runlist_pending(self.gpu, id)
end

return M
