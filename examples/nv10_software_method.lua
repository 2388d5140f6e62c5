-- A software method serviced from Lua (seed 001, envytools puller.rst):
-- an object of the SOFTWARE engine makes every method on its subchannel
-- raise CACHE_ERROR; the driver's interrupt handler reads the method from
-- CACHE1 at GET, executes it, steps GET over it and lets the puller go on
-- (what nouveau's nv04_fifo_cache_error / nv04_fifo_swmthd do).
-- Run: nvmodel run examples/nv10_software_method.lua

local nv04 = nvmodel.nv04
local gpu = nvmodel.open{ chip = "nv10", vram = "16M", sysmem = "16M" }
local f = nv04.fifo(gpu)
local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x10ffff }
local sw = f:object(0x506e) -- nouveau's software class
local gr = f:object(0x56)   -- NV10_3D
f:ramht_add{ chid = 0, handle = 0x5000, instance = sw, engine = "software" }
f:ramht_add{ chid = 0, handle = 0x3000, instance = gr, engine = "pgraph" }
local ch = f:channel{ chid = 0, pushbuf = pb }
ch:push([[
  inc 1 0x0000 0x5000      # bind the software object on subchannel 1
  inc 0 0x0000 0x3000      # and NV10_3D on subchannel 0
  inc 0 0x0300 0x11
  inc 1 0x0500 0xabcd      # a software method: the fence the driver tracks
  inc 0 0x0304 0x22
]])

local fence = nil
local function cache_error_handler()
  local get = gpu:rd32(0x3270)
  local mthd, data = gpu:rd32(0x3800 + get * 2), gpu:rd32(0x3804 + get * 2)
  local subc, m = (mthd >> 13) & 7, mthd & 0x1ffc
  if m == 0 then
    -- binding: the engine of the subchannel becomes SOFTWARE (nouveau sets it)
    local engine = gpu:rd32(0x3280) & ~(0xf << (subc * 4))
    gpu:wr32(0x3280, engine)
    print(string.format("  sw: bind subchannel %d (instance 0x%x)", subc, (gpu:rd32(0x3258) & 0xffff) << 4))
  else
    print(string.format("  sw: method 0x%04x data 0x%x", m, data))
    fence = data
  end
  gpu:wr32(0x3270, get + 4) -- step over the entry
  gpu:wr32(0x3250, 1)       -- PULL0 ACCESS, error status cleared
  gpu:wr32(0x2100, 1)       -- acknowledge CACHE_ERROR: the puller goes on
end

local rounds = 0
while true do
  gpu:run{ ns = 1000000, idle = true }
  if gpu:rd32(0x2100) & 1 == 0 then break end
  rounds = rounds + 1
  cache_error_handler()
end
check(rounds == 2 and fence == 0xabcd, "two software methods serviced")
local log = gpu:pfifo_log("pgraph")
check(#log == 3 and log[3].method == 0x304, "PGRAPH got its methods around them")
print(string.format("serviced %d CACHE_ERRORs; fence 0x%x; PGRAPH got %d methods", rounds, fence, #log))
