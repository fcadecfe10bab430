// The page store's engine choice, measured: LMDB and RocksDB (Debian's liblmdb-dev, librocksdb-dev) on the
// page store's workload. Values are a real layout record (the file given) with a few bytes changed per page, so
// compression sees what it would see in production. For each engine and value size:
//   - write: every page once, in batches of 256 (one transaction / write batch each, with a checkpoint key, as
//     the worker writes per batch of acknowledged layouts);
//   - read: 20,000 random page reads after reopening (the cold-cache case), p50 and p99 in microseconds;
//   - scan: every page of one of 12 partitions, by key prefix;
//   - disk: bytes in the store's directory; open: reopening an existing store.
// Usage: bench-store-engines RECORD PAGES DIR (scripts/bench-store-engines.sh builds and runs it).
#include <dirent.h>
#include <lmdb.h>
#include <rocksdb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static long long dir_bytes(const char *path) {
  DIR *d = opendir(path);
  if (!d) return 0;
  long long total = 0;
  struct dirent *e;
  char p[4096];
  struct stat st;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s", path, e->d_name);
    if (stat(p, &st) == 0) total += (long long)st.st_blocks * 512;
  }
  closedir(d);
  return total;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int page_key(char *out, int i) { return sprintf(out, "p%02d\x1fpage-%08d", i % 12, i); }

static void page_value(char *out, const char *record, size_t size, int i) {
  memcpy(out, record, size);
  // A different product id per page, somewhere in the middle (what makes two pages' records differ).
  snprintf(out + size / 2, 12, "%011d", i);
  out[size / 2 + 11] = '"';
}

#define READS 20000
#define BATCH 256

static void report(const char *engine, size_t size, int pages, double write_s, double open_s, double *lat,
                   double scan_s, int scanned, long long disk) {
  qsort(lat, READS, sizeof(double), cmp_double);
  printf("| %s | %zu | %d | %.0f | %.1f | %.1f | %.1f | %.3f (%d pages) | %.0f | %.2f |\n", engine, size, pages,
         pages / write_s, size * (double)pages / write_s / 1e6, lat[READS / 2] * 1e6, lat[READS * 99 / 100] * 1e6,
         scan_s, scanned, (double)disk / pages, open_s * 1e3);
  fflush(stdout);
}

static void bench_lmdb(const char *dir, const char *record, size_t size, int pages) {
  char key[64], *value = malloc(size);
  MDB_env *env;
  MDB_dbi dbi;
  MDB_txn *txn;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, (size_t)64 << 30);
  if (mdb_env_open(env, dir, MDB_NOMETASYNC | MDB_NORDAHEAD, 0644)) {
    fprintf(stderr, "lmdb open failed\n");
    exit(1);
  }
  double t0 = now();
  for (int i = 0; i < pages;) {
    mdb_txn_begin(env, NULL, 0, &txn);
    mdb_dbi_open(txn, NULL, 0, &dbi);
    for (int n = 0; n < BATCH && i < pages; n++, i++) {
      MDB_val k = {page_key(key, i), key}, v = {size, value};
      page_value(value, record, size, i);
      mdb_put(txn, dbi, &k, &v, 0);
    }
    MDB_val ck = {2, "c0"}, cv = {sizeof i, &i};
    mdb_put(txn, dbi, &ck, &cv, 0);
    if (mdb_txn_commit(txn)) {
      fprintf(stderr, "lmdb commit failed\n");
      exit(1);
    }
  }
  double write_s = now() - t0;
  mdb_env_close(env);
  t0 = now();
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, (size_t)64 << 30);
  mdb_env_open(env, dir, MDB_NOMETASYNC | MDB_NORDAHEAD, 0644);
  double open_s = now() - t0;
  double *lat = malloc(sizeof(double) * READS);
  long long sink = 0;
  for (int r = 0; r < READS; r++) {
    int i = (int)(next_random() % pages);
    MDB_val k = {page_key(key, i), key}, v;
    double s = now();
    mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    mdb_dbi_open(txn, NULL, 0, &dbi);
    if (mdb_get(txn, dbi, &k, &v) == 0) {
      memcpy(value, v.mv_data, v.mv_size);  // the store copies a value out of its transaction
      sink += ((char *)value)[v.mv_size - 1];
    }
    mdb_txn_abort(txn);
    lat[r] = now() - s;
  }
  t0 = now();
  int scanned = 0;
  MDB_cursor *cur;
  mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
  mdb_dbi_open(txn, NULL, 0, &dbi);
  mdb_cursor_open(txn, dbi, &cur);
  MDB_val k = {4, "p03\x1f"}, v;
  for (int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); rc == 0 && memcmp(k.mv_data, "p03\x1f", 4) == 0;
       rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
    sink += ((char *)v.mv_data)[0];
    scanned++;
  }
  mdb_cursor_close(cur);
  mdb_txn_abort(txn);
  double scan_s = now() - t0;
  mdb_env_close(env);
  if (sink == 42) puts("");
  report("LMDB", size, pages, write_s, open_s, lat, scan_s, scanned, dir_bytes(dir));
  free(lat);
  free(value);
}

static rocksdb_t *rocks_open(const char *dir, rocksdb_cache_t *cache) {
  rocksdb_options_t *o = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(o, 1);
  rocksdb_options_set_compression(o, rocksdb_lz4_compression);
  rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(t, cache);
  rocksdb_block_based_options_set_block_size(t, 16 * 1024);
  rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom(10));
  rocksdb_options_set_block_based_table_factory(o, t);
  char *err = NULL;
  rocksdb_t *db = rocksdb_open(o, dir, &err);
  if (err) {
    fprintf(stderr, "rocksdb open: %s\n", err);
    exit(1);
  }
  return db;
}

static void bench_rocksdb(const char *dir, const char *record, size_t size, int pages) {
  char key[64], *value = malloc(size), *err = NULL;
  rocksdb_cache_t *cache = rocksdb_cache_create_lru(8 << 20);
  rocksdb_t *db = rocks_open(dir, cache);
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  double t0 = now();
  for (int i = 0; i < pages;) {
    rocksdb_writebatch_t *b = rocksdb_writebatch_create();
    for (int n = 0; n < BATCH && i < pages; n++, i++) {
      int kl = page_key(key, i);
      page_value(value, record, size, i);
      rocksdb_writebatch_put(b, key, kl, value, size);
    }
    rocksdb_writebatch_put(b, "c0", 2, (char *)&i, sizeof i);
    rocksdb_write(db, wo, b, &err);
    rocksdb_writebatch_destroy(b);
    if (err) {
      fprintf(stderr, "rocksdb write: %s\n", err);
      exit(1);
    }
  }
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flushoptions_set_wait(fo, 1);
  rocksdb_flush(db, fo, &err);
  rocksdb_flushoptions_destroy(fo);
  double write_s = now() - t0;
  rocksdb_close(db);
  t0 = now();
  db = rocks_open(dir, cache);
  double open_s = now() - t0;
  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  double *lat = malloc(sizeof(double) * READS);
  long long sink = 0;
  for (int r = 0; r < READS; r++) {
    int i = (int)(next_random() % pages);
    int kl = page_key(key, i);
    size_t vl;
    double s = now();
    char *v = rocksdb_get(db, ro, key, kl, &vl, &err);
    if (v) {
      sink += v[vl - 1];
      rocksdb_free(v);
    }
    lat[r] = now() - s;
  }
  t0 = now();
  int scanned = 0;
  rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
  for (rocksdb_iter_seek(it, "p03\x1f", 4); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
    size_t kl, vl;
    const char *k = rocksdb_iter_key(it, &kl);
    if (kl < 4 || memcmp(k, "p03\x1f", 4)) break;
    sink += rocksdb_iter_value(it, &vl)[0];
    scanned++;
  }
  rocksdb_iter_destroy(it);
  double scan_s = now() - t0;
  rocksdb_close(db);
  if (sink == 42) puts("");
  report("RocksDB (lz4)", size, pages, write_s, open_s, lat, scan_s, scanned, dir_bytes(dir));
  free(lat);
  free(value);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s RECORD VALUE-BYTES PAGES DIR\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  size_t size = (size_t)atol(argv[2]);
  char *record = calloc(1, size + 1);
  size_t got = fread(record, 1, size, f);
  fclose(f);
  for (size_t n = got; n < size; n++) record[n] = record[n % (got ? got : 1)];
  int pages = atoi(argv[3]);
  char path[4096];
  snprintf(path, sizeof path, "%s/lmdb", argv[4]);
  mkdir(path, 0755);
  bench_lmdb(path, record, size, pages);
  snprintf(path, sizeof path, "%s/rocksdb", argv[4]);
  bench_rocksdb(path, record, size, pages);
  return 0;
}
