-- Seed 001's PIO race: several applications read the free count of an
-- empty CACHE1 (0x7c), all send that many methods; the first store switches
-- CACHE1 to its channel and the others' stores land in RAMRO with RUNOUT,
-- and with enough of them RAMRO overflows (RUNOUT_OVERFLOW): "You lost."
-- Run: nvmodel run examples/nv04_pio_race.lua

local nv04 = nvmodel.nv04
local gpu = nvmodel.open{ chip = "nv04", vram = "16M", sysmem = "16M" }
local f = nv04.fifo(gpu)
local gr = f:object(0x5f)
for app = 0, 3 do f:ramht_add{ chid = app, handle = 0x100 + app, instance = gr } end

local free = {}
for app = 0, 3 do
  free[app] = gpu:rd32(0x800000 + app * 0x10000 + 0x10)
  print(string.format("app %d: free count 0x%x", app, free[app]))
end
for app = 0, 3 do
  for i = 1, free[app] // 4 do f:pio(app, 0, 0x0400, app << 16 | i) end
end

local intr = gpu:rd32(0x2100)
local s = gpu:pfifo_stats()
print(string.format("PFIFO_INTR 0x%08x: RUNOUT %s, RUNOUT_OVERFLOW %s; %d stores in RAMRO, %d lost",
                    intr, intr & 0x10 ~= 0, intr & 0x100 ~= 0, s.ramro_entries, s.ramro_overflows))
check(intr & 0x110 == 0x110, "RUNOUT and RUNOUT_OVERFLOW")
check(s.pio_writes == 31 and s.ramro_entries == 63 and s.ramro_overflows == 30, "31 queued, 63 ran out, 30 lost")

-- The first RAMRO entry (docs/pfifo.md "RAMRO"): channel 1, reason NO_CACHE_AVAILABLE.
local w0, w1 = gpu:rd32(0x700000 + 0x18800), gpu:rd32(0x700000 + 0x18804)
print(string.format("RAMRO[0]: 0x%08x 0x%08x (chid %d, method 0x%x, reason %d)", w0, w1, (w0 >> 16) & 0x1f,
                    w0 & 0x1fff, w0 >> 28))
check((w0 >> 16) & 0x1f == 1 and w0 >> 28 == 1, "app 1's first store ran out")
