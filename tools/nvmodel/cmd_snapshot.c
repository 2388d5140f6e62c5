/*
 * nvmodel snapshot info|check FILE: what a save state (nvm_snapshot_save,
 * gpu:snapshot() in a scenario) holds, and whether the model takes it back.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nvmodel/nvmodel.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: %s snapshot info FILE [--json]\n"
	        "       %s snapshot check FILE [--json]\n"
	        "\n"
	        "Save states of a GPU (nvm_snapshot_save; gpu:snapshot() in a scenario).\n"
	        "  info   the header: format, library version, chip, virtual time, aperture\n"
	        "         sizes, pages held and caller-owned ranges; every section's length\n"
	        "         and CRC are checked\n"
	        "  check  opens a GPU of the snapshot's chip and sizes and loads it: every\n"
	        "         block's state is checked as a load checks it (a snapshot with\n"
	        "         caller-owned ranges needs the program that mapped them)\n"
	        "Exit 0: a good snapshot; 1: refused (the reason is printed); 2: usage or\n"
	        "unreadable file.\n",
	        cli_prog, cli_prog);
}

static void print_info(const nvm_snapshot_info *in, bool json)
{
	if (json) {
		printf("{\"format\": %u, \"version\": ", in->format);
		json_str(stdout, in->version);
		printf(", \"chip\": ");
		json_str(stdout, in->chip);
		printf(", \"time_ns\": %llu, \"vram_size\": %llu, \"sysmem_size\": %llu, \"vram_pages\": %llu, "
		       "\"sysmem_pages\": %llu, \"vram_ranges\": %llu, \"sysmem_ranges\": %llu, \"sections\": %llu",
		       (unsigned long long)in->time_ns, (unsigned long long)in->vram_size,
		       (unsigned long long)in->sysmem_size, (unsigned long long)in->vram_pages,
		       (unsigned long long)in->sysmem_pages, (unsigned long long)in->vram_ranges,
		       (unsigned long long)in->sysmem_ranges, (unsigned long long)in->sections);
		return;
	}
	printf("format        %u\n", in->format);
	printf("version       %s\n", in->version);
	printf("chip          %s\n", in->chip);
	printf("time          %llu ns\n", (unsigned long long)in->time_ns);
	printf("vram          0x%llx bytes, %llu pages held, %llu caller ranges\n", (unsigned long long)in->vram_size,
	       (unsigned long long)in->vram_pages, (unsigned long long)in->vram_ranges);
	printf("sysmem        0x%llx bytes, %llu pages held, %llu caller ranges\n", (unsigned long long)in->sysmem_size,
	       (unsigned long long)in->sysmem_pages, (unsigned long long)in->sysmem_ranges);
	printf("sections      %llu (lengths and CRCs good)\n", (unsigned long long)in->sections);
}

/* A refusal: in the JSON object, or as a line on stderr. */
static int refused(const char *cmd, const char *path, bool json, bool open, nvm_status st, const char *what)
{
	if (json) {
		printf("%s\"ok\": false, \"status\": ", open ? ", " : "{");
		json_str(stdout, nvm_status_str(st));
		printf(", \"reason\": ");
		json_str(stdout, what);
		printf("}\n");
		return EXIT_FAIL;
	}
	return cli_error(EXIT_FAIL, cmd, "%s: %s: %s", path, what, nvm_status_str(st));
}

/* Loads the snapshot into a GPU opened from its header. */
static int check(const char *cmd, const char *path, const uint8_t *buf, size_t len, const nvm_snapshot_info *in,
                 bool json)
{
	if (in->vram_ranges || in->sysmem_ranges)
		return refused(cmd, path, json, true, NVM_ERR_ARG,
		               "it has caller-owned ranges: load it from the program that maps them");
	nvm_config cfg = { .chip = in->chip, .vram_size = in->vram_size, .sysmem_size = in->sysmem_size };
	nvm_gpu *gpu = NULL;
	nvm_status st = nvm_open(&cfg, &gpu);
	if (st)
		return refused(cmd, path, json, true, st, "no GPU of its chip and sizes can be opened");
	st = nvm_snapshot_load(gpu, buf, len);
	nvm_close(gpu);
	if (st)
		return refused(cmd, path, json, true, st, "the model refuses it");
	if (json)
		printf(", \"ok\": true}\n");
	else
		printf("ok: a %s GPU takes it back\n", in->chip);
	return EXIT_OK;
}

int cmd_snapshot(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("snapshot", "missing sub-command (info or check)");
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	bool is_check = !strcmp(argv[1], "check");
	if (!is_check && strcmp(argv[1], "info"))
		return cli_usage_error("snapshot", "unknown sub-command '%s' (info or check)", argv[1]);
	const char *cmd = is_check ? "snapshot check" : "snapshot info";
	const char *path = NULL;
	bool json = false;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
		else if (path)
			return cli_usage_error(cmd, "unexpected argument '%s' (one FILE)", argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return cli_usage_error(cmd, "missing FILE");
	uint8_t *buf;
	size_t len;
	int rc = cli_read_input(cmd, path, &buf, &len);
	if (rc)
		return rc;
	nvm_snapshot_info in;
	nvm_status st = nvm_snapshot_peek(buf, len, &in);
	if (st) {
		rc = refused(cmd, path, json, false, st, "not a snapshot this version reads");
	} else {
		if (!is_check || json)
			print_info(&in, json);
		if (is_check)
			rc = check(cmd, path, buf, len, &in, json);
		else if (json)
			printf("}\n");
	}
	free(buf);
	return rc;
}
