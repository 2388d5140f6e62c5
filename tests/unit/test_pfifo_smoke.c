#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "bar0.h"
#include "pfifo_env.h"

static void pio_smoke(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	uint32_t gr = pe_grobj(&e, 0x5f);
	pe_ramht_add(&e, 3, 0x1234, gr, 1);
	pe_pio(&e, 3, 1, 0x0, 0x1234);
	pe_pio(&e, 3, 1, 0x300, 7);
	pe_pio(&e, 3, 1, 0x304, 8);
	assert_string_equal(pe_run(&e, 100000), "idle");
	nvm_host_method log[8];
	size_t n = pe_log(&e, "pgraph", log, 8);
	for (size_t i = 0; i < n; i++)
		printf("%u %u %x %x %x\n", log[i].chid, log[i].subch, log[i].cls, log[i].method, log[i].data);
	assert_int_equal(n, 3);
	pe_fini(&e);
}

static void hook(void *u, const nvm_event *ev)
{
	(void)u;
	printf("ev %s %s %s\n", nvm_event_type_name(ev->type), ev->code, ev->message);
}

static void dma_smoke(void **state)
{
	(void)state;
	const char *chips[] = { "nv04", "nv10", "nv11", "nv17", "nv40", "nv41" };
	for (int c = 0; c < 6; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		nvm_hook_add(e.gpu, NVM_EV_ALL & ~NVM_EV_MASK(NVM_EV_MMIO), hook, NULL, NULL);
		pe_std_channel(&e, 2, 0x62);
		uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0002, PB_INC(0, 0x300, 3), 1, 2, 3 };
		pe_pb(&e, 0, pb, 6);
		pe_put(&e, 2, 24);
		const char *st = pe_run(&e, 1000000);
		nvm_host_method log[8];
		size_t n = pe_log(&e, "pgraph", log, 8);
		printf("%s: %s %zu intr %x get %x state %x\n", chips[c], st, n, rd(e.gpu, PE_INTR),
		       rd(e.gpu, PE_DMA_GET), rd(e.gpu, PE_DMA_STATE));
		for (size_t i = 0; i < n; i++)
			printf("  %u %u %x %x %x\n", log[i].chid, log[i].subch, log[i].cls, log[i].method, log[i].data);
		assert_int_equal(n, 4);
		pe_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pio_smoke),
		cmocka_unit_test(dma_smoke),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
