-- Two TSGs on the GR runlist, built with nvmodel.volta: channel B waits on a
-- semaphore (ACQ_STRICT_GEQ) that channel A releases; a software method on
-- subchannel 5 stops A until the script (as the driver's interrupt handler)
-- clears METHOD0 VALID and PBDMA INTR_0 DEVICE (gv100_dev_pbdma.ref).
local volta = nvmodel.volta
local gpu = nvmodel.open{ chip = "gv100", vram = "128M" }
local heap = volta.heap(gpu, "vram", 0x100000, "32M")
local vm = volta.vm(gpu, heap)
local sem = vm:alloc_map(4096)
local a = volta.channel(gpu, vm, { chid = 1 })
local b = volta.channel(gpu, vm, { chid = 2 })
volta.runlist(gpu, heap, { { id = 10, a }, { id = 20, b } }):submit(0)

local PB0 = 0x40000
gpu:wr32(PB0 + 0x10c, 0xffffffff)        -- PBDMA 0 INTR_EN_0
gpu:wr32(0x2140, 1 << 29)                -- PFIFO_INTR_EN_0 PBDMA_INTR
gpu:wr32(0x160, 1 << 8)                  -- PMC_INTR_EN_SET(0): PFIFO
local sw = {}
gpu:on("interrupt", function(ev)
  if ev.value ~= 1 then return end
  local intr = gpu:rd32(PB0 + 0x108)
  if intr & (1 << 23) ~= 0 then          -- DEVICE: a software method
    sw[#sw + 1] = { method = gpu:rd32(PB0 + 0xc0) & 0x3ffc, data = gpu:rd32(PB0 + 0xc4) }
    gpu:wr32(PB0 + 0xc0, 0)              -- METHOD0 VALID off: handled
    gpu:wr32(PB0 + 0x108, 1 << 23)       -- clear DEVICE: the PBDMA continues
  end
end)

b:push(string.format([[
  inc 0 SET_OBJECT 0xc3c0
  inc 0 SEM_ADDR_LO 0x%x 0x%x 2 0
  inc 0 SEM_EXECUTE 0x1002        # ACQ_STRICT_GEQ, ACQUIRE_SWITCH_TSG
  inc 0 0x300 0xb0b
]], sem & 0xffffffff, sem >> 32))
gpu:run{ ns = 50000, idle = true }
check(#gpu:host_log("gr") == 0, "B waits")
check(gpu:host_channel(2).status == "PENDING_ACQUIRE", "B is PENDING_ACQUIRE")

a:push(string.format([[
  inc 0 SET_OBJECT 0xc397
  inc 0 0x200 0xa0a
  inc 5 0x104 0x5005              # software method
  inc 0 SEM_ADDR_LO 0x%x 0x%x 2 0
  inc 0 SEM_EXECUTE 1             # release 2
]], sem & 0xffffffff, sem >> 32))
check(gpu:run{ ns = 1000000, idle = true } == "idle", "both finish")
local log = gpu:host_log("gr")
check(#log == 2, "two GR methods, got " .. #log)
check(log[1].chid == 1 and log[1].cls == 0xc397 and log[1].data == 0xa0a, "A first")
check(log[2].chid == 2 and log[2].cls == 0xc3c0 and log[2].data == 0xb0b, "then B, after the release")
check(#sw == 1 and sw[1].method == 0x104 and sw[1].data == 0x5005, "one software method handled")
check(vm:rd32(sem) == 2, "semaphore value")
local st = gpu:host_stats()
check(st.acquire_waits >= 1 and st.sw_methods == 1 and st.sem_releases == 1, "stats")
check(not gpu:intr(), "no interrupt left pending")
