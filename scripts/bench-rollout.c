// `make bench-state`'s rolling restart (scripts/bench-rollout.sh). Two modes:
//
//   bench-rollout member BROKERS GROUP TOPIC [key=value...]
//     A bare consumer: joins GROUP on TOPIC with the given librdkafka properties, polls, and prints
//     "assigned N T" after each rebalance (N partitions owned from then on, T = CLOCK_REALTIME in seconds).
//     On SIGTERM it closes the consumer (leaves the group, or not for a static member) and exits.
//
//   bench-rollout load BROKERS INPUT OUTPUT KEYS RATE STOPFILE A B
//     Produces RATE messages a second to INPUT, keyed "page-NNNNNNN" for random pages below KEYS, alternating the
//     files A and B, each with the headers bench-seq and bench-sent-ns (CLOCK_REALTIME just before it was handed
//     to librdkafka; the worker copies an input's own headers onto its record). Meanwhile it reads OUTPUT from its
//     end (no group) and times each record by its bench-seq: produce → record readable. Once STOPFILE exists it
//     stops producing and waits up to 30 s for the records still missing. Prints one line:
//     "produced N received N lost N p50 MS p99 MS max MS over2s N", the first record of each input counting.
#include <librdkafka/rdkafka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-conf.h"
#include "bench-slurp.h"

static volatile sig_atomic_t stopping = 0;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}



static void on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts,
                         void *opaque) {
  (void)opaque;
  int cooperative = !strcmp(rd_kafka_rebalance_protocol(rk), "COOPERATIVE");
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    if (cooperative) rd_kafka_error_destroy(rd_kafka_incremental_assign(rk, parts));
    else rd_kafka_assign(rk, parts);
  } else {
    if (cooperative) rd_kafka_error_destroy(rd_kafka_incremental_unassign(rk, parts));
    else rd_kafka_assign(rk, NULL);
  }
  rd_kafka_topic_partition_list_t *owned = NULL;
  rd_kafka_assignment(rk, &owned);
  printf("assigned %d %.3f\n", owned ? owned->cnt : 0, now_s());
  fflush(stdout);
  if (owned) rd_kafka_topic_partition_list_destroy(owned);
}

static int member(int argc, char **argv) {
  char error[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", argv[2]);
  set(conf, "group.id", argv[3]);
  set(conf, "partition.assignment.strategy", "cooperative-sticky");
  set(conf, "enable.auto.commit", "false");
  set_arguments(conf, argc, argv, 5);
  rd_kafka_conf_set_rebalance_cb(conf, on_rebalance);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
  if (!rk) { fprintf(stderr, "bench-rollout: %s\n", error); return 2; }
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, argv[4], RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(rk, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  while (!stopping) {
    rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
    if (m) rd_kafka_message_destroy(m);
  }
  // As the worker leaves: unsubscribe and serve the revocation, then close (closing while the group hands out an
  // assignment can hang in librdkafka).
  rd_kafka_unsubscribe(rk);
  for (double deadline = now_s() + 5; now_s() < deadline;) {
    rd_kafka_topic_partition_list_t *owned = NULL;
    rd_kafka_assignment(rk, &owned);
    int count = owned ? owned->cnt : 0;
    if (owned) rd_kafka_topic_partition_list_destroy(owned);
    if (!count) break;
    rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 20);
    if (m) rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
  return 0;
}

typedef struct {
  long long *sent;      // per seq: ns when produced, 0 before
  long long *latency;   // per seq: ns from produce to the first record read, -1 before
  long long capacity;
} Book;

static const char *header(rd_kafka_message_t *m, const char *name, size_t *size) {
  rd_kafka_headers_t *hdrs = NULL;
  const void *value = NULL;
  if (rd_kafka_message_headers(m, &hdrs) || rd_kafka_header_get_last(hdrs, name, &value, size)) return NULL;
  return value;
}

static void read_records(rd_kafka_t *consumer, Book *book, int timeout_ms) {
  rd_kafka_message_t *m = rd_kafka_consumer_poll(consumer, timeout_ms);
  for (; m; m = rd_kafka_consumer_poll(consumer, 0)) {
    size_t size = 0;
    const char *seq_text = m->err ? NULL : header(m, "bench-seq", &size);
    if (seq_text && size < 24) {
      char text[24];
      memcpy(text, seq_text, size);
      text[size] = 0;
      long long seq = atoll(text);
      if (seq >= 0 && seq < book->capacity && book->sent[seq] && book->latency[seq] < 0)
        book->latency[seq] = now_ns() - book->sent[seq];
    }
    rd_kafka_message_destroy(m);
  }
}

static rd_kafka_t *output_reader(const char *brokers, const char *topic) {
  char error[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", brokers);
  set(conf, "group.id", "bench-rollout-reader");
  set(conf, "fetch.wait.max.ms", "10");
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
  if (!rk) { fprintf(stderr, "bench-rollout: %s\n", error); exit(2); }
  rd_kafka_poll_set_consumer(rk);
  const struct rd_kafka_metadata *meta = NULL;
  rd_kafka_topic_t *t = rd_kafka_topic_new(rk, topic, NULL);
  if (rd_kafka_metadata(rk, 0, t, &meta, 10000) || meta->topic_cnt != 1 || meta->topics[0].partition_cnt < 1) {
    fprintf(stderr, "bench-rollout: no metadata for %s\n", topic);
    exit(2);
  }
  rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(meta->topics[0].partition_cnt);
  for (int p = 0; p < meta->topics[0].partition_cnt; p++)
    rd_kafka_topic_partition_list_add(parts, topic, p)->offset = RD_KAFKA_OFFSET_END;
  rd_kafka_metadata_destroy(meta);
  rd_kafka_topic_destroy(t);
  rd_kafka_assign(rk, parts);
  rd_kafka_topic_partition_list_destroy(parts);
  return rk;
}

static int by_value(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static int load(char **argv) {
  char error[512];
  const char *brokers = argv[2], *input = argv[3], *stopfile = argv[7];
  int keys = atoi(argv[5]), rate = atoi(argv[6]);
  size_t sizes[2];
  char *files[2] = {slurp(argv[8], &sizes[0]), slurp(argv[9], &sizes[1])};
  rd_kafka_t *consumer = output_reader(brokers, argv[4]);
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  set(conf, "bootstrap.servers", brokers);
  set(conf, "linger.ms", "0");
  rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!producer) { fprintf(stderr, "bench-rollout: %s\n", error); return 2; }
  Book book = {.capacity = 1 << 20};
  book.sent = calloc((size_t)book.capacity, sizeof(long long));
  book.latency = malloc((size_t)book.capacity * sizeof(long long));
  for (long long i = 0; i < book.capacity; i++) book.latency[i] = -1;
  srand(11);
  long long produced = 0, interval = 1000000000LL / rate, next = now_ns();
  while (!stopping && access(stopfile, F_OK) != 0 && produced < book.capacity) {
    if (now_ns() >= next) {
      char key[32], seq[24], sent[24];
      snprintf(key, sizeof key, "page-%07d", rand() % keys);
      snprintf(seq, sizeof seq, "%lld", produced);
      book.sent[produced] = now_ns();
      snprintf(sent, sizeof sent, "%lld", book.sent[produced]);
      int which = (int)(produced % 2);
      rd_kafka_resp_err_t err = rd_kafka_producev(
          producer, RD_KAFKA_V_TOPIC(input), RD_KAFKA_V_KEY(key, strlen(key)),
          RD_KAFKA_V_VALUE(files[which], sizes[which]), RD_KAFKA_V_HEADER("bench-seq", seq, -1),
          RD_KAFKA_V_HEADER("bench-sent-ns", sent, -1), RD_KAFKA_V_END);
      if (err) { fprintf(stderr, "bench-rollout: produce: %s\n", rd_kafka_err2str(err)); return 1; }
      produced++;
      next += interval;
    }
    rd_kafka_poll(producer, 0);
    read_records(consumer, &book, 5);
  }
  rd_kafka_flush(producer, 30000);
  double deadline = now_s() + 30;
  long long received = 0;
  while (!stopping && now_s() < deadline) {
    read_records(consumer, &book, 100);
    received = 0;
    for (long long i = 0; i < produced; i++) received += book.latency[i] >= 0;
    if (received == produced) break;
  }
  long long *sorted = malloc((size_t)(received ? received : 1) * sizeof(long long)), n = 0, over2s = 0;
  for (long long i = 0; i < produced; i++)
    if (book.latency[i] >= 0) {
      sorted[n++] = book.latency[i];
      over2s += book.latency[i] > 2000000000LL;
    }
  qsort(sorted, (size_t)n, sizeof(long long), by_value);
  double p50 = n ? sorted[n / 2] / 1e6 : 0, p99 = n ? sorted[(n * 99) / 100] / 1e6 : 0,
         max = n ? sorted[n - 1] / 1e6 : 0;
  printf("produced %lld received %lld lost %lld p50 %.0f p99 %.0f max %.0f over2s %lld\n", produced, received,
         produced - received, p50, p99, max, over2s);
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  rd_kafka_destroy(producer);
  return 0;
}

int main(int argc, char **argv) {
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  if (argc >= 5 && !strcmp(argv[1], "member")) return member(argc, argv);
  if (argc == 10 && !strcmp(argv[1], "load")) return load(argv);
  fprintf(stderr,
          "usage: %s member BROKERS GROUP TOPIC [key=value...]\n"
          "       %s load BROKERS INPUT OUTPUT KEYS RATE STOPFILE A B\n",
          argv[0], argv[0]);
  return 2;
}
