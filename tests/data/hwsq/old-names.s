// Names earlier envydis printed (BUS_PAUSE, CRTC0/1_VBLANK) and earlier
// nvmodel took (CRTC0/1_HBLANK): still accepted, printed as today's names.
	set1 #BUS_PAUSE
	ewait #FB_PAUSED 1
	unset #BUS_PAUSE
	ewait #CRTC0_VBLANK 1
	ewait #CRTC0_HBLANK 0
	ewait #CRTC1_VBLANK 0
	ewait #CRTC1_HBLANK 0
	exit
