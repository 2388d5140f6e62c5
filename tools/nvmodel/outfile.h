/*
 * Output files of the tool (--trace, -o): opened before any work is done,
 * so an unwritable output fails first, and written so that nothing but the
 * named file changes.
 *
 *  - "-" is standard output.
 *  - A path naming something other than a regular file (a FIFO, a device,
 *    /dev/stdout) is written through, like a shell redirection.
 *  - A regular file, a new file, or a symlink to a regular file gets a
 *    temporary created with mkstemp in the directory of the real file
 *    (symlinks resolved); out_commit renames it over that file, so a failed
 *    run leaves the old contents and a symlink stays a symlink. A signal
 *    that ends the tool (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU,
 *    SIGXFSZ) removes the temporary first.
 */
#ifndef NVM_OUTFILE_H
#define NVM_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct out_file {
	FILE *f;
	const char *name; /* as given, for messages */
	char *target;     /* the file the temporary replaces; NULL when writing through */
	char *tmp;        /* the temporary's path */
	bool is_stdout;
};

/* Returns 0, or -1 with errno set (nothing is left behind then). */
int out_open(struct out_file *o, const char *path);
/* Flushes and puts the output in place; 0, or -1 with errno set. */
int out_commit(struct out_file *o);
/* Drops the output: removes the temporary (what was written through a FIFO
 * or device is gone already). */
void out_abort(struct out_file *o);
/* Does path name standard output ("-")? */
bool out_is_stdout(const char *path);

#endif
