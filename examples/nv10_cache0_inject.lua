-- A software method emulated through CACHE0 (seed 001: CACHE0 "can be used
-- for quick manual injection of single commands, for example for software
-- method emulation"). The channel's pushbuffer has a software method; while
-- CACHE1's puller waits on it (CACHE_ERROR), the driver's handler emulates
-- it by injecting a PGRAPH method through CACHE0's one slot (METHOD, DATA,
-- PUT), then steps CACHE1 over the software method.
-- Run: nvmodel run examples/nv10_cache0_inject.lua

local nv04 = nvmodel.nv04
local gpu = nvmodel.open{ chip = "nv10", vram = "16M", sysmem = "16M" }
local f = nv04.fifo(gpu)
local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x10ffff }
local sw = f:object(0x506e)
local gr = f:object(0x56)
f:ramht_add{ chid = 0, handle = 0x5000, instance = sw, engine = "software" }
f:ramht_add{ chid = 0, handle = 0x3000, instance = gr, engine = "pgraph" }
local ch = f:channel{ chid = 0, pushbuf = pb }
ch:push([[
  inc 1 0x0000 0x5000      # the software object on subchannel 1
  inc 0 0x0000 0x3000      # NV10_3D on subchannel 0
  inc 1 0x0500 0x21        # software method: "set PGRAPH 0x0310 to twice this"
  inc 0 0x0304 0x22
]])

-- CACHE0 registers (rnndb fifo/nv4_pfifo.xml array CACHE0)
local C0_PUSH1, C0_PUT, C0_STATUS, C0_PULL0 = 0x3004, 0x3010, 0x3014, 0x3050
local C0_GET, C0_ENGINE, C0_METHOD, C0_DATA = 0x3070, 0x3080, 0x3100, 0x3104

local function inject(subc, m, data)
  gpu:wr32(C0_METHOD, subc << 13 | m)
  gpu:wr32(C0_DATA, data)
  gpu:wr32(C0_PUT, gpu:rd32(C0_GET) ~ 4) -- the one slot is full while PUT ~= GET
end

local emulated = 0
local function cache_error_handler()
  local get = gpu:rd32(0x3270)
  local mthd, data = gpu:rd32(0x3800 + get * 2), gpu:rd32(0x3804 + get * 2)
  local subc, m = (mthd >> 13) & 7, mthd & 0x1ffc
  if m == 0 then
    gpu:wr32(0x3280, gpu:rd32(0x3280) & ~(0xf << (subc * 4))) -- subchannel -> SOFTWARE
  else
    -- emulate: one PGRAPH method on subchannel 0 through CACHE0, while
    -- CACHE_ERROR is still pending
    gpu:wr32(C0_PUSH1, gpu:rd32(0x3204) & 0x1f) -- CACHE0's channel: CACHE1's
    gpu:wr32(C0_ENGINE, 1)                       -- subchannel 0: PGRAPH
    gpu:wr32(C0_PULL0, 1)
    inject(0, 0x310, data * 2)
    gpu:run{ ns = 10000, idle = true }
    check(gpu:rd32(C0_STATUS) & 0x10 ~= 0, "CACHE0 emptied by its puller")
    emulated = emulated + 1
  end
  gpu:wr32(0x3270, get + 4)
  gpu:wr32(0x3250, 1)
  gpu:wr32(0x2100, 1)
end

for _ = 1, 10 do
  gpu:run{ ns = 1000000, idle = true }
  if gpu:rd32(0x2100) & 1 == 0 then break end
  cache_error_handler()
end
check(emulated == 1, "the software method was emulated")
local log = gpu:pfifo_log("pgraph")
check(#log == 3 and log[2].method == 0x310 and log[2].data == 0x42 and log[3].method == 0x304,
      "PGRAPH got the injected method between the channel's own")
for _, e in ipairs(log) do
  print(string.format("  PGRAPH t=%d ns channel %d subchannel %d method 0x%04x data 0x%x", e.time_ns, e.chid,
                      e.subch, e.method, e.data))
end
