local v = nvmodel.volta
local gpu = nvmodel.open{ chip = "gv100", vram = "8M", sysmem = "4M" }
local heap = v.heap(gpu, "vram", 0x100000, "4M")
local vm = v.vm(gpu, heap)
vm:map(0x200000, "sysmem_ncoh", 0x200000, 0x200000, { page = "2M", kind = 0xfe })
local ch = v.channel(gpu, vm, { chid = 4095, runlist = 1, gpfifo_entries = 4, pb_size = 64 })
v.runlist(gpu, heap, { { id = 7, timeout = 0, scale = 15, ch } }):submit()
ch:push("inc 0 SEM_ADDR_LO 0x200000 0 1 0\ninc 0 SEM_EXECUTE 0x1", { sync = true, priv = true })
ch:push_entry(v.gp_control("illegal", 0xffffffff))
gpu:run{ ns = 10000, idle = true }
ch:push({ 0xdeadbeef, 0x00000000 }, { level = "subroutine", fetch = "conditional" })
gpu:run{ ns = 10000 }
