-- Two IB-mode channels on a G84, set up as nouveau's g84 fifo code does
-- (nvmodel.g80fifo, the pushbuffers mapped in each channel's VM): each
-- binds a PGRAPH object, sends methods (one of them as an IB entry
-- straight into a data buffer, with the long
-- non-increasing form), and they hand over a semaphore: channel 2 waits
-- for channel 1's long-semaphore release (SEMAPHORE_TRIGGER ACQUIRE_GEQUAL
-- / WRITE_LONG). Run with --trace to see the G80 pusher (ib_entry,
-- dma_fetch) and puller (pgraph, acquire_wait, release) at work.
local g80 = nvmodel.g80fifo
local gpu = nvmodel.open{ chip = "g84", vram = "256M", sysmem = "256M" }
local f = g80.fifo(gpu)
local a = f:channel{ chid = 1, vm = true }
local b = f:channel{ chid = 2, vm = true }
for _, ch in ipairs{ a, b } do
  ch:object{ handle = 0xbeef, class = 0x5097 }
  ch:dmaobj{ handle = 0x5e3, target = "vram", base = 0xe00000, limit = 0xe00fff }
end
gpu:mem_wr32("vram", 0xe00000, 0)

-- channel 2: wait until the semaphore is >= 1, then draw
b:push[[
  inc 0 0x0000 0xbeef
  inc 0 0x0060 0x5e3
  inc 0 0x0010 0 0 1 4
  inc 0 0x0300 0x22
]]
check(gpu:run{ ns = 1000000, idle = true } == "idle", "channel 2 runs")
check(gpu:rd32(0x3254) & 0x10 ~= 0, "channel 2 waits on the semaphore (PULL1 ACQUIRE_ACTIVE)")

-- channel 1: a header in the main buffer, its data in another buffer
-- (NOT_MAIN), then the release
local hdr = a:write(nvmodel.pb_words("inc 0 0x0000 0xbeef\ninc 0 0x0060 0x5e3", "old", "hdr"))
a:ib_entry(hdr, 4, false)
local lng = a:write{ 0x00030000 | 0x400, 3 }
a:ib_entry(lng, 2, false)
local data = a:write{ 7, 8, 9 }
a:ib_entry(data, 3, true)
local rel = a:write(nvmodel.pb_words("inc 0 0x0010 0 0 1 2", "old", "rel"))
a:ib_entry(rel, 5, false)
a:kick()

check(gpu:run{ ns = 10000000, idle = true } == "idle", "run")
local log = gpu:pfifo_log("pgraph")
check(#log == 6, "6 PGRAPH methods, got " .. #log)
check(log[#log].chid == 2 and log[#log].method == 0x300, "channel 2 draws last")
check(gpu:mem_rd32("vram", 0xe00000) == 1, "the long semaphore holds the sequence")
print(string.format("%d PGRAPH methods; channel 2's IB_GET %d", #log, b:ib_get()))
