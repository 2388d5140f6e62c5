/* HWSQ benchmarks: interpreter speed and disassembly throughput. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nvmodel/hwsq.h"
#include "nvmodel/nvmodel.h"

/* The interpreter on a g92 code RAM (0x200 bytes) of flag and data opcodes
 * with no exit, so the slot runs around the RAM until the time budget ends;
 * instructions counted by the model. */
static int bench_interp(double scale, struct bench_result *out)
{
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "g92", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	if (nvm_open(&cfg, &gpu))
		return 1;
	uint8_t code[0x200];
	for (size_t i = 0; i < sizeof(code);) {
		/* set1 / set0 / unset of flags 0-15 and a datalo now and then */
		if (i % 64 == 0 && i + 3 <= sizeof(code)) {
			code[i] = 0x42;
			code[i + 1] = (uint8_t)i;
			code[i + 2] = 0x12;
			i += 3;
			continue;
		}
		static const uint8_t ops[] = { 0xa0, 0xc0, 0x80 };
		code[i] = (uint8_t)(ops[i % 3] | (i % 16));
		i++;
	}
	if (nvm_hwsq_load(gpu, 0, code, sizeof(code)) || nvm_reg_write(gpu, 0x130c, 1)) {
		nvm_close(gpu);
		return 1;
	}
	/* 512 instructions per 32 ns PTIMER clock while nothing waits. */
	uint64_t ns = (uint64_t)(2000000.0 * scale);
	if (ns < 1000)
		ns = 1000;
	nvm_run_opts o = { .ns = ns, .max_events = UINT64_MAX };
	nvm_hwsq_state s0, s1;
	nvm_hwsq_get_state(gpu, &s0);
	double t0 = bench_now();
	nvm_run(gpu, &o);
	double t1 = bench_now();
	nvm_hwsq_get_state(gpu, &s1);
	bench_sink(s1.flags0);
	out->unit = "insns/s";
	out->rate = (double)(s1.instructions - s0.instructions) / (t1 - t0);
	out->target_rate = 100e6;
	nvm_close(gpu);
	return 0;
}

/* Disassembly of pseudo-random bytes (all opcodes, all lengths) to
 * /dev/null, in the tool's form (address, bytes, instruction); rate in
 * input bytes. Baseline: the same bytes as a hex dump through fwrite. */
static int bench_dis(double scale, struct bench_result *out)
{
	size_t len = (size_t)(16.0 * scale * (1 << 20));
	if (len < 4096)
		len = 4096;
	uint8_t *code = malloc(len);
	nvm_hwsq_dis *d = malloc(sizeof(*d));
	FILE *f = fopen("/dev/null", "wb");
	if (!code || !d || !f) {
		free(code);
		free(d);
		if (f)
			fclose(f);
		return 1;
	}
	uint32_t x = 12345;
	for (size_t i = 0; i < len; i++) {
		x = x * 1664525u + 1013904223u;
		code[i] = (uint8_t)(x >> 24);
	}
	nvm_hwsq_dis_init(d, NVM_HWSQ_G92, 0);
	static char buf[1 << 16];
	double t0 = bench_now();
	size_t used = 0;
	for (size_t pos = 0; pos < len;) {
		if (used + NVM_HWSQ_LINE_MAX > sizeof(buf)) {
			fwrite(buf, 1, used, f);
			used = 0;
		}
		used += nvm_hwsq_dis_next(d, code, len, &pos, buf + used);
	}
	fwrite(buf, 1, used, f);
	double t1 = bench_now();
	static const char hex[] = "0123456789abcdef";
	used = 0;
	for (size_t i = 0; i < len; i++) {
		if (used + 4 > sizeof(buf)) {
			fwrite(buf, 1, used, f);
			used = 0;
		}
		buf[used++] = hex[code[i] >> 4];
		buf[used++] = hex[code[i] & 15];
		buf[used++] = (i & 15) == 15 ? '\n' : ' ';
	}
	fwrite(buf, 1, used, f);
	double t2 = bench_now();
	out->unit = "bytes/s";
	out->rate = (double)len / (t1 - t0);
	out->baseline_rate = (double)len / (t2 - t1);
	out->baseline = "hex dump of the same bytes";
	out->target_rate = 50e6;
	fclose(f);
	free(d);
	free(code);
	return 0;
}

const struct bench_case bench_hwsq_cases[] = {
	{ "hwsq.interp", "HWSQ interpreter, g92 code RAM of flag/data opcodes", bench_interp },
	{ "hwsq.dis", "HWSQ disassembly of 16 MiB of random bytes to /dev/null", bench_dis },
	{ NULL, NULL, NULL },
};
