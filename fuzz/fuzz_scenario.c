/*
 * Fuzz the scenario runner's input handling: arbitrary bytes as a script.
 * Text chunks only (binary Lua chunks are refused), a sandbox without file
 * or OS access, and tight budgets so every input ends quickly.
 */
#include <stdint.h>

#include "fuzz.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scn_opts o = {
		.out = NULL,
		.sandbox = 1,
		.max_steps = 200000,
		.mem_limit = 32u << 20,
		.mem_budget = 16u << 20,
		/* A run of a spinning HWSQ takes seconds at the default budget
		 * under ASan and coverage; a script could loop over runs. */
		.run_budget = 100000,
	};
	struct scn_result r;
	scn_run_buffer((const char *)data, size, "fuzz.lua", &o, &r);
	return 0;
}
