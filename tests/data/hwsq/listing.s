// Output of 'nvmodel hwsq dis reclock_g80.bin --variant g80' as it is: a whole
// envydis-style listing assembles back (the columns are dropped).
00000000: b0                 set1 #FB_PAUSE
00000001: 5f 00 01           ewait #FB_PAUSED 0x1
00000004: e2 00 00 00 80     data 0x80000000
00000009: e0 10 02 10 00     addr 0x100210
0000000e: e2 03 02 01 00     data 0x10203
00000013: e0 08 40 00 00     addr 0x4008
00000018: 42 01 00           datalo 0x1
0000001b: 40 0c 40           addrlo 0x400c
0000001e: 09                 wait 0x1 shl 0x4
0000001f: e2 01 00 00 80     data 0x80000001
00000024: e0 10 02 10 00     addr 0x100210
00000029: 90                 unset #FB_PAUSE
0000002a: 7f                 exit
