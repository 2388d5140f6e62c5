-- The scenario API of docs/scenarios.md, every function once, with checks.

check(type(nvmodel.version) == "string", "nvmodel.version")
local names = nvmodel.chips()
check(#names >= 18 and names[1] == "nv01" and names[14] == "gv100" and names[15] == "tu102" and names[16] == "ga100",
      "chip list: nv01 first; gv100, tu102, then Ampere and Hopper")

-- open: default chip, sizes as numbers or strings.
local gpu = nvmodel.open{ vram = "64M", sysmem = 1 << 30 }
check(gpu:chip() == "gv100", "default chip")
check(gpu:rd32(0) == 0x140000a1, "PMC_BOOT_0 of gv100")
check(gpu:reg_name(0x9400) == "NV_PTIMER_TIME_0", "register names")

-- Registers: wr32/rd32 through the register tables.
gpu:wr32(0x160, 1 << 20)
check(gpu:rd32(0x140) == 1 << 20, "PMC_INTR_EN_SET sets the enable mask")

-- Memory: words, bytes, counts, bounds.
gpu:mem_wr32("vram", 0x100, 1, 2, 3)
local a, b, c = gpu:mem_rd32("vram", 0x100, 3)
check(a == 1 and b == 2 and c == 3, "mem_wr32 / mem_rd32 with a count")
gpu:mem_write("sysmem", 0x3ffffffc, "\1\2\3\4")
check(gpu:mem_read("sysmem", 0x3ffffffc, 4) == "\1\2\3\4", "last word of sysmem")
check(gpu:mem_rd32("sysmem", 0x3ffffffc) == 0x04030201, "little-endian")
local ok, err = pcall(gpu.mem_write, gpu, "sysmem", 0x3ffffffd, "\1\2\3\4")
check(not ok and err:find("out of range"), "write past the end fails: " .. tostring(err))
ok, err = pcall(gpu.mem_rd32, gpu, "vram", 2)
check(not ok and err:find("misaligned"), "misaligned rd32 fails")
ok, err = pcall(gpu.mem_read, gpu, "flash", 0, 4)
check(not ok and err:find("unknown aperture"), "unknown aperture")
ok, err = pcall(gpu.wr32, gpu, 0x1000000, 0)
check(not ok and err:find("out of range"), "BAR0 is 16 MiB")
ok, err = pcall(gpu.wr32, gpu, 0x100, 1 << 40)
check(not ok and err:find("32 bits"), "values are 32-bit")
check(gpu:mem_pages("vram") == 1 and gpu:mem_pages("sysmem") == 1, "sparse: one page each")

-- Events: on() sees unmodelled accesses and interrupts with their fields.
local seen = {}
gpu:on("unmodelled", function(ev) seen[#seen + 1] = ev end)
check(gpu:rd32(0x123400) == 0, "unknown register reads 0")
check(#seen == 1 and seen[1].code == "unknown_reg_read" and seen[1].addr == 0x123400, "event fields")
check(gpu:event_count("unmodelled") == 1, "event_count")

-- Time: run{ns}, run{ns, idle}, time_ns.
check(gpu:run{ ns = 500 } == "budget", "run returns budget")
check(gpu:time_ns() == 500, "time advanced")
check(gpu:run{ ns = 1000000, idle = true } == "idle", "idle stops at once")
check(gpu:time_ns() == 500, "idle did not advance time")
check(gpu:idle(), "idle()")
check(gpu:run(250) == "budget" and gpu:time_ns() == 750, "run(N) shorthand")

local irq = {}
gpu:on("interrupt", function(ev) irq[#irq + 1] = ev.value end)
gpu:wr32(0x9140, 1)
gpu:wr32(0x9420, 2048)
gpu:run{ ns = 2000 }
check(#irq == 1 and irq[1] == 1 and gpu:intr(), "PTIMER alarm raises the line")

-- Bad arguments to open name the limits.
ok, err = pcall(nvmodel.open, { chip = "nv04", vram = "1G" })
check(not ok and err:find("larger than the chip has") and err:find("vram up to 0x1000000"),
      "NV04 VRAM limit: " .. tostring(err))
local nv04 = nvmodel.chip_info("nv04")
check(nv04.family == "NV04" and nv04.vram_max == 16 << 20 and nv04.boot_0 == 0x20004000, "chip_info")
check(nvmodel.chip_info("nv40").family == "NV40" and nvmodel.chip_info("nv17").family == "NV10", "families")
check(nvmodel.chip_info("nv99") == nil, "chip_info of an unknown chip")
local small = nvmodel.open{ chip = "nv04" }
check(small:mem_size("vram") == 16 << 20 and small:mem_size("sysmem") == 4 << 30, "mem_size")
small:close()
ok, err = pcall(nvmodel.open, { chip = "nv99" })
check(not ok and err:find("unknown chip"), "unknown chip")
ok, err = pcall(nvmodel.open, { vram = "12Q" })
check(not ok and err:find("bad vram size"), "bad size string")

gpu:close()
ok, err = pcall(gpu.rd32, gpu, 0)
check(not ok and err:find("closed"), "closed gpu")
