// librdkafka settings for the benchmark tools in scripts/ (bench-rollout.c, bench-topic-read.c): one property, or
// every key=value argument from argv[from] on; exits with status 2 on a setting librdkafka refuses.
#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set(rd_kafka_conf_t *conf, const char *key, const char *value) {
  char error[512];
  if (rd_kafka_conf_set(conf, key, value, error, sizeof error) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "%s=%s: %s\n", key, value, error);
    exit(2);
  }
}

static void set_arguments(rd_kafka_conf_t *conf, int argc, char **argv, int from) {
  for (int i = from; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "%s is not key=value\n", argv[i]);
      exit(2);
    }
    *eq = 0;
    set(conf, argv[i], eq + 1);
  }
}
