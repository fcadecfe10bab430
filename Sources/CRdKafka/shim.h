#include <librdkafka/rdkafka.h>

/* librdkafka's mock cluster (several brokers on loopback, leader changes, brokers down, injected errors): the
   second broker of the integration tests. */
#include <librdkafka/rdkafka_mock.h>
