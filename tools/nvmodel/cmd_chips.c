/* nvmodel chips: the chip profiles (const data in src/chips/chips.c). */
#include <string.h>

#include "cli.h"
#include "nvmodel/nvmodel.h"

int cmd_chips(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		printf("usage: %s chips [--json]\n\nLists the chip profiles: name, family, PMC_BOOT_0, the\n"
		       "largest VRAM and system memory, and the blocks modelled.\n",
		       cli_prog);
		return EXIT_OK;
	}
	bool json;
	int rc = cli_only_json("chips", argc, argv, &json);
	if (rc)
		return rc;
	if (!json)
		printf("%-7s %-6s %-10s %-18s %-18s %s\n", "chip", "family", "boot_0", "vram_max", "sysmem_max",
		       "blocks");
	for (size_t i = 0; i < nvm_chip_count(); i++) {
		const nvm_chip_info *c = nvm_chip_get(i);
		if (json) {
			printf("{\"chip\": \"%s\", \"family\": \"%s\", \"boot_0\": %u, \"vram_max\": %llu, "
			       "\"sysmem_max\": %llu, \"blocks\": ",
			       c->name, c->family, c->boot_0, (unsigned long long)c->vram_max,
			       (unsigned long long)c->sysmem_max);
			json_str(stdout, c->blocks);
			printf("}\n");
		} else {
			printf("%-7s %-6s 0x%08x 0x%-16llx 0x%-16llx %s\n", c->name, c->family, c->boot_0,
			       (unsigned long long)c->vram_max, (unsigned long long)c->sysmem_max, c->blocks);
		}
	}
	return EXIT_OK;
}
