-- nvmodel demo: the embedded default scenario (`nvmodel demo`).
--
-- Opens a GPU, identifies it through PMC_BOOT_0, writes and reads its memory
-- apertures, then arms the PTIMER alarm and lets virtual time run until the
-- alarm raises the PMC interrupt line, and acknowledges it as a driver would.
-- Run it with another chip: nvmodel demo --chip nv40

local NV_PMC_BOOT_0        = 0x000000
local NV_PMC_INTR_0        = 0x000100
local NV_PMC_INTR_EN_0     = 0x000140 -- NV04..G80: bit 0 enables hardware interrupts
local NV_PMC_INTR_EN_SET_0 = 0x000160 -- GV100: set bits of the enable mask
local NV_PTIMER_INTR_0     = 0x009100
local NV_PTIMER_INTR_EN_0  = 0x009140
local NV_PTIMER_TIME_0     = 0x009400
local NV_PTIMER_TIME_1     = 0x009410
local NV_PTIMER_ALARM_0    = 0x009420
local PMC_INTR_PTIMER      = 1 << 20

-- Memory sized from the chip: 256 MiB of VRAM and 1 GiB of system memory, or
-- what the chip has if that is less (nv04 has 16 MiB of VRAM).
local info = nvmodel.chip_info(nvmodel.default_chip)
local gpu = nvmodel.open{ vram = math.min(256 << 20, info.vram_max), sysmem = math.min(1 << 30, info.sysmem_max) }
print(string.format("chip %s: PMC_BOOT_0 = 0x%08x", gpu:chip(), gpu:rd32(NV_PMC_BOOT_0)))

-- Memory: sparse apertures, little-endian words.
gpu:mem_wr32("vram", 0x1000, 0xcafe0001, 0xcafe0002)
gpu:mem_write("sysmem", 0x2000, "nvmodel")
local a, b = gpu:mem_rd32("vram", 0x1000, 2)
print(string.format("vram[0x1000] = 0x%08x 0x%08x; sysmem[0x2000] = %q", a, b,
                    gpu:mem_read("sysmem", 0x2000, 7)))
print(string.format("untouched vram reads 0x%08x; pages allocated: vram %d, sysmem %d",
                    gpu:mem_rd32("vram", gpu:mem_size("vram") - 0x1000), gpu:mem_pages("vram"), gpu:mem_pages("sysmem")))
check(a == 0xcafe0001 and b == 0xcafe0002, "memory round trip")

-- Time: PTIMER counts virtual nanoseconds in TIME_0 31:5 and TIME_1 28:0.
local function ptimer()
  return (gpu:rd32(NV_PTIMER_TIME_1) << 32) | gpu:rd32(NV_PTIMER_TIME_0)
end
gpu:run{ ns = 1000 }
print(string.format("after run{ns=1000}: time %d ns, PTIMER %d ns", gpu:time_ns(), ptimer()))

-- Interrupts: the alarm fires when TIME_0 31:5 reaches ALARM_0.
gpu:on("interrupt", function(ev)
  print(string.format("  t=%d ns  %s", ev.time_ns, ev.message))
end)
gpu:wr32(NV_PTIMER_INTR_EN_0, 1)
if gpu:chip() == "gv100" then
  gpu:wr32(NV_PMC_INTR_EN_SET_0, PMC_INTR_PTIMER)
else
  gpu:wr32(NV_PMC_INTR_EN_0, 1)
end
local alarm = gpu:rd32(NV_PTIMER_TIME_0) + 5000
gpu:wr32(NV_PTIMER_ALARM_0, alarm)
print(string.format("alarm armed for TIME_0 = %d; running 10 us", alarm))
local status = gpu:run{ ns = 10000 }
local intr = gpu:rd32(NV_PMC_INTR_0)
print(string.format("run: %s; PMC_INTR_0 = 0x%08x, PTIMER_INTR_0 = 0x%x", status, intr,
                    gpu:rd32(NV_PTIMER_INTR_0)))
check(intr & PMC_INTR_PTIMER ~= 0, "PTIMER interrupt pending in PMC")
check(gpu:intr(), "interrupt line asserted")

-- Acknowledge: PTIMER_INTR_0 is write-1-to-clear.
gpu:wr32(NV_PTIMER_INTR_0, 1)
check(not gpu:intr(), "interrupt line released")
print(string.format("acknowledged; line %s; done at %d ns", gpu:intr() and "high" or "low", gpu:time_ns()))
