-- NVIDIA's UVM driver on Volta, replayed on the model (refs volta-facts.md
-- section 3, uvm_volta_host.c / uvm_maxwell_host.c / uvm_volta_fault_buffer.c):
-- a shader (GPC TEX) access faults into the replayable fault buffer; UVM
-- reads the packet, maps the page, and pushes on its kernel channel the
-- MEM_OP_A..D replay (TLB_INVALIDATE_TARGETED, REPLAY=START) and a legacy
-- SEMAPHOREA-D release to track the push; a second fault is cancelled with
-- MEM_OP CANCEL_VA_GLOBAL. The channel, page tables and fault buffer are
-- built with nvmodel.volta; the Host runs the pushes.
local volta = nvmodel.volta
local gpu = nvmodel.open{ chip = "gv100", vram = "256M" }
local heap = volta.heap(gpu, "vram", 0x100000, "64M")
local vm = volta.vm(gpu, heap)
-- UVM's channel is a kernel channel (priv) in a context with replayable TEX faults.
local ch = volta.channel(gpu, vm, { chid = 0, runlist = 0, replay = true })
volta.runlist(gpu, heap, { { id = 0, ch } }):submit(0)
local sem = vm:alloc_map(4096)
local pdb = vm.pdb[2]

-- The replayable fault buffer (NV_PFB_PRI_MMU_FAULT_BUFFER_*(1)), physical, 16 entries.
local FB = heap:alloc(16 * 32, 4096)
local FB_LO, FB_HI, FB_GET, FB_PUT, FB_SIZE = 0x100E38, 0x100E3C, 0x100E40, 0x100E44, 0x100E48
gpu:wr32(FB_SIZE, 0); gpu:wr32(FB_HI, 0); gpu:wr32(FB_LO, FB | 1)
gpu:wr32(FB_SIZE, 0x80000000 | 16)

-- A shader reads an unmapped page: a replayable fault, the request held.
local user_va = vm:alloc_map(4096) + 0x100000      -- beyond what was mapped
local tex = { inst = ch.inst, va = user_va, access = "read", client_type = "gpc", client = 0, gpc = 1 }
local r = gpu:mmu_translate(tex)
check(r.fault == "PDE" or r.fault == "PTE", "the shader access faults: " .. tostring(r.fault))
check(r.replayable and gpu:mmu_pending() == 1, "replayable, waiting for a replay")

-- UVM: read PUT, parse the packet, clear VALID, write GET twice.
local put = gpu:rd32(FB_PUT) & 0xfffff
local dw2, dw3 = gpu:mem_rd32("vram", FB + 8, 2)
local dw7 = gpu:mem_rd32("vram", FB + 28)
check(put == 1 and (dw3 << 32 | dw2) == user_va and dw7 >> 31 == 1, "one valid packet for the VA")
gpu:mem_wr32("vram", FB + 28, dw7 & 0x7fffffff)
gpu:wr32(FB_GET, put); gpu:wr32(FB_GET, put | 0xc0000000)

-- Service: map the page; then the replay push and a tracking semaphore.
local page = heap:alloc(4096, 4096)
vm:map(user_va, "vram", page, 4096)
local C_REPLAY = 0 << 0 | 0 << 1 | 1 << 7 | 0 << 10 | (pdb & 0xfffff000)   -- PDB ONE, GPC EN, PTE_ONLY, VID
ch:push(string.format([[
  inc 0 MEM_OP_A 0 0 0x%x 0x%x                 # TLB_INVALIDATE_TARGETED, REPLAY=START
  inc 0 SEMAPHOREA 0x%x 0x%x 1 0x1000002       # RELEASE | 4BYTE | WFI_DIS
]], C_REPLAY | 1 << 2, 0xA << 27 | (pdb >> 32), sem >> 32, sem & 0xffffffff))
check(gpu:run{ ns = 1000000, idle = true } == "idle", "the push completes")
check(gpu:mmu_pending() == 0 and gpu:mmu_stats().replayed_ok == 1, "the held request replayed")
check(gpu:mmu_translate(tex).pa == page, "the shader's VA now translates")
check(vm:rd32(sem) == 1, "UVM's tracking semaphore released")

-- A second fault, cancelled: MEM_OP CANCEL_VA_GLOBAL for GR (MMU engine 64), all access types.
local bad_va = user_va + 0x10000
gpu:mmu_translate{ inst = ch.inst, va = bad_va, access = "read", client_type = "gpc", client = 0, gpc = 1 }
check(gpu:mmu_pending() == 1, "the second request waits")
local C_CANCEL = 7 << 7 | (pdb & 0xfffff000) | 5 << 2                     -- ACCESS ALL, CANCEL_VA_GLOBAL
ch:push(string.format([[
  inc 0 MEM_OP_A 0x%x 0x%x 0x%x 0x%x
  inc 0 SEMAPHOREA 0x%x 0x%x 2 0x1000002
]], (bad_va & 0xfffff000) | 64, bad_va >> 32, C_CANCEL, 0xA << 27 | (pdb >> 32), sem >> 32, sem & 0xffffffff))
check(gpu:run{ ns = 1000000, idle = true } == "idle", "the cancel push completes")
check(gpu:mmu_pending() == 0 and gpu:mmu_stats().cancelled == 1, "the request was cancelled")
check(vm:rd32(sem) == 2, "second release")
print(string.format("faults %d, replayed %d, cancelled %d, host methods %d, virtual time %d ns",
                    gpu:mmu_stats().faults, gpu:mmu_stats().replayed_ok, gpu:mmu_stats().cancelled,
                    gpu:host_stats().host_methods, gpu:time_ns()))
