#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* ---------------------------------------------------------------- signals */

/* The temporaries that exist now: a signal that ends the tool (SIGTERM,
 * SIGINT, SIGHUP, SIGPIPE...) removes them before it takes effect, so an
 * interrupted command leaves the old file and nothing beside it (SIGKILL
 * cannot be caught). A slot is one pointer store, filled with signals
 * blocked; the handler calls only unlink, signal and raise, which are
 * async-signal-safe. */
#define MAX_TEMPS 4
static const char *volatile temps[MAX_TEMPS];

static void on_fatal_signal(int sig)
{
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temps[i])
			unlink(temps[i]);
	signal(sig, SIG_DFL);
	raise(sig); /* blocked until this handler returns, then fatal */
}

/* The signals whose default action ends the process and which a user or a
 * pipeline sends; a signal the tool was started with ignored (a background
 * job's SIGINT) stays ignored. */
static void catch_fatal_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGXCPU, SIGXFSZ };
	static bool done;
	if (done)
		return;
	done = true;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa = { .sa_handler = on_fatal_signal };
		sigemptyset(&sa.sa_mask);
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

static void temp_track(const char *path, bool add)
{
	for (int i = 0; i < MAX_TEMPS; i++) {
		if (add ? !temps[i] : temps[i] == path) {
			temps[i] = add ? path : NULL;
			return;
		}
	}
}

/* ---------------------------------------------------------------- files */

bool out_is_stdout(const char *path)
{
	return !strcmp(path, "-");
}

/* A FIFO, a device or a dangling symlink: open what the path names. */
static int open_through(struct out_file *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;
}

static mode_t new_file_mode(void)
{
	/* The tool is single-threaded: reading the umask by setting it is safe. */
	mode_t m = umask(0);
	umask(m);
	return 0666 & ~m;
}

/* A temporary beside target, unpredictable and created exclusively, so a
 * symlink planted at its name is never followed. Takes target. */
static int open_temp(struct out_file *o, char *target, mode_t mode, bool exists)
{
	char *d = strdup(target), *b = strdup(target);
	size_t n = strlen(target) + 16;
	char *tmp = malloc(n);
	int fd = -1, e = ENOMEM;
	if (d && b && tmp) {
		snprintf(tmp, n, "%s/.%s.XXXXXX", dirname(d), basename(b));
		/* Signals wait while the file is created and tracked: no
		 * moment where it exists and a signal would not remove it. */
		catch_fatal_signals();
		sigset_t all, old;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		fd = mkstemp(tmp);
		e = errno;
		if (fd >= 0)
			temp_track(tmp, true);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	free(d);
	free(b);
	if (fd < 0) {
		free(tmp);
		/* No temporary in that directory (not writable), but the file
		 * itself may be: write it in place. */
		int rc = exists && (e == EACCES || e == EROFS || e == EPERM) ? open_through(o, target) : -1;
		free(target);
		errno = rc ? e : 0;
		return rc;
	}
	if (fchmod(fd, mode) || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(tmp);
		temp_track(tmp, false);
		free(tmp);
		free(target);
		errno = e;
		return -1;
	}
	o->tmp = tmp;
	o->target = target;
	return 0;
}

int out_open(struct out_file *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->name = path;
	if (out_is_stdout(path)) {
		o->f = stdout;
		o->is_stdout = true;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		if (!S_ISREG(st.st_mode))
			return open_through(o, path);
		/* Replace the file the path leads to, not a symlink on the way. */
		char *real = realpath(path, NULL);
		if (!real)
			return -1;
		return open_temp(o, real, st.st_mode & 07777, true);
	}
	if (errno != ENOENT)
		return -1;
	if (lstat(path, &st) == 0) /* a dangling symlink: create what it names */
		return open_through(o, path);
	char *target = strdup(path);
	if (!target) {
		errno = ENOMEM;
		return -1;
	}
	return open_temp(o, target, new_file_mode(), false);
}

static void release(struct out_file *o)
{
	if (o->tmp) /* renamed or removed by now */
		temp_track(o->tmp, false);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	o->f = NULL;
}

int out_commit(struct out_file *o)
{
	if (!o->f)
		return -1;
	if (o->is_stdout) {
		int rc = fflush(stdout) || ferror(stdout) ? -1 : 0;
		o->f = NULL;
		return rc;
	}
	int rc = ferror(o->f) ? -1 : 0;
	if (fclose(o->f))
		rc = -1;
	int e = errno;
	if (o->tmp) {
		if (!rc && rename(o->tmp, o->target))
			rc = -1, e = errno;
		if (rc)
			unlink(o->tmp);
	}
	release(o);
	errno = e;
	return rc;
}

void out_abort(struct out_file *o)
{
	if (!o->f)
		return;
	if (o->is_stdout) {
		fflush(stdout);
		o->f = NULL;
		return;
	}
	fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}
