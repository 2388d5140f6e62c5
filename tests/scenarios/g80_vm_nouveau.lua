-- The G80 VM set up as nouveau's nv50 code does it (seed 002; docs/g80.md):
-- BAR1 and BAR3 through one bare channel structure (nv50_bar_oneinit /
-- _init), a channel VM with a paged DMA object (0x7fc00000), contig blocks,
-- TLB flushes through 0x100c80 (nv50_vmm_flush), and the trap registers as
-- nv50_fb_intr reads them.
local g80 = nvmodel.g80

for _, chip in ipairs{ "g80", "g84", "g92", "gt215" } do
  local gpu = nvmodel.open{ chip = chip, vram = "64M", sysmem = "16M" }
  local faults = {}
  gpu:on("fault", function(ev) faults[#faults + 1] = ev.code end)
  -- nv50_fb_init: the VM_FAULT enables ("needed to get meaningful information from 100c90")
  gpu:wr32(0x100c90, ({ g80 = 0x0707ff, gt215 = 0x0d0fff })[chip] or 0x1d07ff)

  -- BARs: BAR1 VA 0 -> VRAM 0x800000 (64 KiB pages), BAR3 VA 0x1_0000_0000 -> 0x900000
  local bar = g80.bar(gpu, { mem = 0x10000 })
  bar.vm:map{ virt = 0, lin = 0x800000, size = 0x20000, page = 0x10000 }
  bar.vm:map{ virt = 0x100000000, lin = 0x900000, size = 0x4000 }
  bar.vm:flush(6)
  check(gpu:g80_bar_write(1, 0x10004, "\x01\x02\x03\x04"), "BAR1 write")
  check(gpu:mem_rd32("vram", 0x810004) == 0x04030201, "BAR1 lands in VRAM")
  check(gpu:g80_bar_write(3, 0x20, "\xef\xbe\xad\xde"), "BAR3 write")
  check(gpu:mem_rd32("vram", 0x900020) == 0xdeadbeef, "BAR3 lands in VRAM")
  check(gpu:g80_bar_read(3, 0x20, 4) == "\xef\xbe\xad\xde", "BAR3 read back")
  check(gpu:g80_bar_read(1, 0x20000, 4) == nil, "BAR1 beyond the mapping faults")
  check(faults[#faults] == "PAGE_NOT_PRESENT", "fault event")

  -- A channel VM: 16 KiB at virtual 0x20000000 (PDE 1) in one contig block
  local vm = g80.vm(gpu, { addr = 0x100000 })
  local pb = vm:dmaobj{ class = 0x3d }
  vm:map{ virt = 0x20000000, lin = 0x1234000, size = 0x4000, storage = 0x70 }
  local r = gpu:g80_translate{ chan = vm.desc, selector = pb, offset = 0x20002010, engine = 5, client = 8 }
  check(r.fault == nil and r.addr == 0x1236010 and r.block == 0x4000, "contig block translation")
  check(r.storage_type == 0x70, "storage type from the PTE")

  -- remap without a flush: the TLB keeps the old block; after the flush, the new one
  vm:map{ virt = 0x20000000, lin = 0x2000000, size = 0x4000 }
  r = gpu:g80_translate{ chan = vm.desc, selector = pb, offset = 0x20002010, engine = 5, client = 8 }
  check(r.tlb_hit and r.addr == 0x1236010, "stale until flushed")
  vm:flush(5)
  r = gpu:g80_translate{ chan = vm.desc, selector = pb, offset = 0x20002010, engine = 5, client = 8 }
  check(not r.tlb_hit and r.addr == 0x2002010, "flushed")

  -- data through the VM
  check(gpu:g80_write({ chan = vm.desc, selector = pb, offset = 0x20000ff0 }, string.rep("x", 0x20)), "write")
  check(gpu:mem_read("vram", 0x2000ff0, 0x20) == string.rep("x", 0x20), "write crossed a page")

  -- a fault in the trap registers (NULL_DMAOBJ, reason 6), read as nv50_fb_intr does
  r = gpu:g80_translate{ chan = vm.desc, selector = 0, offset = 0x1234, engine = 0, client = 3, slot = 1 }
  check(r.fault == "NULL_DMAOBJ", "NULL_DMAOBJ")
  local idx = gpu:rd32(0x100c90)
  check(idx & 0x80000000 ~= 0, "trap pending")
  gpu:wr32(0x100c90, (idx & 0xffffff) | 0x80000000) -- the BAR fault above was first: acknowledge it
  r = gpu:g80_translate{ chan = vm.desc, selector = 0, offset = 0x1234, engine = 0, client = 3, slot = 1 }
  local trap = {}
  for i = 0, 5 do
    gpu:wr32(0x100c90, (idx & 0xffffff) | i << 24)
    trap[i] = gpu:rd32(0x100c94)
  end
  local reason = chip == "gt215" and (trap[0] >> 8) & 0xff or (trap[0] >> 4) & 0xf
  check(reason == 6, "trap reason")
  check(trap[3] == 0x1234 and trap[5] & 0x100 ~= 0, "trap address, read")
  gpu:wr32(0x100c90, (idx & 0xffffff) | 0x80000000)
  check(gpu:rd32(0x100c90) & 0x80000000 == 0, "trap acknowledged")
  -- every PTE attribute through the builder; the DMA object takes them all from the PTE
  local all = vm:dmaobj{ class = 0x3d, part_cycle = 0, encrypt = 2 }
  vm:map{ virt = 0x40000000, lin = 0x800000, size = 0x10000, page = 0x10000, ro = true, supervisor = true,
          storage = 0x7a, comp = 2, tag = 0x123, long = true, encrypted = true, target = "sysram" }
  r = gpu:g80_translate{ chan = vm.desc, selector = all, offset = 0x40000040, supervisor = true }
  check(r.fault == nil and r.target == "SYSRAM_SNOOP" and r.aperture == "sysmem" and r.addr == 0x800040,
        "sysram large page")
  check(r.ro and r.supervisor_only and r.storage_type == 0x7a and r.comp == 2 and r.tag == 0x123
        and r.part_cycle == 1, "PTE attributes")
  check(r.encrypted == (chip ~= "g80"), "encryption is G84+")
  if chip == "gt215" then
    vm:map{ virt = 0x60000000, lin = 0x3400000, size = 0x8000, page = 0x4000 }
    r = gpu:g80_translate{ chan = vm.desc, selector = pb, offset = 0x60004010 }
    check(r.fault == nil and r.page_size == 0x4000 and r.addr == 0x3404010, "medium pages")
  end
  -- an unpaged compressed VRAM object: tag = ((linear - comp_base) >> 16) + tag_base
  local u = vm:dmaobj{ class = 0x3d, target = "vram", base = 0x3000000, limit = 0x3f00000, ro = 2, us = 1,
                       storage = 0x70, comp = 1, tag_base = 0x10, tag_limit = 0x20, comp_base = 0x3000000 }
  r = gpu:g80_translate{ chan = vm.desc, selector = u, offset = 0x35000 }
  check(r.fault == nil and not r.paged and r.addr == 0x3035000 and r.comp == 1 and r.tag == 0x13, "unpaged tag")
  r = gpu:g80_translate{ chan = vm.desc, selector = u, offset = 0x1000000 }
  check(r.fault == "DMAOBJ_LIMIT", "unpaged limit")
  gpu:wr32(0x100c90, (idx & 0xffffff) | 0x80000000)

  local st = gpu:g80_stats()
  check(st.faults == 4 and st.flushes >= 2, "stats")
  gpu:close()
end
print("g80 vm as nouveau: ok")
