// A memory-reclock style script (docs/hwsq.md): pause the framebuffer,
// wait until it is paused, poke the memory PLL, wait, unpause.
entry0:
	set1 #FB_PAUSE
	ewait #FB_PAUSED 1
	data 0x80000000
	addr 0x100210      // refresh off
	data 0x00010203
	addr 0x4008        // PLL coefficients
	datalo 0x0001
	addrlo 0x400c      // PLL enable (ADDR keeps 0x0000 high)
	wait 0x1 shl 0x4   // 16 units: 16 us
	data 0x80000001
	addr 0x100210      // refresh on
	unset #FB_PAUSE
	exit
