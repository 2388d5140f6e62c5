# NV17 DMA pushbuffer in the NV04-era 2D classes: SET_OBJECT takes the
# objects' handles (the RAMHT gives their classes: decode with --class 0=0x0042
# --class 1=0x004a --class 2=0x0039), then surfaces, a rectangle and an M2MF copy.
.format old
.class 0 0x0042
.class 1 0x004a
.class 2 0x0039
inc 0 SET_OBJECT 0x80000010
inc 1 SET_OBJECT 0x80000011
inc 2 SET_OBJECT 0x80000012
inc 0 SET_CONTEXT_DMA_IMAGE_SOURCE 0xfe000001 0xfe000001
inc 0 SET_COLOR_FORMAT 0x6 0x10001000 0x0 0x100000
inc 1 SET_COLOR_FORMAT 0x3
inc 1 COLOR1_A 0xff00ff
inc 1 UNCLIPPED_RECTANGLE_POINT(0) 0x00100010 0x00200020
ninc 1 UNCLIPPED_RECTANGLE_POINT(1) 0x00400040
inc 2 OFFSET_IN 0x1000 0x2000 0x100 0x100 0x100 0x4
inc 2 FORMAT 0x101 0x0
inc 0 0x0050 0x1
