/*
 * Fuzz target: the Turing Host (tu102) running channels, as fuzz_host.c does
 * for Volta (host_fz.h), through tu102's own register spaces: the
 * per-runlist RUNLIST_BASE_LO/HI/SUBMIT/SUBMIT_INFO(i) at 0x2B00 + 16i,
 * doorbell handles (RUNLIST_ID 22:16 | CHID 11:0) at NOTIFY_CHANNEL_PENDING
 * and at the VF alias 0xBB0090, NV_CTRL_VIRTUAL_CHANNEL_CFG(i) at 0xB65000,
 * and C46F's CLEAR_FAULTED by handle.
 */
#include "host_fz.h"

static void skeleton(nvm_gpu *g)
{
	hfz_volta_channels(g);
	nvm_reg_write(g, 0xb65000, 0x80000fffu); /* VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE */
	nvm_reg_write(g, 0x2b00, RL);
	nvm_reg_write(g, 0x2b04, 0);
	nvm_reg_write(g, 0x2b08, 6);
}

/* Host registers worth poking (with an element index where they are arrays). */
static uint32_t reg_addr(uint32_t sel, uint32_t idx)
{
	static const uint32_t regs[] = { 0x2100,  0x2140,   0x2b00,   0x2b04,   0x2b08,   0x2b0c,   0x2630,  0x2634,
		                         0x2638,  0x810090, 0xbb0090, 0xb65000, 0x800000, 0x800004, 0x40000, 0x40108,
		                         0x40148, 0x4010c,  0x400c0,  0x40010,  0x40014,  0x4004c,  0x40084, 0x40088,
		                         0x40094, 0x400ac,  0x400f4,  0x225c,   0x2180,   0x2a30,   0x2274 };
	uint32_t a = regs[sel % (sizeof(regs) / sizeof(regs[0]))];
	if (a >= 0x800000 && a < 0x810000)
		return a + (idx % 4096) * 8;
	if (a >= 0x40000 && a < 0x60000)
		return a + (idx % 13) * 0x2000; /* one past the 12 PBDMAs */
	if (a >= 0x2b00 && a < 0x2b10)
		return a + (idx % 12) * 16; /* one past the 11 runlists */
	if (a == 0xb65000)
		return a + (idx % 64) * 4;
	return a;
}

/* A doorbell handle: mostly valid (runlist 0 or ALL | chid), sometimes the
 * raw value (invalid bits, runlists), at NOTIFY_CHANNEL_PENDING or the VF
 * alias. */
static void doorbell(nvm_gpu *g, uint32_t ch, uint32_t fl)
{
	uint32_t h = fl & 0x80 ? ch | (fl & 0x70) << 12 | (fl & 0x0f) << 20 : ((fl & 0x40 ? 15u : 0u) << 16) | ch;
	nvm_reg_write(g, fl & 0x20 ? 0xbb0090 : 0x810090, h);
}

static void submit(nvm_gpu *g, uint32_t id)
{
	nvm_reg_write(g, 0x2b00 + (id % 12) * 16, RL | ((id >> 4) & 3));
	nvm_reg_write(g, 0x2b08 + (id % 12) * 16, (id >> 6) & 7);
}

static const struct host_fz tu102_fz = { "tu102", skeleton, reg_addr, doorbell, submit, 12, 0x2000, false };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return hfz_run(&tu102_fz, data, size);
}
