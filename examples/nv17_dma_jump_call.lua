-- An NV17 DMA channel (envytools dma-pusher.rst "NV4-style mode"): a ring
-- pushbuffer read through its DMA object, with a jump back to the start, a
-- call into a subroutine and the return from it (NV1A+), and REF_CNT to
-- see progress from the CPU.
-- Run: nvmodel run examples/nv17_dma_jump_call.lua [--trace dma.json]

local nv04 = nvmodel.nv04
local gpu = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
local f = nv04.fifo(gpu)

local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x10ffff }
local celsius = f:object(0x99) -- NV17_3D
f:ramht_add{ chid = 1, handle = 0xd0000001, instance = celsius }
local ch = f:channel{ chid = 1, pushbuf = pb }

-- A subroutine at 0x8000, called from the main ring.
ch:write(0x8000, [[
  .format old
  inc 7 0x0300 0x5
  return
]])

ch:push([[
  inc 7 0x0000 0xd0000001   # bind NV17_3D on subchannel 7
  inc 7 0x0304 0x1 0x2
  call 0x8000
  inc 7 0x0050 0x1          # REF_CNT 1
]])
print("run:", gpu:run{ ns = 1000000, idle = true }, string.format("REF = %d", ch:ref()))
check(ch:ref() == 1, "REF_CNT reached")

-- Near the end of the ring: jump back to the start and go on from there.
ch:push("jump 0x0")
ch.put = 0
ch:push([[
  ninc 7 0x0400 0xa 0xb 0xc  # non-increasing (NV10+)
  inc 7 0x0050 0x2
]])
print("run:", gpu:run{ ns = 1000000, idle = true }, string.format("REF = %d, DMA_GET = 0x%x", ch:ref(), ch:get()))
check(ch:ref() == 2, "the jump went back to the start")

local log = gpu:pfifo_log("pgraph")
for _, m in ipairs(log) do
  print(string.format("  ch %d subch %d class 0x%04x  method 0x%04x  data 0x%x", m.chid, m.subch, m.cls, m.method,
                      m.data))
end
check(#log == 7 and log[4].method == 0x300 and log[4].data == 5, "the subroutine ran between the calls")
check(gpu:rd32(0x2100) == 0, "no PFIFO interrupt")
