-- A Volta channel set up with raw memory and register pokes, exactly as
-- nouveau does it (refs volta-facts.md section 3): page tables, instance
-- block + RAMFC, USERD, GPFIFO, pushbuffer, runlist, bind, enable, doorbell.
local gpu = nvmodel.open{ chip = "gv100", vram = "64M", sysmem = "16M" }
local function w64(a, v) gpu:mem_wr32("vram", a, v & 0xffffffff, v >> 32) end

-- ver2 page tables at 0x100000: PDE3 -> PDE2 -> PDE1 -> dual PDE0 -> 4K PTEs
local pdb, pd2, pd1, pd0, pt = 0x100000, 0x101000, 0x102000, 0x103000, 0x104000
local function pde(t) return ((t >> 12) << 8) | (1 << 1) end    -- APERTURE VID
w64(pdb, pde(pd2)); w64(pd2, pde(pd1)); w64(pd1, pde(pd0))
w64(pd0 + 8, ((pt >> 12) << 8) | (1 << 1))                      -- small PT (bits 117:72, 66:65)
local function map(va, pa) w64(pt + ((va >> 12) & 511) * 8, ((pa >> 12) << 8) | 1) end
local GPFIFO_VA, PB_VA, SEM_VA = 0x10000, 0x20000, 0x30000
map(GPFIFO_VA, 0x200000); map(PB_VA, 0x201000); map(SEM_VA, 0x202000)

-- instance block at 0x300000 (RAMIN PAGE_DIR_BASE: VID, VER2, 64K big pages)
local inst, userd, chid = 0x300000, 0x310000, 3
gpu:mem_wr32("vram", inst + 128 * 4, pdb | (1 << 10) | (1 << 11), 0)
-- RAMFC as gv100_chan_ramfc_write (LIMIT2 = 4: 16 entries)
gpu:mem_wr32("vram", inst + 0x08, userd, 0, 0xface)
gpu:mem_wr32("vram", inst + 0x30, 0x7ffff902)
gpu:mem_wr32("vram", inst + 0x48, GPFIFO_VA, 4 << 16)
gpu:mem_wr32("vram", inst + 0x84, 0x20400000)
gpu:mem_wr32("vram", inst + 0x94, 0x30000fff)
gpu:mem_wr32("vram", inst + 0xac, 1 << 16)           -- TARGET ENG_CTX_VALID
gpu:mem_wr32("vram", inst + 0xf4, 0x1100)

gpu:wr32(0x800000 + chid * 8, 0x80000000 | (inst >> 12))  -- bind
gpu:wr32(0x800004 + chid * 8, 0x400)                      -- ENABLE_SET
-- runlist: one TSG (TIMEOUT 128, SCALE 3) with the channel
local rl = 0x320000
gpu:mem_wr32("vram", rl, (128 << 24) | (3 << 16) | 1, 1, 7, 0)
gpu:mem_wr32("vram", rl + 16, userd, 0, inst | chid, 0)
gpu:wr32(0x2270, rl >> 12)
gpu:wr32(0x2274, (0 << 20) | 2)
check((gpu:rd32(0x2284) >> 20) & 1 == 1, "runlist pending after the submit")
gpu:run{ ns = 100000, idle = true }
check((gpu:rd32(0x2284) >> 20) & 1 == 0, "runlist taken")

-- pushbuffer: SET_OBJECT 3D, three methods, a semaphore release of 0x1234
local function inc(subch, m, n) return 0x20000000 | (n << 16) | (subch << 13) | (m >> 2) end
local words = { inc(0, 0, 1), 0xc397, inc(0, 0x200, 3), 10, 11, 12,
                inc(0, 0x5c, 5), SEM_VA, 0, 0x1234, 0, 1 }
gpu:mem_wr32("vram", 0x201000, table.unpack(words))
gpu:mem_wr32("vram", 0x200000, PB_VA, (#words << 10))    -- GP entry 0
gpu:mem_wr32("vram", userd + 0x8c, 1)                     -- USERD GP_PUT
local rings = 0
gpu:on("trace", function(ev) if ev.code == "doorbell" then rings = rings + 1 end end)
gpu:wr32(0x810090, chid)                                  -- doorbell
check(gpu:run{ ns = 1000000, idle = true } == "idle", "the channel goes idle")
check(rings == 1, "one doorbell seen")

local log = gpu:host_log("gr")
check(#log == 3, "three GR methods, got " .. #log)
check(log[1].method == 0x200 and log[1].data == 10 and log[1].cls == 0xc397, "first method and class")
check(log[3].method == 0x208 and log[3].data == 12, "third method")
check(gpu:mem_rd32("vram", 0x202000) == 0x1234, "semaphore released")
check(gpu:mem_rd32("vram", userd + 0x88) == 1, "USERD GP_GET caught up")
check(gpu:mem_rd32("vram", userd + 0x44) == PB_VA + #words * 4, "USERD GET at the segment end")
local ch = gpu:host_channel(chid)
check(ch.bound and ch.enabled and ch.tsgid == 7 and ch.methods == 3, "channel state")
check(gpu:host_stats().sem_releases == 1, "stats")
check(gpu:host_log_total("gr") == 3, "log total")
