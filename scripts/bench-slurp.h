// A whole file's bytes, for the benchmark tools in scripts/ (bench-fanout-producer.c, bench-rollout.c); exits with
// status 2 when it cannot be read.
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *bytes = malloc(*size);
  if (fread(bytes, 1, *size, f) != *size) exit(2);
  fclose(f);
  return bytes;
}
