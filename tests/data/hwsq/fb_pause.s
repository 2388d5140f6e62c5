// FB_PAUSE is a name of the nv41 and g80 variants only (envydis nv41op).
	set1 #FB_PAUSE
