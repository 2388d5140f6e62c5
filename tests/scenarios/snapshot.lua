-- Save states in a scenario (gpu:snapshot / gpu:restore; docs/embedding.md
-- "Snapshots"): a Volta channel blocked on a semaphore acquire is saved,
-- restored into a second GPU, and both are released by the same driver
-- write: they end in the same state (their snapshots are the same bytes),
-- the released semaphore and the methods after the acquire in both.
-- Refused snapshots (damaged, another chip) are errors that change nothing,
-- and a snapshot cannot be taken from inside a callback.

local volta = require "nvmodel.volta"

local function open() return nvmodel.open{ chip = "gv100", vram = "64M", sysmem = "16M" } end

local a = open()
local heap = volta.heap(a, "vram", 0x100000, "32M")
local vm = volta.vm(a, heap)
local sem = vm:alloc_map(4096)
local ch = volta.channel(a, vm, { chid = 0, runlist = 0 })
volta.runlist(a, heap, { { id = 0, ch } }):submit()
local sem_pa = a:mmu_translate{ inst = ch.inst, va = sem }.pa

-- SEM_EXECUTE OPERATION 2:0: 0 ACQUIRE (payload 1 at sem, which holds 0), 1 RELEASE
-- of 0xcafe at sem + 16, with RELEASE_WFI 20:20.
ch:push(string.format([[
  inc 0 SEM_ADDR_LO 0x%x 0x%x 1 0
  inc 0 SEM_EXECUTE 0x0
  inc 0 SEM_ADDR_LO 0x%x 0x%x 0xcafe 0
  inc 0 SEM_EXECUTE 0x100001
]], sem & 0xffffffff, sem >> 32, (sem + 16) & 0xffffffff, (sem + 16) >> 32))
a:run{ ns = 200000 }
check(a:mem_rd32("vram", sem_pa + 16) == 0, "the channel waits on the acquire")

local s = a:snapshot()
local b = open()
b:restore(s)
check(b:snapshot() == s, "the restored GPU saves to the same bytes")
check(b:time_ns() == a:time_ns(), "virtual time restored")

-- A refused snapshot changes nothing.
local bad = s:sub(1, 100) .. string.char(s:byte(101) ~ 0x40) .. s:sub(102)
local ok, err = pcall(function() b:restore(bad) end)
check(not ok and tostring(err):find("snapshot truncated or corrupted", 1, true), "damage is refused: " .. tostring(err))
ok, err = pcall(function() b:restore(s:sub(1, #s - 1)) end)
check(not ok and tostring(err):find("snapshot truncated or corrupted", 1, true), "truncation is refused")
local t = nvmodel.open{ chip = "tu102", vram = "64M", sysmem = "16M" }
ok, err = pcall(function() t:restore(s) end)
check(not ok and tostring(err):find("unknown chip", 1, true), "another chip is refused: " .. tostring(err))
check(b:snapshot() == s, "refused snapshots left the GPU as it was")

-- The same driver write releases both.
for _, g in ipairs{ a, b } do
  g:mem_wr32("vram", sem_pa, 1)
  g:run{ ns = 200000, idle = true }
  check(g:mem_rd32("vram", sem_pa + 16) == 0xcafe, "released after the acquire")
end
check(a:snapshot() == b:snapshot(), "both end in the same state")

-- Inside a callback the model is in the middle of an event.
local inside
b:on("unmodelled", function() inside = { pcall(function() return b:snapshot() end) } end)
b:rd32(0xfff000)
check(inside and not inside[1] and tostring(inside[2]):find("not allowed inside a library call", 1, true),
      "no snapshot from inside a callback")
print("snapshots: ok")
