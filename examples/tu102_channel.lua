-- A Turing (tu102) channel built with the nvmodel.volta builder: the same
-- script as a Volta one with only the chip name changed. The builder writes
-- what nouveau's tu102 code writes (docs/scenarios.md "Volta builder",
-- docs/host.md "Turing"): RAMIN and RAMFC as on gv100, the runlist through
-- the per-runlist NV_PFIFO_RUNLIST_BASE_LO/HI and SUBMIT(i) at 0x2B00 + 16i,
-- and the doorbell as a handle RUNLIST_ID << 16 | CHID written to
-- NV_VIRTUAL_FUNCTION_DOORBELL (BAR0 0xBB0090) once NV_CTRL_VIRTUAL_CHANNEL_CFG
-- PENDING_ENABLE is set.
--
-- The channel copies a buffer with the copy engine (TURING_DMA_COPY_A C5B5,
-- as GRCOPY on subchannel 4), releases a semaphore, and the script reads the
-- Turing registers a driver polls.

local volta = require "nvmodel.volta"

local gpu = nvmodel.open{ chip = "tu102", vram = "256M" }
local heap = volta.heap(gpu, "vram", 0x100000, "64M")
local vm = volta.vm(gpu, heap)
local src, dst, sem = vm:alloc_map(4096), vm:alloc_map(4096), vm:alloc_map(4096)
vm:write(src, string.rep("turing! ", 512))
local ch = volta.channel(gpu, vm, { chid = 7, runlist = 0 })
local rl = volta.runlist(gpu, heap, { { id = 1, ch } })
rl:submit()
-- tu104 dev_fifo NV_PFIFO_RUNLIST_SUBMIT_INFO(0) PENDING 15:15 until the runlist is taken.
check(rl:pending() and gpu:rd32(0x2b0c) >> 15 & 1 == 1, "runlist 0 pending after its submit")
gpu:run{ ns = 10000 }
check(not rl:pending(), "runlist 0 taken")

ch:push(string.format([[
  inc 4 SET_OBJECT 0xc5b5                     # TURING_DMA_COPY_A on GRCOPY
  inc 4 0x400 0x%x 0x%x 0x%x 0x%x             # OFFSET_IN_UPPER/LOWER, OFFSET_OUT_UPPER/LOWER
  inc 4 0x418 4096 1                          # LINE_LENGTH_IN, LINE_COUNT
  inc 4 0x300 0x186                           # LAUNCH_DMA: NON_PIPELINED, FLUSH, PITCH in and out
  inc 0 SEM_ADDR_LO 0x%x 0x%x 0x7102 0        # C46F semaphore: address, payload
  inc 0 SEM_EXECUTE 0x100001                  # RELEASE, RELEASE_WFI
]], src >> 32, src & 0xffffffff, dst >> 32, dst & 0xffffffff, sem & 0xffffffff, sem >> 32))

print("run:", gpu:run{ ns = 1000000, idle = true })
check(vm:read(dst, 4096) == vm:read(src, 4096), "the copy engine copied the buffer")
check(vm:rd32(sem) == 0x7102, "semaphore released")
local st = gpu:host_stats()
print(string.format("channel %d on runlist 0: doorbell handle 0x%x; %d doorbells, %d engine methods", ch.chid,
                    0 << 16 | ch.chid, st.doorbells, st.methods))
check(gpu:host_log_total("grce") == 7, "GRCOPY got the copy's 7 methods")
