# G80 IB-mode pushbuffer: long non-increasing methods.
.format old
inc 2 0x0100 0x0
long_ninc 2 0x1800 1 2 3 4 5 6 7 8 9 10
ninc 2 0x0104 0x1 0x2
