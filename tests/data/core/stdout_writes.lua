-- Writes to standard output every way a script can (print, io.write,
-- io.stdout, io.output()): with --trace - or --json they must all go to
-- stderr, leaving standard output to the tool's JSON.
print("print line")
io.write("io.write line\n")
io.stdout:write("io.stdout line\n")
io.output():write("io.output line\n")
check(not io.stdout:close(), "standard output stays open")
local g = nvmodel.open{ chip = "nv04" }
g:wr32(0x1000, 1)
