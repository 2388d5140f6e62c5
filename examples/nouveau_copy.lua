-- nouveau's Volta channel setup and a copy, with raw memory and register
-- pokes only, in the order nouveau does them (refs volta-facts.md section 3:
-- gv100_chan_ramfc_write, gk104 runlist commit, bind, enable, doorbell), on
-- a copy-engine runlist (runlist 1, engine ce2). The pushbuffer binds
-- VOLTA_DMA_COPY_A (C3B5), copies 64 KiB and releases a four-word semaphore.
local gpu = nvmodel.open{ chip = "gv100", vram = "64M" }
local function w64(a, v) gpu:mem_wr32("vram", a, v & 0xffffffff, v >> 32) end

-- ver2 page tables: VA == PA for the first 2 MiB through a 2 MiB PTE in the dual PDE0.
local PDB = 0x1000
w64(PDB, ((0x2000 >> 12) << 8) | 2)          -- PDE3 -> PDE2 table, APERTURE VID
w64(0x2000, ((0x3000 >> 12) << 8) | 2)       -- PDE2 -> PDE1
w64(0x3000, ((0x4000 >> 12) << 8) | 2)       -- PDE1 -> dual PDE0
w64(0x4000, 1)                               -- PDE0[0]: a 2 MiB PTE (VALID, VID, PA 0)

local CHID, INST, USERD, GPFIFO, PB, RL = 9, 0x10000, 0x11000, 0x12000, 0x13000, 0x14000
local SRC, DST, SEM, SIZE = 0x100000, 0x140000, 0x180000, 0x10000
-- RAMIN: PAGE_DIR_BASE target VID, USE_VER2_PT_FORMAT, BIG_PAGE_SIZE 64KB
gpu:mem_wr32("vram", INST + 0x200, PDB | (1 << 10) | (1 << 11), 0)
-- RAMFC, as gv100_chan_ramfc_write writes it (GP ring of 512 entries: LIMIT2 9)
gpu:mem_wr32("vram", INST + 0x008, USERD, 0, 0xface)
gpu:mem_wr32("vram", INST + 0x030, 0x7ffff902)
gpu:mem_wr32("vram", INST + 0x048, GPFIFO, 9 << 16)
gpu:mem_wr32("vram", INST + 0x084, 0x20400000)
gpu:mem_wr32("vram", INST + 0x094, 0x30000fff)
gpu:mem_wr32("vram", INST + 0x0ac, 1 << 17)            -- TARGET CE_CTX_VALID (CE method buffer set up)
gpu:mem_wr32("vram", INST + 0x0e4, 0x20, CHID)
gpu:mem_wr32("vram", INST + 0x0f4, 0x1100, 0x10003080)

-- runlist 1: one TSG (TIMEOUT 128, SCALE 3) with the channel; commit; poll PENDING.
gpu:mem_wr32("vram", RL, (128 << 24) | (3 << 16) | 1, 1, 0, 0)
gpu:mem_wr32("vram", RL + 16, USERD, 0, INST | CHID, 0)
gpu:wr32(0x800000 + CHID * 8, 0x80000000 | (INST >> 12))    -- bind
gpu:wr32(0x800004 + CHID * 8, 0x400)                        -- ENABLE_SET
gpu:wr32(0x2270, RL >> 12)
gpu:wr32(0x2274, (1 << 20) | 2)
gpu:run{ ns = 10000 }
check((gpu:rd32(0x2284 + 8) >> 20) & 1 == 0, "runlist 1 taken")

-- the source data and the pushbuffer
local bytes = {}
for i = 0, SIZE / 4 - 1 do bytes[#bytes + 1] = string.pack("<I4", i * 0x9e3779b1 & 0xffffffff) end
gpu:mem_write("vram", SRC, table.concat(bytes))
local words = nvmodel.pb_words(string.format([[
  inc 4 SET_OBJECT 0xc3b5
  inc 4 0x400 0 0x%x 0 0x%x           # OFFSET_IN_UPPER/LOWER, OFFSET_OUT_UPPER/LOWER
  inc 4 0x418 0x%x 1                  # LINE_LENGTH_IN, LINE_COUNT
  inc 4 0x240 0 0x%x 0x1234           # SET_SEMAPHORE_A/B/PAYLOAD
  inc 4 0x300 0x196                   # LAUNCH_DMA: NON_PIPELINED, FLUSH, FOUR_WORD semaphore, PITCH
]], SRC, DST, SIZE, SEM))
gpu:mem_wr32("vram", PB, table.unpack(words))
gpu:mem_wr32("vram", GPFIFO, PB, (#words << 10))           -- GP entry 0
gpu:mem_wr32("vram", USERD + 0x8c, 1)                       -- GP_PUT
gpu:wr32(0x810090, CHID)                                    -- doorbell
check(gpu:run{ ns = 1000000, idle = true } == "idle", "the channel ran")
check(gpu:mem_read("vram", DST, SIZE) == gpu:mem_read("vram", SRC, SIZE), "64 KiB copied")
check(gpu:mem_rd32("vram", SEM) == 0x1234 and gpu:mem_rd32("vram", SEM + 4) == 0, "four-word release")
local ts = gpu:mem_rd32("vram", SEM + 8) | gpu:mem_rd32("vram", SEM + 12) << 32
check(ts > 0 and ts % 32 == 0, "PTIMER timestamp at +8")
check(gpu:mem_rd32("vram", USERD + 0x88) == 1, "USERD GP_GET")
print(string.format("copied %d bytes on ce2; semaphore 0x%x at %d ns; %d CE methods", SIZE,
                    gpu:mem_rd32("vram", SEM), ts, gpu:host_log_total("ce2")))
