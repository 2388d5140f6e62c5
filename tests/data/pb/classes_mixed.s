# SET_OBJECT tracking: subchannels bound, rebound mid-stream and bound to a
# class without a table; classes from Fermi to Blackwell.
.format new
inc 4 SET_OBJECT 0xc3b5
inc 4 LAUNCH_DMA 0x182
inc 4 SET_OBJECT 0x90b5        # the same subchannel, now Fermi's copy class
inc 4 LAUNCH_DMA 0x182
inc 5 SET_OBJECT 0xcab5        # Blackwell's copy class on a spare subchannel
inc 5 LAUNCH_DMA 0x182
inc 6 SET_OBJECT 0xc4b5        # no such class in the tables
inc 6 0x300 0x182
inc 6 SET_OBJECT 0xc4b5        # reported once
inc 0 SET_OBJECT 0x9097
inc 0 SET_VIEWPORT_SCALE_X(1) 0x3f000000
inc 1 SET_OBJECT 0xcec0
inc 1 SEND_PCAS_A 0x1000
inc 2 SET_OBJECT 0x9039
inc 2 LINE_LENGTH_IN 0x40 0x1
inc 3 SET_OBJECT 0x902d
immd 3 SET_OPERATION 3
inc 0 SET_OBJECT 0xce97
inc 0 SET_VIEWPORT_SCALE_X(1) 0x3f000000
inc 7 0x200 1                  # nothing bound on 7
