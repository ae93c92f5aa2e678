/* Replays inputs through one harness without libFuzzer, built with the
 * normal compiler in the normal build (and under ASan in the sanitizer
 * build): bcast_fuzz_replay_<harness> FILE-OR-DIR...  Every file given,
 * and every file in a directory given, is one input.  Prints how many ran;
 * a broken invariant aborts, naming the file first. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 0;
  }
  size_t cap = 4096, len = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      unsigned char *p = realloc(buf, cap *= 2);
      if (!p) break;
      buf = p;
    }
  }
  int ok = buf && !ferror(f);
  fclose(f);
  if (!ok) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    free(buf);
    return 0;
  }
  fprintf(stderr, "replay: %s\n", path);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 1;
}

static int replay(const char *path, size_t *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: no such file or directory: %s\n", path);
    return 0;
  }
  if (!S_ISDIR(st.st_mode)) {
    if (!replay_file(path)) return 0;
    (*count)++;
    return 1;
  }
  DIR *dir = opendir(path);
  if (!dir) return 0;
  struct dirent *e;
  int ok = 1;
  while ((e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.') continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *child = malloc(n);
    snprintf(child, n, "%s/%s", path, e->d_name);
    ok &= replay(child, count);
    free(child);
  }
  closedir(dir);
  return ok;
}

int main(int argc, char **argv) {
  size_t count = 0;
  int ok = 1;
  for (int i = 1; i < argc; i++) ok &= replay(argv[i], &count);
  printf("replayed %zu inputs\n", count);
  return ok && count > 0 ? 0 : 1;
}
