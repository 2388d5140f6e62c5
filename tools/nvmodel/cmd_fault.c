/*
 * nvmodel fault decode: fault-buffer packets (seed 003, 32 bytes each) with
 * every field named.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nvmodel/mmu.h"

static void decode_help(void)
{
	printf("usage: %s fault decode FILE [--chip C] [--all] [--json]\n\n"
	       "Decodes a dump of a GPU fault buffer: 32-byte packets (NV_MMU_FAULT_BUF_ENTRY)\n"
	       "with the fault type, access type, engine and client by name. Entries with\n"
	       "VALID clear are skipped unless --all. --json prints one object per entry.\n"
	       "--chip names the MMU engine ids as that chip's GMMU numbers them (default\n"
	       "gv100; any chip whose blocks include mmu).\n",
	       cli_prog);
}

static const char *inst_ap_name(unsigned a)
{
	static const char *const n[4] = { "vram", "invalid", "sysmem_coh", "sysmem_ncoh" };
	return n[a & 3];
}

static const char *or_unknown(const char *s)
{
	return s ? s : "UNKNOWN";
}

static void print_entry(const char *chip, size_t idx, const nvm_mmu_fault_info *f, bool json)
{
	char eng[32], cli[32];
	nvm_mmu_chip_engine_name(chip, f->engine_id, eng, sizeof(eng));
	nvm_mmu_client_name(f->client_type, f->client, cli, sizeof(cli));
	const char *type = or_unknown(nvm_mmu_fault_type_name(f->fault_type));
	const char *acc = or_unknown(nvm_mmu_access_name(f->access_type));
	if (json) {
		printf("{\"index\": %zu, \"valid\": %s, \"fault_type\": \"%s\", \"fault_type_id\": %u, "
		       "\"access_type\": \"%s\", "
		       "\"addr\": %llu, \"addr_phys_aperture\": %u, \"inst_aperture\": \"%s\", \"inst\": %llu, "
		       "\"timestamp\": %llu, \"engine_id\": %u, \"engine\": ",
		       idx, f->valid ? "true" : "false", type, f->fault_type, acc, (unsigned long long)f->addr,
		       f->addr_phys_aperture, inst_ap_name(f->inst_aperture), (unsigned long long)f->inst_addr,
		       (unsigned long long)f->timestamp, f->engine_id);
		json_str(stdout, eng);
		printf(", \"client_type\": \"%s\", \"client_id\": %u, \"client\": \"%s\", \"gpc_id\": %u, "
		       "\"replayable_fault\": %s, \"replayable_fault_en\": %s, \"protected_mode\": %s}\n",
		       f->client_type ? "HUB" : "GPC", f->client, cli, f->gpc_id, f->replayable ? "true" : "false",
		       f->replayable_en ? "true" : "false", f->protected_mode ? "true" : "false");
		return;
	}
	printf("#%zu%s %s %s va 0x%llx engine %s (%u) client %s %s (%u)", idx, f->valid ? "" : " (invalid)", type, acc,
	       (unsigned long long)f->addr, eng, f->engine_id, f->client_type ? "HUB" : "GPC", cli, f->client);
	if (!f->client_type)
		printf(" gpc %u", f->gpc_id);
	printf("\n    inst %s:0x%llx timestamp %llu replayable_fault=%d replayable_fault_en=%d",
	       inst_ap_name(f->inst_aperture), (unsigned long long)f->inst_addr, (unsigned long long)f->timestamp,
	       f->replayable, f->replayable_en);
	if (f->addr_phys_aperture)
		printf(" addr_phys_aperture=%u", f->addr_phys_aperture);
	if (f->protected_mode)
		printf(" protected_mode=1");
	printf("\n");
}

static int fault_decode(int argc, char **argv)
{
	const char *cmd = "fault decode";
	if (cli_wants_help(argc, argv)) {
		decode_help();
		return EXIT_OK;
	}
	const char *path = NULL, *chip = "gv100";
	bool json = false, all = false;
	for (int i = 1; i < argc; i++) {
		int r = cli_opt(argc, argv, &i, "--chip", &chip);
		if (r < 0)
			return cli_bad_opt(cmd, argv[i], NULL, "a value");
		if (r)
			continue;
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--all"))
			all = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error(cmd, "unexpected option '%s'", argv[i]);
		else if (path)
			return cli_usage_error(cmd, "more than one FILE");
		else
			path = argv[i];
	}
	if (!path)
		return cli_usage_error(cmd, "FILE is required");
	char probe[8];
	if (!nvm_mmu_chip_engine_name(chip, 0, probe, sizeof(probe)))
		return cli_bad_opt(cmd, "--chip", chip, "a chip with a GMMU (see 'nvmodel chips')");
	size_t len;
	uint8_t *data;
	int rc = cli_read_input(cmd, path, &data, &len);
	if (rc)
		return rc;
	size_t n = len / NVM_MMU_PACKET_SIZE, shown = 0;
	for (size_t i = 0; i < n; i++) {
		nvm_mmu_fault_info f;
		nvm_mmu_packet_decode(data + i * NVM_MMU_PACKET_SIZE, &f);
		if (!f.valid && !all)
			continue;
		print_entry(chip, i, &f, json);
		shown++;
	}
	if (!json)
		printf("%zu of %zu entries shown\n", shown, n);
	if (len % NVM_MMU_PACKET_SIZE)
		rc = cli_error(EXIT_FAIL, cmd, "%s: %zu trailing byte(s) after the last 32-byte packet", path,
		               len % NVM_MMU_PACKET_SIZE);
	free(data);
	return rc;
}

int cmd_fault(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("fault", "missing sub-command (decode)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		printf("usage: %s fault decode FILE [--chip C] [--all] [--json]\n\nRun '%s fault decode --help' for "
		       "details.\n",
		       cli_prog, cli_prog);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "decode"))
		return fault_decode(argc - 1, argv + 1);
	return cli_usage_error("fault", "unknown sub-command '%s' (decode)", argv[1]);
}
