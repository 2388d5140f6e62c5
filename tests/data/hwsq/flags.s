// flags by name and number, both slots' state in STATUS
	set1 #gpio_2_out
	set0 1
	set1 $pbus_debug_1_unk27
	unset 0x1
	wait 0x2 shl 0x2
	exit
