/* Replays files (or every file of directories) through a fuzz target, for
 * builds without libFuzzer: standalone CORPUS_DIR_OR_FILE... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return 1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: not found\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc |= run_file(argv[i]);
			files++;
			continue;
		}
		struct dirent **ents;
		int n = scandir(argv[i], &ents, NULL, alphasort);
		for (int j = 0; j < n; j++) {
			if (ents[j]->d_name[0] != '.') {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", argv[i], ents[j]->d_name);
				rc |= run_file(path);
				files++;
			}
			free(ents[j]);
		}
		free(ents);
	}
	printf("%d inputs replayed\n", files);
	return rc || files == 0;
}
