// RocksDB's C API (Debian's librocksdb-dev), the page store's engine: docs/design.md says why RocksDB.
#include <rocksdb/c.h>
