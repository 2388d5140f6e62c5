
# A Volta copy: bind C3B5 on subchannel 4, copy 4 KiB, release a semaphore.
.format new
.class 4 0xc3b5
inc 4 C36F.SET_OBJECT 0xc3b5
inc 4 OFFSET_IN_UPPER 0x1 0x00200000 0x1 0x00300000
immd 4 LINE_LENGTH_IN 0x1000
immd 4 LINE_COUNT 1
inc 4 SET_SEMAPHORE_A 0x1 0x00400000 0x2a
inc 4 LAUNCH_DMA 0x00000192
nop
set_subdevice_mask 0x1
ninc 0 C36F.SEM_PAYLOAD_LO 7 8
use_subdevice_mask
store_subdevice_mask 0xfff
1inc 0 C36F.SEM_ADDR_LO 0x1000 0x0
inc 0 C36F.WFI 0x1
end_segment
.word 0xdeadbeef 0x12345678
