.class 4 0xc3b5
inc 4 LAUNCH_DMA 1
inc 4 FROBNICATE 2
