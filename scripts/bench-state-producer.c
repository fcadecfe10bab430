// Fills a latest-layout topic for `make bench-state` as `serve --changes-topic` would: COUNT pages keyed
// "page-NNNNNNN", each value the record in RECORD with the page's number spliced in front (so every page's bytes
// differ), with the source headers the worker reads back (source topic SOURCE, position = the page's number).
// Keys go to partitions by librdkafka's default partitioner, as `layout-worker produce` sends the inputs.
// Usage: bench-state-producer BROKERS TOPIC COUNT RECORD SOURCE-TOPIC
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque) {
  (void)rk;
  if (m->err) {
    fprintf(stderr, "bench-state-producer: %s\n", rd_kafka_err2str(m->err));
    (*(int *)opaque)++;
  }
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s BROKERS TOPIC COUNT RECORD SOURCE-TOPIC\n", argv[0]);
    return 2;
  }
  long count = atol(argv[3]);
  FILE *f = fopen(argv[4], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *record = malloc(size + 1);
  if (fread(record, 1, size, f) != (size_t)size) return 2;
  fclose(f);
  while (size > 0 && (record[size - 1] == '\n' || record[size - 1] == ' ')) size--;
  char err[512];
  int failed = 0;
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  // As many producers of a latest-layout topic are set up: lz4, 20 ms linger (BENCH_COMPRESSION=none to compare).
  const char *compression = getenv("BENCH_COMPRESSION") ? getenv("BENCH_COMPRESSION") : "lz4";
  const char *settings[][2] = {{"bootstrap.servers", argv[1]}, {"linger.ms", "20"},
                               {"batch.size", "4000000"},      {"message.max.bytes", "16777216"},
                               {"queue.buffering.max.kbytes", "1048576"}, {"acks", "all"},
                               {"compression.type", compression}};
  for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
    if (rd_kafka_conf_set(conf, settings[i][0], settings[i][1], err, sizeof err) != RD_KAFKA_CONF_OK) {
      fprintf(stderr, "%s\n", err);
      return 2;
    }
  }
  rd_kafka_conf_set_opaque(conf, &failed);
  rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  char *value = malloc(size + 64), key[32], position[32];
  for (long n = 0; n < count; n++) {
    int keyLength = snprintf(key, sizeof key, "page-%07ld", n);
    // {"benchPage":N, then the record without its opening brace.
    int head = snprintf(value, 64, "{\"benchPage\":%ld,", n);
    memcpy(value + head, record + 1, size - 1);
    snprintf(position, sizeof position, "%ld", n);
    rd_kafka_headers_t *headers = rd_kafka_headers_new(3);
    rd_kafka_header_add(headers, "layout-worker-source-topic", -1, argv[5], -1);
    rd_kafka_header_add(headers, "layout-worker-source-offset", -1, position, -1);
    rd_kafka_header_add(headers, "content-type", -1, "application/vnd.layout-record+json; version=2", -1);
    rd_kafka_resp_err_t e;
    while ((e = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(argv[2]), RD_KAFKA_V_KEY(key, keyLength),
                                  RD_KAFKA_V_VALUE(value, head + size - 1), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                  RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_END)) == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(rk, 50);
    }
    if (e) {
      fprintf(stderr, "bench-state-producer: %s\n", rd_kafka_err2str(e));
      rd_kafka_headers_destroy(headers);
      return 1;
    }
    rd_kafka_poll(rk, 0);
  }
  rd_kafka_flush(rk, 300000);
  rd_kafka_destroy(rk);
  if (failed) fprintf(stderr, "bench-state-producer: %d messages failed\n", failed);
  return failed ? 1 : 0;
}
