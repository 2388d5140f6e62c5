/*
 * Fuzz target: the Volta Host running channels. A skeleton a driver would
 * build (identity-mapped page tables, four channels with instance blocks,
 * RAMFC, USERD and GPFIFO rings, one runlist) is set up first so inputs
 * reach deep quickly; then the input is a sequence of operations that
 * overwrite guest memory (runlist, RAMFC, USERD, GPFIFO, PB, page tables),
 * write Host registers, push pushbuffer words and ring doorbells, clear
 * interrupts and run, every run with a small work budget (host_fz.h; the
 * doorbell is NOTIFY_CHANNEL_PENDING, a submit RUNLIST_BASE and RUNLIST,
 * method CRCs are C36F's CRC_CHECK).
 */
#include "host_fz.h"

static void skeleton(nvm_gpu *g)
{
	hfz_volta_channels(g);
	nvm_reg_write(g, 0x2270, RL >> 12);
	nvm_reg_write(g, 0x2274, 6);
}

/* Host registers worth poking (with an element index where they are arrays). */
static uint32_t reg_addr(uint32_t sel, uint32_t idx)
{
	static const uint32_t regs[] = { 0x2100,   0x2140,   0x2270,   0x2274,  0x2630,  0x2634,  0x2638,
		                         0x810090, 0x800000, 0x800004, 0x40000, 0x40108, 0x40148, 0x4010c,
		                         0x400c0,  0x40010,  0x40014,  0x4004c, 0x40084, 0x40088, 0x40094,
		                         0x400ac,  0x400f4,  0x2284,   0x225c };
	uint32_t a = regs[sel % (sizeof(regs) / sizeof(regs[0]))];
	if (a >= 0x800000 && a < 0x810000)
		return a + (idx % 4096) * 8;
	if (a >= 0x40000 && a < 0x60000)
		return a + (idx % 14) * 0x2000;
	return a;
}

static void doorbell(nvm_gpu *g, uint32_t ch, uint32_t fl)
{
	(void)fl;
	nvm_reg_write(g, 0x810090, ch);
}

static void submit(nvm_gpu *g, uint32_t id)
{
	nvm_reg_write(g, 0x2270, RL >> 12);
	nvm_reg_write(g, 0x2274, id & 15);
}

static const struct host_fz gv100_fz = { "gv100", skeleton, reg_addr, doorbell, submit, 14, 0x2000, false };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return hfz_run(&gv100_fz, data, size);
}
