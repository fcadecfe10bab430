#include <librdkafka/rdkafka.h>

#include <string.h>

/// The byte length of a consumed header's name, NUL bytes included. `rd_kafka_header_get_all` gives the name as a
/// C string only; librdkafka (every version since headers exist, 0.11.4) keeps the name's length two words before it
/// in its `rd_kafka_header_t` (`rkhdr_name_size`, then `rkhdr_value`, then the name). The stored length is used
/// only when it is consistent (at least the C string's length, the name NUL-terminated there, and the value, when
/// there is one, right behind it); otherwise the C string's length.
static inline size_t lw_header_name_size(const char *name, const void *value) {
    size_t c_length = strlen(name);
    size_t stored = *(const size_t *)(const void *)(name - 2 * sizeof(size_t));
    if (stored < c_length || stored > (1u << 30) || name[stored] != '\0') return c_length;
    if (value != NULL && (const char *)value != name + stored + 1) return c_length;
    return stored;
}

/* librdkafka's mock cluster (several brokers on loopback, leader changes, brokers down, injected errors): the
   second broker of the integration tests. */
#include <librdkafka/rdkafka_mock.h>
