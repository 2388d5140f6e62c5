-- An Ampere (ga100) channel built with the nvmodel.volta builder: the same
-- script as a Volta one with only the chip name changed. The builder does
-- what nouveau's ga100 code does (docs/host.md "Ampere and Hopper"): it finds
-- the runlist's register space through the device-info table (PTOP at
-- 0x22800), writes RAMFC without USERD (the runlist entry carries the
-- instance block and USERD), enables the channel in the runlist's channel RAM
-- (CHRAM = ENABLE_CHANNEL, then INTERNAL_DOORBELL), submits through
-- NV_RUNLIST_SUBMIT_BASE_LO/HI and SUBMIT, and rings
-- NV_VIRTUAL_FUNCTION_DOORBELL (BAR0 0xBB0090) with DOORBELL_CONFIG ID << 16 | CHID.
--
-- The channel copies a buffer with the copy engine (AMPERE_DMA_COPY_A C6B5,
-- as GRCOPY on subchannel 4), releases a semaphore, and the script reads the
-- Ampere registers a driver polls.

local volta = require "nvmodel.volta"

local gpu = nvmodel.open{ chip = "ga100", vram = "256M" }
local heap = volta.heap(gpu, "vram", 0x100000, "64M")
local vm = volta.vm(gpu, heap)
local src, dst, sem = vm:alloc_map(4096), vm:alloc_map(4096), vm:alloc_map(4096)
vm:write(src, string.rep("ampere! ", 512))
local ch = volta.channel(gpu, vm, { chid = 7, runlist = 0 })
local rl = volta.runlist(gpu, heap, { { id = 1, ch } })
rl:submit()
-- ga100_dev_runlist NV_RUNLIST_SUBMIT_INFO (+0x08C of the runlist's space) PENDING 15:15 until taken.
local space = volta.ampere_runlist(gpu, 0, "example")
check(rl:pending() and gpu:rd32(space.base + 0x08c) >> 15 & 1 == 1, "runlist 0 pending after its submit")
gpu:run{ ns = 10000 }
check(not rl:pending(), "runlist 0 taken")

ch:push(string.format([[
  inc 4 SET_OBJECT 0xc6b5                     # AMPERE_DMA_COPY_A on GRCOPY
  inc 4 0x400 0x%x 0x%x 0x%x 0x%x             # OFFSET_IN_UPPER/LOWER, OFFSET_OUT_UPPER/LOWER
  inc 4 0x418 4096 1                          # LINE_LENGTH_IN, LINE_COUNT
  inc 4 0x300 0x186                           # LAUNCH_DMA: NON_PIPELINED, FLUSH, PITCH in and out
  inc 0 SEM_ADDR_LO 0x%x 0x%x 0x7102 0        # Host semaphore: address, payload
  inc 0 SEM_EXECUTE 0x100001                  # RELEASE, RELEASE_WFI
]], src >> 32, src & 0xffffffff, dst >> 32, dst & 0xffffffff, sem & 0xffffffff, sem >> 32))

print("run:", gpu:run{ ns = 1000000, idle = true })
check(vm:read(dst, 4096) == vm:read(src, 4096), "the copy engine copied the buffer")
check(vm:rd32(sem) == 0x7102, "semaphore released")
local st = gpu:host_stats()
print(string.format("channel %d on runlist 0: doorbell handle 0x%x; %d doorbells, %d engine methods", ch.chid,
                    space.dbid << 16 | ch.chid, st.doorbells, st.methods))
check(gpu:host_log_total("grce") == 7, "GRCOPY got the copy's 7 methods")
