-- A scenario whose check fails on line 4.
local gpu = nvmodel.open{ chip = "nv40" }
check(gpu:rd32(0) == 0x040000a1, "boot0")
check(gpu:rd32(0) == 0, "PMC_BOOT_0 should read 0 here")
print("not reached")
