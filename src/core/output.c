/* Durable output files (bcast/output.h): a temporary file beside the
 * target, synced, renamed over it, the directory synced; devices, FIFOs
 * and sockets written through.
 *
 * An output moves through three states.  Open: the bytes go to fd (an
 * unnamed O_TMPFILE, a named temporary file or the device itself) through
 * a small buffer.  Sealed (seal()): flushed, owner and mode copied from the
 * old file, fsync'ed, and an unnamed file linked into the directory under
 * a temporary name, so every output of a commit_all is complete before the
 * first becomes visible.  Published (publish()): renamed over the target,
 * the directory fsync'ed.  A failure in any state before the rename drops
 * the temporary file, leaving the target as it was. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/diag.h"
#include "core/output.h"

/* Bytes gathered before a write(2): the .npy writer hands over 1 MiB
 * blocks, the MLIR emitter a few bytes at a time. */
#define OUTPUT_BUFFER_BYTES ((size_t)64 << 10)

typedef enum output_kind {
  OUTPUT_THROUGH, /* a device, FIFO or socket, written in place */
  OUTPUT_UNNAMED, /* an O_TMPFILE file, linked under tmp_name when sealed */
  OUTPUT_NAMED    /* a temporary file created under tmp_name */
} output_kind;

struct bcast_output {
  char *shown;       /* the path as given, for messages */
  char *dir;         /* the target's directory ("." for none) */
  char *base;        /* the target's name in dir */
  char tmp_name[64]; /* the temporary file's name in dir, "" for none */
  output_kind kind;
  int fd, dir_fd;
  int slot;    /* the temp table slot of tmp_name, or -1 */
  int has_old; /* replacing an existing file: copy its owner, mode */
  int append;  /* written through to a regular file (/dev/stdout) */
  struct stat old;
  int err; /* the first write's errno, 0 while all is well */
  unsigned char *buf;
  size_t len;
};

/* ------------------------------------------------------------------------ */
/* The named temporary files a signal handler removes.  A slot is claimed
 * (1) while its path is written, armed (2) just before the file is created
 * (a handler in another thread may run at any moment; unlinking a name not
 * yet created is harmless, and the names carry the pid), and freed (0)
 * after the file was renamed or removed.  Only lock-free atomics and
 * unlink(2) are touched by the handler. */

#define TEMP_SLOTS 64
#define TEMP_PATH_MAX 4096

static char temp_paths[TEMP_SLOTS][TEMP_PATH_MAX];
static atomic_int temp_state[TEMP_SLOTS];

static int temp_arm(const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  if (dl + nl + 2 > TEMP_PATH_MAX) return -1;
  for (int i = 0; i < TEMP_SLOTS; i++) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&temp_state[i], &expected, 1))
      continue;
    memcpy(temp_paths[i], dir, dl);
    temp_paths[i][dl] = '/';
    memcpy(temp_paths[i] + dl + 1, name, nl + 1);
    atomic_store(&temp_state[i], 2);
    return i;
  }
  return -1; /* the table is full: the file is just not removed on a signal */
}

static void temp_release(int slot) {
  if (slot >= 0) atomic_store(&temp_state[slot], 0);
}

void bcast_output_remove_temps(void) {
  for (int i = 0; i < TEMP_SLOTS; i++)
    if (atomic_load(&temp_state[i]) == 2) unlink(temp_paths[i]);
}

/* ------------------------------------------------------------------------ */
/* Opening. */

static bcast_status os_fail(bcast_diag *diag, const char *what,
                            const char *path, int err) {
  return bcast__fail(diag, err == ENOMEM ? BCAST_NO_MEMORY : BCAST_IO,
                     "%s: %s%s%s", path, what, *what ? ": " : "",
                     strerror(err));
}

static char *copy_text(const char *s, size_t n) {
  char *c = bcast__malloc(n + 1);
  if (c) {
    memcpy(c, s, n);
    c[n] = '\0';
  }
  return c;
}

static atomic_uint temp_counter;

/* Creates a file named ".bcast-tmp-<pid>-<n>" in o->dir_fd. */
static int create_named(bcast_output *o) {
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned n = atomic_fetch_add(&temp_counter, 1u);
    snprintf(o->tmp_name, sizeof o->tmp_name, ".bcast-tmp-%ld-%u",
             (long)getpid(), n);
    /* Entered in the table first: a signal handled by another thread at
     * any moment after the file appears must find it. */
    o->slot = temp_arm(o->dir, o->tmp_name);
    int fd = openat(o->dir_fd, o->tmp_name,
                    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    int err = errno;
    temp_release(o->slot);
    o->slot = -1;
    errno = err;
    if (errno != EEXIST) break;
  }
  o->tmp_name[0] = '\0';
  return -1;
}

/* Opens the temporary file in the target's directory. */
static bcast_status open_temp(bcast_output *o, bcast_diag *diag) {
  o->dir_fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (o->dir_fd < 0)
    return os_fail(diag, "cannot open its directory", o->shown, errno);
#if defined(O_TMPFILE)
  /* BCAST_OUTPUT_NAMED_TEMP=1 takes the named fallback everywhere: the
   * tests' way to reach it on file systems that have O_TMPFILE. */
  const char *named = getenv("BCAST_OUTPUT_NAMED_TEMP");
  if (named && *named && strcmp(named, "0") != 0) goto fallback;
  o->fd = openat(o->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (o->fd >= 0) {
    o->kind = OUTPUT_UNNAMED;
    return BCAST_OK;
  }
  /* Only "this file system has no O_TMPFILE" falls back. */
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
      errno != ENOENT)
    return os_fail(diag, "cannot create a file in its directory", o->shown,
                   errno);
fallback:
#endif
  o->kind = OUTPUT_NAMED;
  o->fd = create_named(o);
  if (o->fd < 0)
    return os_fail(diag, "cannot create a file in its directory", o->shown,
                   errno);
  return BCAST_OK;
}

/* Splits target into o->dir and o->base. */
static bcast_status split_target(bcast_output *o, const char *target,
                                 bcast_diag *diag) {
  const char *slash = strrchr(target, '/');
  if (!slash) {
    o->dir = copy_text(".", 1);
    o->base = copy_text(target, strlen(target));
  } else {
    o->dir = copy_text(target, slash == target ? 1 : (size_t)(slash - target));
    o->base = copy_text(slash + 1, strlen(slash + 1));
  }
  if (!o->dir || !o->base)
    return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", o->shown);
  return BCAST_OK;
}

/* Whether path names an open file descriptor of the process
 * (/dev/stdout, /dev/fd/N, ...): written through like a device. */
static int names_descriptor(const char *path) {
  return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
         !strncmp(path, "/dev/fd/", 8) || !strncmp(path, "/proc/self/fd/", 14);
}

/* Decides how to write path: fills o->kind (OUTPUT_THROUGH or not yet
 * known), dir, base and the old file's status. */
static bcast_status classify(bcast_output *o, const char *path,
                             bcast_diag *diag) {
  struct stat ls, st;
  size_t len = strlen(path);
  if (len == 0) return bcast__fail(diag, BCAST_IO, "an output path is empty");
  if (path[len - 1] == '/') return os_fail(diag, "", path, EISDIR);
  if (names_descriptor(path) && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
    /* A shell redirection: '>' left the file empty, '>>' wants the bytes
     * at its end; appending serves both. */
    o->kind = OUTPUT_THROUGH;
    o->append = S_ISREG(st.st_mode);
    return BCAST_OK;
  }
  if (lstat(path, &ls) != 0) {
    if (errno != ENOENT) return os_fail(diag, "", path, errno);
    o->kind = OUTPUT_NAMED;
    return split_target(o, path, diag); /* a new file */
  }
  st = ls;
  if (S_ISLNK(ls.st_mode) && stat(path, &st) != 0) {
    if (errno == ENOENT)
      return bcast__fail(diag, BCAST_IO,
                         "%s: a dangling symbolic link (its target does not "
                         "exist); refusing to write through it",
                         path);
    return os_fail(diag, "", path, errno);
  }
  if (S_ISDIR(st.st_mode)) return os_fail(diag, "", path, EISDIR);
  if (!S_ISREG(st.st_mode)) {
    o->kind = OUTPUT_THROUGH;
    return BCAST_OK;
  }
  o->has_old = 1;
  o->old = st;
  o->kind = OUTPUT_NAMED;
  if (!S_ISLNK(ls.st_mode)) return split_target(o, path, diag);
  /* Replace the link's target, in the target's directory. */
  char *real = realpath(path, NULL);
  if (!real) return os_fail(diag, "cannot resolve the link", path, errno);
  bcast_status s = split_target(o, real, diag);
  free(real);
  return s;
}

bcast_status bcast_output_open(const char *path, bcast_output **out,
                               bcast_diag *diag) {
  if (!out || !path)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_output_open: invalid argument");
  *out = NULL;
  bcast_output *o = bcast__calloc(1, sizeof *o);
  if (!o) return bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  o->fd = o->dir_fd = o->slot = -1;
  o->shown = copy_text(path, strlen(path));
  o->buf = bcast__malloc(OUTPUT_BUFFER_BYTES);
  bcast_status st = BCAST_OK;
  if (!o->shown || !o->buf)
    st = bcast__fail(diag, BCAST_NO_MEMORY, "%s: out of memory", path);
  if (st == BCAST_OK) st = classify(o, path, diag);
  if (st == BCAST_OK && o->kind == OUTPUT_THROUGH) {
    o->fd = open(path,
                 O_WRONLY | O_CLOEXEC | O_NOCTTY | (o->append ? O_APPEND : 0));
    if (o->fd < 0) st = os_fail(diag, "cannot open for writing", path, errno);
  } else if (st == BCAST_OK) {
    st = open_temp(o, diag);
  }
  if (st != BCAST_OK) {
    bcast_output_discard(o);
    return st;
  }
  *out = o;
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Writing. */

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t got = write(fd, p, n > (size_t)SSIZE_MAX ? (size_t)SSIZE_MAX : n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return got == 0 ? ENOSPC : errno;
    p += got;
    n -= (size_t)got;
  }
  return 0;
}

static int flush_buffer(bcast_output *o) {
  if (!o->err && o->len) o->err = write_all(o->fd, o->buf, o->len);
  o->len = 0;
  return o->err;
}

bcast_status bcast_output_write(void *output, const void *bytes, size_t len) {
  bcast_output *o = output;
  const unsigned char *p = bytes;
  if (!o->err && o->len + len > OUTPUT_BUFFER_BYTES) {
    flush_buffer(o);
    if (!o->err && len >= OUTPUT_BUFFER_BYTES) {
      o->err = write_all(o->fd, p, len);
      len = 0;
    }
  }
  if (!o->err && len) {
    memcpy(o->buf + o->len, p, len);
    o->len += len;
  }
  if (o->err) {
    errno = o->err;
    return BCAST_IO;
  }
  return BCAST_OK;
}

int bcast__output_seekable(const bcast_output *o) {
  return o->kind != OUTPUT_THROUGH;
}

const char *bcast__output_path(const bcast_output *o) { return o->shown; }

bcast_status bcast__output_pwrite(bcast_output *o, uint64_t offset,
                                  const void *bytes, size_t len) {
  const unsigned char *p = bytes;
  if (!flush_buffer(o) && o->kind == OUTPUT_THROUGH) o->err = ESPIPE;
  while (!o->err && len > 0) {
    ssize_t got = pwrite(o->fd, p, len, (off_t)offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      o->err = got == 0 ? ENOSPC : errno;
      break;
    }
    p += got;
    len -= (size_t)got;
    offset += (uint64_t)got;
  }
  if (o->err) {
    errno = o->err;
    return BCAST_IO;
  }
  return BCAST_OK;
}

/* ------------------------------------------------------------------------ */
/* Committing. */

/* Links an unnamed file into its directory under a temporary name. */
static int link_unnamed(bcast_output *o) {
#if defined(O_TMPFILE)
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned n = atomic_fetch_add(&temp_counter, 1u);
    snprintf(o->tmp_name, sizeof o->tmp_name, ".bcast-tmp-%ld-%u",
             (long)getpid(), n);
    o->slot = temp_arm(o->dir, o->tmp_name); /* first, as in create_named */
    int rc = linkat(AT_FDCWD, proc, o->dir_fd, o->tmp_name, AT_SYMLINK_FOLLOW);
    if (rc != 0 && errno == ENOENT) /* no /proc: needs CAP_DAC_READ_SEARCH */
      rc = linkat(o->fd, "", o->dir_fd, o->tmp_name, AT_EMPTY_PATH);
    if (rc == 0) return 0;
    int err = errno;
    temp_release(o->slot);
    o->slot = -1;
    errno = err;
    if (errno != EEXIST) break;
  }
  int err = errno;
  o->tmp_name[0] = '\0';
  return err;
#else
  (void)o;
  return ENOTSUP;
#endif
}

/* Completes the file: every byte written and synced, the old file's owner
 * and mode on it, and (unless written through) a name in the directory. */
static bcast_status seal(bcast_output *o, bcast_diag *diag) {
  if (flush_buffer(o)) return os_fail(diag, "write failed", o->shown, o->err);
  if (o->kind == OUTPUT_THROUGH) {
    int rc = close(o->fd);
    o->fd = -1;
    if (rc != 0 && errno != EINTR)
      return os_fail(diag, "write failed", o->shown, errno);
    return BCAST_OK;
  }
  if (o->has_old) {
    /* Owner first: fchown clears the set-user-ID bits fchmod restores.
     * Giving a file away needs privileges; without them it stays ours. */
    if ((o->old.st_uid != geteuid() || o->old.st_gid != getegid()) &&
        fchown(o->fd, o->old.st_uid, o->old.st_gid) != 0 && errno != EPERM)
      return os_fail(diag, "cannot set the owner", o->shown, errno);
    if (fchmod(o->fd, o->old.st_mode & 07777) != 0)
      return os_fail(diag, "cannot set the permissions", o->shown, errno);
  }
  if (fsync(o->fd) != 0)
    return os_fail(diag, "cannot sync the file", o->shown, errno);
  if (o->kind == OUTPUT_UNNAMED) {
    int err = link_unnamed(o);
    if (err)
      return os_fail(diag, "cannot link the new file into its directory",
                     o->shown, err);
  }
  int rc = close(o->fd);
  o->fd = -1;
  if (rc != 0 && errno != EINTR)
    return os_fail(diag, "write failed", o->shown, errno);
  return BCAST_OK;
}

/* Renames the sealed file over the target. */
static bcast_status publish(bcast_output *o, bcast_diag *diag) {
  if (o->kind == OUTPUT_THROUGH) return BCAST_OK;
  if (renameat(o->dir_fd, o->tmp_name, o->dir_fd, o->base) != 0)
    return os_fail(diag, "cannot replace the file", o->shown, errno);
  o->tmp_name[0] = '\0';
  temp_release(o->slot);
  o->slot = -1;
  return BCAST_OK;
}

static bcast_status sync_dir(bcast_output *o, bcast_diag *diag) {
  if (o->kind == OUTPUT_THROUGH) return BCAST_OK;
  /* Some file systems cannot sync a directory (EINVAL): nothing to do. */
  if (fsync(o->dir_fd) != 0 && errno != EINVAL && errno != EROFS)
    return os_fail(diag,
                   "the file was replaced, but syncing its directory "
                   "failed",
                   o->shown, errno);
  return BCAST_OK;
}

bcast_status bcast_output_reserve(bcast_output *o, uint64_t bytes,
                                  bcast_diag *diag) {
  if (!o)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_output_reserve: invalid argument");
  if (o->kind == OUTPUT_THROUGH || bytes == 0 || bytes > (uint64_t)INT64_MAX)
    return BCAST_OK;
#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE)
  /* Blocks only: the size stays what is written, so a reservation larger
   * than the data can never leave zeros at the end of the file. */
  if (fallocate(o->fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)bytes) != 0 &&
      errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
    char what[64];
    snprintf(what, sizeof what, "cannot reserve %llu bytes",
             (unsigned long long)bytes);
    return os_fail(diag, what, o->shown, errno);
  }
#endif
  return BCAST_OK;
}

void bcast_output_discard(bcast_output *o) {
  if (!o) return;
  if (o->fd >= 0) close(o->fd);
  if (o->tmp_name[0] && o->dir_fd >= 0) unlinkat(o->dir_fd, o->tmp_name, 0);
  temp_release(o->slot);
  if (o->dir_fd >= 0) close(o->dir_fd);
  bcast__free(o->buf);
  bcast__free(o->shown);
  bcast__free(o->dir);
  bcast__free(o->base);
  bcast__free(o);
}

bcast_status bcast_output_commit_all(size_t n, bcast_output *const *outputs,
                                     bcast_diag *diag) {
  if (n && !outputs)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_output_commit_all: invalid argument");
  bcast_status st = BCAST_OK;
  for (size_t i = 0; i < n && st == BCAST_OK; i++) {
    if (!outputs[i])
      st = bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_output_commit_all: output %zu is NULL", i);
    else
      st = seal(outputs[i], diag);
  }
  for (size_t i = 0; i < n && st == BCAST_OK; i++)
    st = publish(outputs[i], diag);
  for (size_t i = 0; i < n && st == BCAST_OK; i++)
    st = sync_dir(outputs[i], diag);
  for (size_t i = 0; i < n; i++) bcast_output_discard(outputs[i]);
  return st;
}

bcast_status bcast_output_commit(bcast_output *output, bcast_diag *diag) {
  if (!output)
    return bcast__fail(diag, BCAST_INVALID_ARGUMENT,
                       "bcast_output_commit: invalid argument");
  return bcast_output_commit_all(1, &output, diag);
}
