// `make bench-state`'s floor for a cold start: a bare librdkafka reader of the whole latest-layout topic, doing
// nothing with what it reads, on the same broker and cores as the gateway and the worker.
//
//   bench-topic-read BROKERS TOPIC PARTITIONS [key=value...]
//     Assigns partitions 0..PARTITIONS-1 from the beginning (no group), polls until each reports its end, and prints
//     "messages N bytes N seconds S cpu S" (its own CPU: user + system; the values as decompressed).
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-clock.h"
#include "bench-conf.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench-topic-read BROKERS TOPIC PARTITIONS [key=value...]\n");
    return 2;
  }
  int partitions = atoi(argv[3]);
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  char err[512];
  set(conf, "bootstrap.servers", argv[1]);
  set(conf, "group.id", "bench-topic-read");  // required by the consumer API; never joined (assign, no commits)
  set(conf, "enable.partition.eof", "true");
  set(conf, "enable.auto.commit", "false");
  set_arguments(conf, argc, argv, 4);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (!rk) { fprintf(stderr, "bench-topic-read: %s\n", err); return 2; }
  rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; p++)
    rd_kafka_topic_partition_list_add(list, argv[2], p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  double started = now_s(), cpu = cpu_s();
  rd_kafka_assign(rk, list);
  rd_kafka_topic_partition_list_destroy(list);
  long long messages = 0, bytes = 0;
  int ended = 0;
  while (ended < partitions && now_s() - started < 600) {
    rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
    if (!m) continue;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      ended++;
    } else if (m->err) {
      fprintf(stderr, "bench-topic-read: %s\n", rd_kafka_message_errstr(m));
    } else {
      messages++;
      bytes += (long long)m->len;
    }
    rd_kafka_message_destroy(m);
  }
  printf("messages %lld bytes %lld seconds %.2f cpu %.2f\n", messages, bytes, now_s() - started, cpu_s() - cpu);
  rd_kafka_destroy(rk);
  return ended < partitions;
}
