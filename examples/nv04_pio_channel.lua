-- An NV04 PIO channel (seed 001 "The pusher"): the driver pokes methods
-- straight into the channel's USER area (BAR0 0x800000 + chid * 0x10000 +
-- subchannel * 0x2000 + method); PFIFO puts them in CACHE1 and the puller
-- binds the object through RAMHT (method 0) and hands the rest to PGRAPH.
-- Run: nvmodel run examples/nv04_pio_channel.lua [--trace pio.json]

local nv04 = nvmodel.nv04
local gpu = nvmodel.open{ chip = "nv04", vram = "16M", sysmem = "16M" }
local f = nv04.fifo(gpu)

-- An NV4 "IMAGE_BLIT" object (class 0x5f) and a DMA object for its notifier
local blit = f:object(0x5f)
local notify = f:dmaobj{ class = 0x3d, target = "pci", start = 0x20000, limit = 0x20fff }
f:ramht_add{ chid = 3, handle = 0x1000005f, instance = blit, engine = "pgraph" }
f:ramht_add{ chid = 3, handle = 0x10000011, instance = notify.inst, engine = "software" }

local user = 0x800000 + 3 * 0x10000
print(string.format("free count before: 0x%x bytes", gpu:rd32(user + 0x10)))
f:pio(3, 1, 0x0000, 0x1000005f) -- OBJECT: bind the blit on subchannel 1
f:pio(3, 1, 0x0180, 0x10000011) -- a handle method: PGRAPH gets the DMA object's instance
f:pio(3, 1, 0x0300, 0x00100010) -- POINT_IN
f:pio(3, 1, 0x0304, 0x00200020) -- POINT_OUT
f:pio(3, 1, 0x0308, 0x00400040) -- SIZE
print(string.format("free count with 5 entries queued: 0x%x bytes", gpu:rd32(user + 0x10)))

print("run:", gpu:run{ ns = 100000, idle = true })
for _, m in ipairs(gpu:pfifo_log("pgraph")) do
  print(string.format("  t=%4d ns  ch %d subch %d class 0x%04x  method 0x%04x  data 0x%08x", m.time_ns, m.chid,
                      m.subch, m.cls, m.method, m.data))
end
local log = gpu:pfifo_log("pgraph")
check(#log == 5, "five methods reached PGRAPH")
check(log[2].data == notify.inst >> 4, "0x180 got the instance, not the handle")
check(gpu:rd32(user + 0x10) == 0x7c, "CACHE1 empty again: 31 entries free")
