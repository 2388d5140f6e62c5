-- NV40/NV41 from Lua: the RAMIN BAR (nouveau's nv40 instmem aperture) next
-- to the PRAMIN window, the PMPEG/PME/PVP1 engine logs (rnndb
-- nv4_pfifo_engine), the stats fields, and the errors on chips without them.

local nv04 = nvmodel.nv04
local fmt = string.format

for _, chip in ipairs{ "nv40", "nv41" } do
  local gpu = nvmodel.open{ chip = chip, vram = "16M", sysmem = "16M" }
  local f = nv04.fifo(gpu)
  gpu:pfifo_ramin_bar_write(0x10000 - 16, 0x12345678)
  check(gpu:rd32(0x700000 + 0x10000 - 16) == 0x12345678, chip .. " BAR write seen through PRAMIN")
  gpu:wr32(0x700000 + 0x40, 0xabcdef01)
  check(gpu:pfifo_ramin_bar_read(0x40) == 0xabcdef01, chip .. " PRAMIN write seen through the BAR")
  gpu:pfifo_ramin_bar_write(0x300000, 7) -- beyond PRAMIN's 1 MiB
  check(gpu:pfifo_ramin_bar_read(0x300000) == 7, chip .. " beyond 1 MiB")
  local ok, err = pcall(gpu.pfifo_ramin_bar_read, gpu, 0xfffffc + 0) -- last word of 16 MiB VRAM: fine
  check(ok, chip .. " last word: " .. tostring(err))

  local pb = f:dmaobj{ class = 0x3d, target = "pci", start = 0x100000, limit = 0x10ffff }
  local gr = f:object(0x4097)
  local me = f:object(0x3174)
  f:ramht_add{ chid = 0, handle = 0x3000, instance = gr, engine = "pgraph" }
  f:ramht_add{ chid = 0, handle = 0x3100, instance = me, engine = chip == "nv41" and "pvp1" or "pme" }
  local ch = f:channel{ chid = 0, pushbuf = pb }
  ch:push([[
    inc 0 0x0000 0x3000
    inc 3 0x0000 0x3100
    inc 3 0x0400 0x11 0x22
    inc 0 0x0300 0x33
  ]])
  check(gpu:run{ ns = 1000000, idle = true } == "idle", chip .. " run")
  local other = chip == "nv41" and "pvp1" or "pme"
  local log = gpu:pfifo_log(other)
  check(#log == 3 and log[3].data == 0x22 and log[3].cls == 0x3174, fmt("%s %s log (%d)", chip, other, #log))
  check(#gpu:pfifo_log("pgraph") == 2, chip .. " pgraph log")
  check(log[2].time_ns < log[3].time_ns, chip .. " each method its own time")
  local st = gpu:pfifo_stats()
  check(st.acquire_timeouts == 0 and st.dma_pte_faults == 0, chip .. " stats fields")
  if chip == "nv40" then
    local ok2, e2 = pcall(gpu.pfifo_log, gpu, "pvp1")
    check(not ok2 and e2:find("unknown engine"), "nv40 has no PVP1: " .. tostring(e2))
  end
end

local gpu = nvmodel.open{ chip = "nv17", vram = "16M", sysmem = "16M" }
local ok, err = pcall(gpu.pfifo_ramin_bar_read, gpu, 0)
check(not ok and err:find("no RAMIN BAR"), "nv17: " .. tostring(err))
