/* The process's own descriptors: standard input and output.
 *
 * Either may be a pipe that a parent made non-blocking.  O_NONBLOCK belongs
 * to the open file description, which the parent (and anything else on the
 * pipe) shares, so bcast leaves it set and waits instead: a read or write
 * that would block (EAGAIN) polls until the descriptor is ready.
 *
 * The reader of standard output may go away.  SIGPIPE is ignored, so the
 * write fails with EPIPE and is reported like any other write error,
 * naming the output ("bcast: <stdout>: write failed: Broken pipe", exit 2),
 * and the durable writer discards what it had begun; the process never
 * dies of the signal without a word.
 *
 * Text printed through stdio takes the same path: on glibc, stdout and
 * stderr become cookie streams over cli_fd_write (the C library's own
 * streams drop buffered text on EAGAIN).  Elsewhere stdio is left as it is
 * and a failed standard output is still found and reported when the
 * command ends (cli_stdio_finish). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* fopencookie */
#endif
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int would_block(int err) { return err == EAGAIN || err == EWOULDBLOCK; }

/* Waits until fd is ready for events (POLLIN or POLLOUT): 0 or an errno.
 * A hung-up or failed descriptor counts as ready: the next read or write
 * says what happened. */
static int wait_ready(int fd, short events) {
  struct pollfd p;
  p.fd = fd;
  p.events = events;
  for (;;) {
    p.revents = 0;
    if (poll(&p, 1, -1) >= 0) return p.revents & POLLNVAL ? EBADF : 0;
    if (errno != EINTR && errno != EAGAIN) return errno;
  }
}

ptrdiff_t cli_fd_read(int fd, void *buf, size_t cap) {
  for (;;) {
    ssize_t n = read(fd, buf, cap > SSIZE_MAX ? SSIZE_MAX : cap);
    if (n >= 0) return n;
    int err = errno;
    if (err == EINTR || (would_block(err) && !(err = wait_ready(fd, POLLIN))))
      continue;
    errno = err;
    return -1;
  }
}

int cli_fd_write(int fd, const void *bytes, size_t len) {
  const char *p = bytes;
  while (len > 0) {
    ssize_t n = write(fd, p, len > SSIZE_MAX ? SSIZE_MAX : len);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
      continue;
    }
    int err = n == 0 ? EIO : errno;
    if (err == EINTR || (would_block(err) && !(err = wait_ready(fd, POLLOUT))))
      continue;
    return err;
  }
  return 0;
}

/* The first error of standard output's stream, for cli_stdio_finish. */
static int stdout_errno;

#if defined(__GLIBC__)
static ssize_t cookie_write(void *cookie, const char *buf, size_t len) {
  const int fd = (int)(intptr_t)cookie;
  const int err = cli_fd_write(fd, buf, len);
  if (!err) return (ssize_t)len;
  if (fd == STDOUT_FILENO && !stdout_errno) stdout_errno = err;
  errno = err;
  return -1;
}

/* A write-only stream over fd through cli_fd_write; NULL if none could be
 * made (the C library's stream then stays). */
static FILE *cookie_stream(int fd, int mode, size_t size) {
  cookie_io_functions_t io;
  memset(&io, 0, sizeof io);
  io.write = cookie_write;
  FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);
  if (f && setvbuf(f, NULL, mode, size) != 0) {
    fclose(f);
    f = NULL;
  }
  return f;
}
#endif

void cli_stdio_init(void) {
  struct sigaction ign;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, &ign, NULL);
#if defined(__GLIBC__)
  /* The buffering of the streams replaced: standard output line by line on
   * a terminal, else in large blocks; standard error not at all.  (glibc
   * documents stdout and stderr as variables a program may set.) */
  FILE *out = isatty(STDOUT_FILENO)
                  ? cookie_stream(STDOUT_FILENO, _IOLBF, BUFSIZ)
                  : cookie_stream(STDOUT_FILENO, _IOFBF, (size_t)64 << 10);
  if (out) stdout = out;
  FILE *err = cookie_stream(STDERR_FILENO, _IONBF, 0);
  if (err) stderr = err;
#endif
}

int cli_stdio_finish(int rc) {
  const int flushed = fflush(stdout) == 0;
  if (flushed && !ferror(stdout)) return rc;
  int err = stdout_errno ? stdout_errno : !flushed && errno ? errno : EIO;
  /* A command that failed with 2 has said why already (often this very
   * error, in its own words). */
  if (rc != CLI_USAGE) cli_error("<stdout>: write failed: %s", strerror(err));
  return CLI_USAGE;
}
