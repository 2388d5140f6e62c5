local g = nvmodel.open{chip="g80"}
g:wr32(0x1098, 8)
g:wr32(0x130c, 3)
for i = 1, 3 do print(g:run{ns=1000000000}) end
