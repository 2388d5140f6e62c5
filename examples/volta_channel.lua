-- A Volta (gv100) channel built with the nvmodel.volta builder: page tables,
-- instance block (RAMIN + RAMFC), USERD, GPFIFO ring, runlist, and one
-- pushbuffer segment that releases a semaphore. The builder writes memory
-- and registers exactly as nouveau does (docs/scenarios.md "Volta builder").
--
-- The script checks what was written, by reading it back as a driver
-- developer would when debugging (the GP entry, GP_PUT in USERD, the
-- segment's bytes seen through the channel's page tables), then runs the GPU
-- and checks the release and USERD's GP_GET.

local volta = require "nvmodel.volta"

local gpu = nvmodel.open{ chip = "gv100", vram = "256M" }
local heap = volta.heap(gpu, "vram", 0x100000, "64M")      -- where the builder puts things
local vm = volta.vm(gpu, heap)                               -- ver2 page tables
local sem = vm:alloc_map(4096)                               -- a page for the semaphore
local ch = volta.channel(gpu, vm, { chid = 0, runlist = 0 }) -- RAMIN, RAMFC, USERD, ring; bound, enabled
volta.runlist(gpu, heap, { { id = 0, ch } }):submit()        -- one TSG of one channel on runlist 0

-- Host methods of class C36F: the semaphore address and payload, then a
-- release (SEM_EXECUTE OPERATION 2:0 = RELEASE, RELEASE_WFI 20:20 = EN).
local index, va = ch:push(string.format([[
  inc 0 SEM_ADDR_LO 0x%x 0x%x 0xcafe 0    # SEM_ADDR_LO, SEM_ADDR_HI, SEM_PAYLOAD_LO, SEM_PAYLOAD_HI
  inc 0 SEM_EXECUTE 0x100001
]], sem & 0xffffffff, sem >> 32))

print(string.format("channel %d: instance block vram 0x%x, USERD vram 0x%x, GPFIFO at VA 0x%x (%d entries)",
                    ch.chid, ch.inst[2], ch.userd[2], ch.gpfifo.va, ch.gpfifo.entries))
local e0, e1 = gpu:mem_rd32(ch.gpfifo.ap, ch.gpfifo.pa, 2)
print(string.format("GP entry %d: 0x%08x 0x%08x -> %d dwords at VA 0x%x; GP_PUT %d", index, e0, e1,
                    (e1 >> 10) & 0x1fffff, va, ch:read_userd("GP_PUT")))

-- GP_ENTRY0 GET 31:2 and GP_ENTRY1 GET_HI 7:0, LENGTH 30:10 (gv100_dev_pbdma.ref.txt).
check((e1 & 0xff) << 32 | (e0 & 0xfffffffc) == va and (e1 >> 10) & 0x1fffff == 7, "GP entry points at the segment")
check(ch:read_userd("GP_PUT") == 1, "GP_PUT published in USERD")
local r = gpu:mmu_translate{ inst = ch.inst, va = va }
check(r.fault == nil and r.pa == ch.pb.pa, "the segment's VA translates through the channel's instance block")
check(vm:read(va, 28) == nvmodel.pb_asm(string.format("inc 0 0x5c 0x%x 0x%x 0xcafe 0\ninc 0 0x6c 0x100001",
                                                      sem & 0xffffffff, sem >> 32)),
      "segment bytes in memory")

-- Let the GPU run: the Host fetches the GP entry and the segment through the
-- channel's page tables and executes the release.
print("run:", gpu:run{ ns = 100000, idle = true })
print(string.format("semaphore: 0x%x", vm:rd32(sem)))
check(vm:rd32(sem) == 0xcafe, "semaphore released")
check(ch:read_userd("GP_GET") == ch:read_userd("GP_PUT"), "USERD GP_GET caught up with GP_PUT")
