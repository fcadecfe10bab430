// Produces the inputs of `make bench-e2e`'s fan-out rounds: ROUNDS messages keyed KEY to TOPIC, alternating the
// files A and B, one every INTERVAL ms, each acknowledged before the next. Prints "round ns" per message: the
// CLOCK_REALTIME just before it was handed to librdkafka (its Kafka timestamp is the same instant, in ms).
// Usage: bench-fanout-producer BROKERS TOPIC KEY A B ROUNDS INTERVAL
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-slurp.h"


int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s BROKERS TOPIC KEY A B ROUNDS INTERVAL\n", argv[0]);
    return 2;
  }
  size_t sizes[2];
  char *files[2] = {slurp(argv[4], &sizes[0]), slurp(argv[5], &sizes[1])};
  int rounds = atoi(argv[6]), interval = atoi(argv[7]);
  char error[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", argv[1], error, sizeof error) != RD_KAFKA_CONF_OK ||
      rd_kafka_conf_set(conf, "linger.ms", "0", error, sizeof error) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!rk) { fprintf(stderr, "%s\n", error); return 2; }
  for (int r = 0; r < rounds; r++) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long long ns = (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
    rd_kafka_resp_err_t err = rd_kafka_producev(
        rk, RD_KAFKA_V_TOPIC(argv[2]), RD_KAFKA_V_KEY(argv[3], strlen(argv[3])),
        RD_KAFKA_V_VALUE(files[r % 2], sizes[r % 2]), RD_KAFKA_V_TIMESTAMP(ns / 1000000), RD_KAFKA_V_END);
    if (err) { fprintf(stderr, "produce: %s\n", rd_kafka_err2str(err)); return 1; }
    rd_kafka_flush(rk, 10000);
    printf("%d %lld\n", r, ns);
    fflush(stdout);
    usleep((useconds_t)interval * 1000);
  }
  rd_kafka_destroy(rk);
  return 0;
}
