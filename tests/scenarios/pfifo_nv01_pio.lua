-- NV01 PIO through nvmodel.nv03 (envytools hwtest/pfifo.cc; nv1-vram.rst
-- PRAM CONFIG 0: RAMHT 4 KiB at 0, RAMRO 0x1000, RAMFC 0x1800). UNVERIFIED
-- RAMHT format (NV3's: docs/pfifo.md): what matters here is the PIO side.
local nv03 = nvmodel.nv03
local gpu = nvmodel.open{ chip = "nv01", vram = "4M", sysmem = "1M" }
local f = nv03.fifo(gpu)

local rop = f:context{ type = 0x42, flags = 0x0003 }        -- UROP 0x420000, PGRAPH
local sw = f:context{ type = 0x10, engine = "software" }
f:ramht_add{ chid = 5, handle = 0x1000, context = rop }
f:ramht_add{ chid = 5, handle = 0x2000, context = sw }
check(f:free(5, 0) == 0x7c, "empty CACHE1: any channel reads 0x7c")
f:pio(5, 0, 0, 0x1000)                 -- a channel switch to 5, then the bind
check(gpu:rd32(0x3210) == 5, "CACHE1 switched to channel 5")
f:pio(5, 0, 0x304, 7)
gpu:run{ ns = 100000, idle = true }
local log = gpu:pfifo_log("pgraph")
check(#log == 2 and log[1].ctx == rop and log[2].method == 0x304, "bind and method reached PGRAPH")

-- the free-count lie: CONFIG FREE_LIE 1 and CTX[0] bit 24
gpu:wr32(0x2200, 1)
gpu:wr32(0x3280, gpu:rd32(0x3280) | 1 << 24)
check(f:free(5, 0) == 0xfc, "FREE lies: 0xfc")

-- a SOFTWARE object: CACHE_ERROR DEVICE_SOFTWARE
f:pio(5, 1, 0, 0x2000)
gpu:run{ ns = 100000, idle = true }
check(gpu:rd32(0x3240) == 0x101 and gpu:rd32(0x2100) & 1 == 1, "software object")
check(#gpu:pfifo_log("software") == 1, "the software engine got the bind")

-- a 16-bit store is ILLEGAL_ACCESS, the data in its byte lanes (E-hw)
gpu:wr32(0x2100, 0xffffffff)
gpu:pfifo_user_write(0x850302, 0xbeef, 2)
local e = f:runout_entry(0)
check(e.reason == "ILLEGAL_ACCESS" and e.data == 0xbeef0000 and e.chid == 5, "16-bit store runs out")
check(gpu:rd32(0x650000) == 0x00050302, "RAMRO word 0: the USER offset with its low bits")

-- the builder's errors name the function
local other = nvmodel.open{ chip = "nv04", vram = "16M", sysmem = "1M" }
local ok, err = pcall(nv03.fifo, other)
check(not ok and tostring(err):find("fifo: chip nv04 is not nv01, nv03 or nv03t", 1, true), tostring(err))
ok, err = pcall(f.context, f, { type = 0x10, engine = "pgraph" })
check(not ok and tostring(err):find("bit 6 is the engine", 1, true), tostring(err))
ok, err = pcall(f.ramht_add, f, { chid = 200, handle = 1, context = 0 })
check(not ok and tostring(err):find("ramht_add", 1, true), tostring(err))
-- a bucket of a 4 KiB RAMHT holds two entries
f:ramht_add{ chid = 9, handle = 0x100, context = rop }
f:ramht_add{ chid = 9, handle = 0x10000, context = rop }
ok, err = pcall(f.ramht_add, f, { chid = 9, handle = 0x1000000, context = rop })
check(not ok and tostring(err):find("is full", 1, true), tostring(err))
-- nv01 has no RAMIN BAR
ok, err = pcall(gpu.pfifo_ramin_bar_read, gpu, 0)
check(not ok and tostring(err):find("no RAMIN BAR", 1, true), tostring(err))
