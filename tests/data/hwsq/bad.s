// errors for the golden test
exit
	addr 0x1304
