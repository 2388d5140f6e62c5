-- The PFIFO models' method logs (and their trace lines) name a method from
-- the class the RAMHT object carries when the pushbuffer tables have it
-- (docs/pushbuf.md "Method tables"): 502D on a G84 DMA channel, 0039 on
-- NV17; a class without a table (NV17's 3D 0x99) has no name.

local g80 = require "nvmodel.g80fifo"
local gpu = nvmodel.open{ chip = "g84", vram = "256M", sysmem = "256M" }
local f = g80.fifo(gpu)
local d = f:channel{ chid = 5, ib = false }
d:object{ handle = 0xcafe, class = 0x502d }
d:push("inc 1 0x0000 0xcafe\ninc 1 0x0200 9")
check(gpu:run{ ns = 1000000, idle = true } == "idle", "g84 DMA run")
local log = gpu:pfifo_log("pgraph")
check(#log == 2 and log[2].cls == 0x502d and log[2].name == "502D.SET_DST_FORMAT", "g84: 502D method named")
check(log[1].name == "502D.SET_OBJECT", "g84: method 0 named from the object's class")
gpu:close()

-- NV17: an M2MF object (0039) and NV17's 3D (0x99, no table)
local nv = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
local f4 = nvmodel.nv04.fifo(nv)
local pb = f4:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x10ffff }
f4:ramht_add{ chid = 1, handle = 0xd0000001, instance = f4:object(0x39) }
f4:ramht_add{ chid = 1, handle = 0xd0000002, instance = f4:object(0x99) }
local ch = f4:channel{ chid = 1, pushbuf = pb }
ch:push([[
  inc 1 0x0000 0xd0000001
  inc 1 0x030c 0x1000 0x2000
  inc 2 0x0000 0xd0000002
  inc 2 0x0304 0x1
]])
check(nv:run{ ns = 1000000, idle = true } == "idle", "nv17 run")
log = nv:pfifo_log("pgraph")
local names = {}
for i, m in ipairs(log) do
  names[i] = m.name or string.format("0x%04x:0x%04x", m.cls, m.method)
end
check(table.concat(names, " ") == "0039.SET_OBJECT 0039.OFFSET_IN 0039.OFFSET_OUT 0x0099:0x0000 0x0099:0x0304",
      "nv17: " .. table.concat(names, " "))
nv:close()
