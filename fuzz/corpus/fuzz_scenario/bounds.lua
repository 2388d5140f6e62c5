local g = nvmodel.open{chip="nv04", vram="1M"}
g:mem_write("vram", 0xffffc, "abcd")
print(pcall(g.mem_read, g, "vram", 0xffffe, 4))
g:run{ns=100, idle=true}
