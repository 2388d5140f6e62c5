-- A Riva 128 (nv03) driven as Linux rivafb drives it (drivers/video/fbdev/riva:
-- riva_hw.c LoadStateExt, riva_tbl.h): PFIFO reset and set up by nv3TablePFIFO,
-- the objects of nv3TablePRAMIN in RAMHT (through BAR1 + 0xC00000), every
-- subchannel bound by RivaTableFIFO, then a fill and a copy through PIO with
-- the FREE-polling loop (RIVA_FIFO_FREE), a re-bind (nv3SetSurfaces2D), a
-- reserved method that runs out to RAMRO and a handle RAMHT lacks.
-- Run: nvmodel run examples/riva128_rivafb.lua

local nv03 = nvmodel.nv03
local gpu = nvmodel.open{ chip = "nv03", vram = "4M", sysmem = "1M" }
local f = nv03.fifo(gpu)

-- nv3TablePRAMIN: handle -> {object type (the PGRAPH class area 0x40 | class), grobj}
local objs = {
  [0x80000000] = { 0x42, 0x3410 }, [0x80000001] = { 0x45, 0x3420 }, [0x80000002] = { 0x46, 0x3430 },
  [0x80000003] = { 0x5c, 0x3480 }, [0x80000004] = { 0x5c, 0x3490 }, [0x80000010] = { 0x51, 0x3440 },
  [0x80000011] = { 0x50, 0x3450 }, [0x80000012] = { 0x4c, 0x3460 }, [0x80000013] = { 0x57, 0x3470 },
  [0x80000016] = { 0x4a, 0x34c0 },
}
for handle, o in pairs(objs) do
  local at = f:ramht_add{ chid = 0, handle = handle, context = f:context{ type = o[1], instance = o[2] } }
  check(at == 0x800 + 16 * (handle & 0xff), string.format("0x%08x where rivafb puts it", handle))
end

-- RivaTableFIFO: Rop, Clip, Patt, Pixmap, Blt, Bitmap, Line, Tri03 (no FREE check)
local ROP, CLIP, PATT, PIXMAP, BLT, BITMAP, LINE, TRI = 0, 1, 2, 3, 4, 5, 6, 7
local binds = { 0x80000000, 0x80000001, 0x80000002, 0x80000010, 0x80000011, 0x80000012, 0x80000016, 0x80000013 }
for subc = 0, 7 do f:pio(0, subc, 0, binds[subc + 1]) end
print(string.format("FifoEmptyCount read at once: 0x%x", f:free(0, 0)))

-- riva_setup_accel / rivafb_fillrect / rivafb_copyarea, each burst behind RIVA_FIFO_FREE
f:wait_free(0, CLIP, 2)
f:pio(0, CLIP, 0x300, 0)
f:pio(0, CLIP, 0x304, 640 | 480 << 16)
f:wait_free(0, PATT, 4)
for i = 0, 3 do f:pio(0, PATT, 0x310 + 4 * i, 0xffffffff) end
f:wait_free(0, ROP, 1)
f:pio(0, ROP, 0x300, 0xcc)
f:wait_free(0, BITMAP, 3)
f:pio(0, BITMAP, 0x3fc, 0x00ff00)                 -- Color1A
f:pio(0, BITMAP, 0x400, 10 << 16 | 20)            -- UnclippedRectangle[0].TopLeft
f:pio(0, BITMAP, 0x404, 100 << 16 | 50)           -- .WidthHeight
f:wait_free(0, BLT, 3)
f:pio(0, BLT, 0x300, 20 << 16 | 10)
f:pio(0, BLT, 0x304, 200 << 16 | 100)
f:pio(0, BLT, 0x308, 50 << 16 | 100)
-- nv3SetSurfaces2D: subchannel 7 re-bound to a surface and back
f:wait_free(0, TRI, 5)
f:pio(0, TRI, 0, 0x80000003)
f:pio(0, TRI, 0x30c, 0)
f:pio(0, TRI, 0, 0x80000013)
print("run:", gpu:run{ ns = 100000, idle = true })

local log = gpu:pfifo_log("pgraph")
for _, m in ipairs(log) do
  print(string.format("  ch %d subch %d ctx 0x%06x  method 0x%04x  data 0x%08x%s", m.chid, m.subch, m.ctx or 0,
                      m.method, m.data, m.implicit and "  (context sent by PFIFO)" or ""))
end
local implicit = 0
for _, m in ipairs(log) do if m.implicit then implicit = implicit + 1 end end
check(#log == 8 + (1 + 2) + (1 + 4) + (1 + 1) + (1 + 3) + (1 + 3) + 3, "every method and context reached PGRAPH")
check(implicit == 5, "PFIFO sent the context on each change of subchannel")
check(f:free(0, 0) == 0x7c, "CACHE1 empty again")

-- A reserved method (0x04..0xfc) runs out to RAMRO; FREE reads 0 until the
-- driver empties RAMRO.
f:pio(0, ROP, 0x40, 0x1234)
local e = f:runout_entry(0)
print(string.format("RAMRO[0]: %s, channel %d subchannel %d offset 0x%x data 0x%x; INTR 0x%x, FREE 0x%x",
                    e.reason, e.chid, e.subch, e.method, e.data, gpu:rd32(0x2100), f:free(0, 0)))
check(e.reason == "RESERVED_ACCESS" and gpu:rd32(0x2100) == 0x10 and f:free(0, 0) == 0, "runout")
gpu:wr32(0x2420, gpu:rd32(0x2410))
gpu:wr32(0x2100, 0x10)
check(f:free(0, 0) == 0x7c, "recovered")

-- A handle RAMHT lacks: CACHE_ERROR with HASH_FAILED, the puller stops at it.
f:pio(0, CLIP, 0, 0xdeadbeef)
gpu:run{ ns = 100000, idle = true }
print(string.format("missing handle: INTR 0x%x, CACHE_ERROR 0x%x, PULL_CTRL 0x%x", gpu:rd32(0x2100),
                    gpu:rd32(0x2080), gpu:rd32(0x3240)))
check(gpu:rd32(0x2100) & 1 == 1 and gpu:rd32(0x3240) == 0x11, "HASH_FAILED")
