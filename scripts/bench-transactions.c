// `make bench-transactions`: what exactly-once would cost the worker's Kafka path, on the test broker. One
// consume-produce loop shaped like `serve --changes-topic` (every input makes a record, a latest layout and a change
// set), with nothing compiled, so what differs between the two modes is the delivery protocol alone:
//
//   at-least-once  an idempotent producer (as serve's), offsets committed every INTERVAL ms up to the inputs whose
//                  three outputs are all acknowledged (as serve's OffsetTracker does), the pipeline never drained;
//   transactional  KIP-447: one transactional producer, a transaction per INTERVAL ms holding the outputs and the
//                  input offsets (send_offsets_to_transaction with the consumer's group metadata), read_committed.
//
//   bench-transactions BROKERS MODE INPUT OUTPUT GROUP COUNT INTERVAL-MS RECORD CHANGE-SET [key=value...]
//     Reads COUNT inputs of INPUT from the beginning in group GROUP, writes RECORD's bytes twice and CHANGE-SET's
//     once per input to OUTPUT (keyed as the input), and prints
//     "mode M messages N seconds S rate R commits C commit-p50-ms X commit-p99-ms Y cpu S" (its own CPU; commit
//     times in a transaction only: send_offsets_to_transaction and commit_transaction).
//   bench-transactions BROKERS delete TOPIC
//     Deletes TOPIC (a run's outputs, so the in-memory broker holds one run's at a time).
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-clock.h"
#include "bench-conf.h"
#include "bench-slurp.h"

#define MAX_PARTITIONS 64
#define OUTPUTS_PER_INPUT 3

// Per input partition: the next offset consumed, how many outputs are not acknowledged yet, and the offset every
// input before which is settled (at-least-once commits this).
typedef struct {
  long long next, settled;
  long outstanding;
} partition_state;

static partition_state partitions[MAX_PARTITIONS];
static long failed_deliveries;

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque) {
  (void)rk, (void)opaque;
  if (m->err) failed_deliveries++;
  partition_state *p = &partitions[(long)m->_private];
  if (--p->outstanding == 0) p->settled = p->next;
}

static void fail_on(rd_kafka_error_t *error, const char *what) {
  if (!error) return;
  fprintf(stderr, "bench-transactions: %s: %s\n", what, rd_kafka_error_string(error));
  exit(1);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// The offsets to commit: per partition consumed from, `settled` (at-least-once) or `next` (in a transaction, where
// the outputs commit with them).
static rd_kafka_topic_partition_list_t *offsets(const char *topic, int transactional) {
  rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(MAX_PARTITIONS);
  for (int p = 0; p < MAX_PARTITIONS; p++) {
    long long offset = transactional ? partitions[p].next : partitions[p].settled;
    if (offset > 0) rd_kafka_topic_partition_list_add(list, topic, p)->offset = offset;
  }
  return list;
}

static int delete_topic(const char *brokers, const char *topic) {
  char err[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", brokers);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) { fprintf(stderr, "bench-transactions: %s\n", err); return 2; }
  rd_kafka_queue_t *queue = rd_kafka_queue_new(rk);
  rd_kafka_DeleteTopic_t *deletion = rd_kafka_DeleteTopic_new(topic);
  rd_kafka_DeleteTopics(rk, &deletion, 1, NULL, queue);
  rd_kafka_event_t *event = rd_kafka_queue_poll(queue, 30000);
  int failed = !event || rd_kafka_event_error(event);
  if (failed) fprintf(stderr, "bench-transactions: deleting %s: %s\n", topic,
                      event ? rd_kafka_event_error_string(event) : "no answer in 30 s");
  if (event) rd_kafka_event_destroy(event);
  rd_kafka_DeleteTopic_destroy(deletion);
  rd_kafka_queue_destroy(queue);
  rd_kafka_destroy(rk);
  return failed;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[2], "delete") == 0) return delete_topic(argv[1], argv[3]);
  if (argc < 10) {
    fprintf(stderr, "usage: bench-transactions BROKERS MODE INPUT OUTPUT GROUP COUNT INTERVAL-MS RECORD CHANGE-SET "
                    "[key=value...]\n");
    return 2;
  }
  const char *brokers = argv[1], *mode = argv[2], *input = argv[3], *output = argv[4], *group = argv[5];
  int transactional = strcmp(mode, "transactional") == 0;
  if (!transactional && strcmp(mode, "at-least-once") != 0) {
    fprintf(stderr, "bench-transactions: MODE is at-least-once or transactional, not %s\n", mode);
    return 2;
  }
  long count = atol(argv[6]);
  double interval = atof(argv[7]) / 1000;
  size_t record_size, change_size;
  char *record = slurp(argv[8], &record_size), *change = slurp(argv[9], &change_size);
  char err[512], transactional_id[256];

  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", brokers);
  set(conf, "linger.ms", "5");
  set(conf, "message.max.bytes", "67108864");
  set(conf, "enable.idempotence", "true");
  if (transactional) {
    snprintf(transactional_id, sizeof transactional_id, "%s-producer", group);
    set(conf, "transactional.id", transactional_id);
  }
  set_arguments(conf, argc, argv, 10);
  rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
  rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!producer) { fprintf(stderr, "bench-transactions: %s\n", err); return 2; }

  conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", brokers);
  set(conf, "group.id", group);
  set(conf, "enable.auto.commit", "false");
  set(conf, "auto.offset.reset", "earliest");
  set(conf, "isolation.level", "read_committed");
  // The test broker holds a join round for half the session timeout (22 s at librdkafka's 45 s default).
  set(conf, "session.timeout.ms", "6000");
  set(conf, "heartbeat.interval.ms", "1000");
  rd_kafka_t *consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (!consumer) { fprintf(stderr, "bench-transactions: %s\n", err); return 2; }
  rd_kafka_poll_set_consumer(consumer);
  rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, input, RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(consumer, topics);
  rd_kafka_topic_partition_list_destroy(topics);

  if (transactional) {
    fail_on(rd_kafka_init_transactions(producer, 60000), "init_transactions");
    fail_on(rd_kafka_begin_transaction(producer), "begin_transaction");
  }
  double *commit_ms = malloc(sizeof(double) * 100000);
  long commits = 0, timed = 0, consumed = 0;
  double started = 0, cpu = 0, last_commit = 0;
  while (consumed < count) {
    rd_kafka_poll(producer, 0);
    rd_kafka_message_t *m = rd_kafka_consumer_poll(consumer, 100);
    if (m && !m->err && m->partition < MAX_PARTITIONS) {
      if (consumed == 0) started = last_commit = now_s(), cpu = cpu_s();
      partition_state *p = &partitions[m->partition];
      p->next = m->offset + 1;
      p->outstanding += OUTPUTS_PER_INPUT;
      const char *values[OUTPUTS_PER_INPUT] = {record, record, change};
      size_t sizes[OUTPUTS_PER_INPUT] = {record_size, record_size, change_size};
      for (int i = 0; i < OUTPUTS_PER_INPUT; i++) {
        rd_kafka_resp_err_t e;
        while ((e = rd_kafka_producev(producer, RD_KAFKA_V_TOPIC(output), RD_KAFKA_V_KEY(m->key, m->key_len),
                                      RD_KAFKA_V_VALUE((void *)values[i], sizes[i]),
                                      RD_KAFKA_V_OPAQUE((void *)(long)m->partition), RD_KAFKA_V_END)) ==
               RD_KAFKA_RESP_ERR__QUEUE_FULL)
          rd_kafka_poll(producer, 10);
        if (e) { fprintf(stderr, "bench-transactions: produce: %s\n", rd_kafka_err2str(e)); return 1; }
      }
      consumed++;
    } else if (m && m->err && m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      fprintf(stderr, "bench-transactions: consume: %s\n", rd_kafka_message_errstr(m));
    }
    if (m) rd_kafka_message_destroy(m);
    if (consumed == 0 || (now_s() - last_commit < interval && consumed < count)) continue;
    double t0 = now_s();
    rd_kafka_topic_partition_list_t *list;
    if (transactional) {
      list = offsets(input, 1);
      rd_kafka_consumer_group_metadata_t *metadata = rd_kafka_consumer_group_metadata(consumer);
      fail_on(rd_kafka_send_offsets_to_transaction(producer, list, metadata, -1), "send_offsets_to_transaction");
      rd_kafka_consumer_group_metadata_destroy(metadata);
      fail_on(rd_kafka_commit_transaction(producer, -1), "commit_transaction");
      if (consumed < count) fail_on(rd_kafka_begin_transaction(producer), "begin_transaction");
    } else {
      if (consumed == count) rd_kafka_flush(producer, 60000);
      list = offsets(input, 0);
      if (list->cnt > 0) rd_kafka_commit(consumer, list, consumed < count);
    }
    rd_kafka_topic_partition_list_destroy(list);
    last_commit = now_s();
    // Timed in a transaction only: an at-least-once commit is asynchronous and costs the loop nothing.
    if (transactional && timed < 100000) commit_ms[timed++] = (last_commit - t0) * 1000;
    commits++;
  }
  double seconds = now_s() - started, used = cpu_s() - cpu;
  qsort(commit_ms, (size_t)timed, sizeof(double), by_value);
  printf("mode %s messages %ld seconds %.2f rate %.0f commits %ld commit-p50-ms %.1f commit-p99-ms %.1f cpu %.2f\n",
         mode, consumed, seconds, consumed / seconds, commits, timed ? commit_ms[timed / 2] : 0,
         timed ? commit_ms[(long)(timed * 0.99)] : 0, used);
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  rd_kafka_destroy(producer);
  return failed_deliveries ? 1 : 0;
}
