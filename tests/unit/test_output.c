/* Durable outputs (bcast/output.h): commits, discards, refusals, the table
 * of named temporary files a signal handler empties. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bcast/bcast.h"
#include "test.h"

static char out_dir[64];

static const char *out_path(const char *name) {
  static char buf[4][128];
  static int next;
  if (!out_dir[0]) {
    strcpy(out_dir, "/tmp/bcast-output-test-XXXXXX");
    if (!mkdtemp(out_dir)) return NULL;
  } else if (access(out_dir, F_OK) != 0) {
    mkdir(out_dir, 0700); /* a test that ran before removed it */
  }
  char *b = buf[next++ % 4];
  snprintf(b, sizeof buf[0], "%s/%s", out_dir, name);
  return b;
}

static void put_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The file's first bytes, "" if it cannot be read. */
static const char *file_text(const char *path) {
  static char buf[64];
  buf[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) return buf;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static int entries(void) {
  DIR *d = opendir(out_dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d) closedir(d);
  return n;
}

static void write_text(bcast_output *o, const char *text) {
  bcast_output_write(o, text, strlen(text));
}

TEST(output_commit_all_replaces_every_file_keeping_modes) {
  const char *a = out_path("a.txt"), *b = out_path("b.txt");
  put_file(a, "old a");
  chmod(a, 0600);
  unlink(b);
  bcast_output *o[2] = {NULL, NULL};
  bcast_diag diag;
  CHECK_INT(bcast_output_open(a, &o[0], &diag), BCAST_OK);
  CHECK_INT(bcast_output_open(b, &o[1], &diag), BCAST_OK);
  if (!o[0] || !o[1]) return;
  write_text(o[0], "new a");
  write_text(o[1], "new b");
  CHECK_STR(file_text(a), "old a");
  CHECK_INT(bcast_output_commit_all(2, o, &diag), BCAST_OK);
  CHECK_STR(file_text(a), "new a");
  CHECK_STR(file_text(b), "new b");
  struct stat sb;
  CHECK(stat(a, &sb) == 0 && (sb.st_mode & 07777) == 0600);
  CHECK_INT(entries(), 2);
  unlink(a);
  unlink(b);
}

TEST(output_discard_leaves_the_old_file) {
  const char *a = out_path("a.txt");
  for (int named = 0; named < 2; named++) {
    if (named) setenv("BCAST_OUTPUT_NAMED_TEMP", "1", 1);
    put_file(a, "old");
    bcast_output *o = NULL;
    bcast_diag diag;
    CHECK_INT(bcast_output_open(a, &o, &diag), BCAST_OK);
    write_text(o, "new");
    bcast_output_discard(o);
    CHECK_STR(file_text(a), "old");
    CHECK_INT(entries(), 1);
  }
  unsetenv("BCAST_OUTPUT_NAMED_TEMP");
  unlink(a);
}

/* A signal handler's bcast_output_remove_temps takes the first output's
 * named temporary file: the commit fails at its rename, before the second
 * is published, and no file is left behind. */
TEST(output_commit_all_publishes_none_on_failure) {
  const char *a = out_path("a.txt"), *b = out_path("b.txt");
  put_file(a, "old a");
  put_file(b, "old b");
  setenv("BCAST_OUTPUT_NAMED_TEMP", "1", 1);
  bcast_output *o[2] = {NULL, NULL};
  bcast_diag diag;
  CHECK_INT(bcast_output_open(a, &o[0], &diag), BCAST_OK);
  unsetenv("BCAST_OUTPUT_NAMED_TEMP");
  CHECK_INT(bcast_output_open(b, &o[1], &diag), BCAST_OK);
  if (!o[0] || !o[1]) return;
  write_text(o[0], "new a");
  write_text(o[1], "new b");
  CHECK_INT(entries(), 3); /* a, b and a's named temporary file */
  bcast_output_remove_temps();
  CHECK_INT(entries(), 2);
  CHECK_INT(bcast_output_commit_all(2, o, &diag), BCAST_IO);
  CHECK_CONTAINS(diag.message, a);
  CHECK_CONTAINS(diag.message, "No such file or directory");
  CHECK_STR(file_text(a), "old a");
  CHECK_STR(file_text(b), "old b");
  CHECK_INT(entries(), 2);
  unlink(a);
  unlink(b);
}

TEST(output_refuses_directories_and_dangling_links) {
  const char *dangling = out_path("dangling");
  CHECK(symlink("nowhere", dangling) == 0);
  const char *bad[] = {"", ".", out_dir, "nodir/", dangling};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bcast_output *o = (bcast_output *)&o;
    bcast_diag diag;
    CHECK_INT(bcast_output_open(bad[i], &o, &diag), BCAST_IO);
    CHECK(o == NULL);
    if (bad[i][0]) CHECK_CONTAINS(diag.message, bad[i]);
  }
  CHECK_INT(entries(), 1);
  unlink(dangling);
  rmdir(out_dir);
}

/* A reservation larger than what is written leaves the file exactly the
 * written bytes (blocks only, never zeros past the end); devices ignore
 * it. */
TEST(output_reserve_keeps_the_written_size) {
  const char *a = out_path("r.txt");
  for (int named = 0; named < 2; named++) {
    if (named) setenv("BCAST_OUTPUT_NAMED_TEMP", "1", 1);
    bcast_output *o = NULL;
    bcast_diag diag;
    CHECK_INT(bcast_output_open(a, &o, &diag), BCAST_OK);
    CHECK_INT(bcast_output_reserve(o, 1 << 20, &diag), BCAST_OK);
    write_text(o, "twelve bytes");
    CHECK_INT(bcast_output_commit(o, &diag), BCAST_OK);
    struct stat sb;
    CHECK_INT(stat(a, &sb), 0);
    CHECK_INT(sb.st_size, 12);
    CHECK_STR(file_text(a), "twelve bytes");
  }
  unsetenv("BCAST_OUTPUT_NAMED_TEMP");
  unlink(a);
  bcast_output *o = NULL;
  bcast_diag diag;
  CHECK_INT(bcast_output_open("/dev/null", &o, &diag), BCAST_OK);
  CHECK_INT(bcast_output_reserve(o, (uint64_t)1 << 40, &diag), BCAST_OK);
  CHECK_INT(bcast_output_commit(o, &diag), BCAST_OK);
  CHECK_INT(bcast_output_reserve(NULL, 1, &diag), BCAST_INVALID_ARGUMENT);
}
