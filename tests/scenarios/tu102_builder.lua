-- The nvmodel.volta builder on tu102: the register writes of its tu102 row
-- (volta.HOSTS.tu102), checked from the BAR0 writes the GPU sees, against
-- tu104 dev_fifo (NV_PFIFO_RUNLIST_BASE_LO/HI, SUBMIT, SUBMIT_INFO at
-- 0x2B00 + 16i), dev_vm (NV_VIRTUAL_FUNCTION_DOORBELL, BAR0 0xBB0090),
-- dev_usermode (the handle RUNLIST_ID 22:16 | CHID 11:0) and dev_ctrl
-- (NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE 31:31 at 0xB65000); and
-- the error for a chip the builder has no row for.
local volta = nvmodel.volta
local fmt = string.format

local gpu = nvmodel.open{ chip = "tu102", vram = "256M" }
local writes = {}
gpu:on("mmio", function(ev) writes[#writes + 1] = { addr = ev.addr, value = ev.value } end)
local function take()
  local w = writes
  writes = {}
  return w
end
local function has(w, addr, value)
  for _, x in ipairs(w) do
    if x.addr == addr and (value == nil or x.value == value) then return true end
  end
  return false
end

local heap = volta.heap(gpu, "vram", 0x100000, "64M")
local vm = volta.vm(gpu, heap)
local ch = volta.channel(gpu, vm, { chid = 12, runlist = 2 })
local w = take()
check(has(w, 0xb65000) and gpu:rd32(0xb65000) >> 31 == 1, "init: VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE set")
check(has(w, 0x800000 + 8 * 12) and has(w, 0x800004 + 8 * 12, 0x400), "PCCSR bind and ENABLE_SET as on gv100")
local ch2 = volta.channel(gpu, vm, { chid = 13, runlist = 2 })
check(not has(take(), 0xb65000), "init runs once per GPU")

local rl = volta.runlist(gpu, heap, { { id = 4, ch, ch2 } })
rl:submit()
w = take()
local base = 0x2b00 + 16 * 2
check(has(w, base, rl.addr & 0xfffff000) and has(w, base + 4, rl.addr >> 32) and has(w, base + 8, 3),
      "RUNLIST_BASE_LO(2) = addr | TARGET VID_MEM, BASE_HI(2), SUBMIT(2) = 3 entries")
check(not has(w, 0x2270) and not has(w, 0x2274), "no gv100 submit registers")
check(rl:pending() and gpu:rd32(base + 12) >> 15 & 1 == 1, "SUBMIT_INFO(2) PENDING")
gpu:run{ ns = 100000 }
check(not rl:pending(), "taken")

local sem = vm:alloc_map(4096)
ch:push(fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 0x1 0\ninc 0 SEM_EXECUTE 0x1", sem & 0xffffffff, sem >> 32))
w = take()
check(has(w, 0xbb0090, 2 << 16 | 12), "doorbell: RUNLIST_ID 2 << 16 | CHID 12 at 0xBB0090")
check(gpu:run{ ns = 100000, idle = true } == "idle" and vm:rd32(sem) == 1, "the release ran")

-- A channel without a runlist, submitted on runlist 3: the handle names runlist 3.
local ch3 = volta.channel(gpu, vm, { chid = 20 })
volta.runlist(gpu, heap, { ch3 }):submit(3)
take()
ch3:push(fmt("inc 0 SEM_ADDR_LO 0x%x 0x%x 0x2 0\ninc 0 SEM_EXECUTE 0x1", sem & 0xffffffff, sem >> 32))
check(has(take(), 0xbb0090, 3 << 16 | 20), "the handle names the runlist the channel was submitted on")
gpu:run{ ns = 100000, idle = true }
check(vm:rd32(sem) == 2, "ch3's release ran")

local ok, err = pcall(volta.channel, gpu, vm, { chid = 21, runlist = 11 })
check(not ok and tostring(err):find("runlist = 0xb out of range [0x0, 0xa]", 1, true), "runlist ids 0..10 on tu102: " .. tostring(err))

local nv40 = nvmodel.open{ chip = "nv40" }
ok, err = pcall(volta.channel, nv40, vm, { chid = 0 })
check(not ok and tostring(err):find("chip nv40 has no Host this builder knows (ga100, ga102, gh100, gv100, tu102)", 1, true),
      "a chip without a row: " .. tostring(err))
