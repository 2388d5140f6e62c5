local gpu = nvmodel.open{ chip = "g80" }
check(gpu:chip() == "g80", "chip from the script wins over --chip")
local d = nvmodel.open{}
print("default chip:", d:chip(), "args:", #arg, arg[1])
d:run{ ns = 1234 }
check(true)
