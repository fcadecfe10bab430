// Event-stream clients for `make bench-e2e` (the gateway fan-out figures): COUNT connections from SOURCE (a
// loopback address, so several client processes spread over addresses and stay under the per-process descriptor
// cap) to the gateway at HOST:PORT, each `GET PATH` as a server-sent event stream. Prints "ready N" once every
// stream has its response head, then notes, per stream, when each `change-set` event's last byte arrived
// (CLOCK_REALTIME ns). Ends after ROUNDS change sets on every stream or TIMEOUT seconds after ready, writing
// "stream round ns" lines to OUT. epoll, non-blocking, one thread: the client is not the bottleneck.
// Usage: bench-streams SOURCE HOST PORT PATH COUNT ROUNDS TIMEOUT OUT
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  int connected;   // the request was sent
  int headed;      // the response head arrived
  int match;       // bytes of "event: change-set\n" matched so far
  int in_event;    // inside a change-set event: waiting for its blank line
  char last;       // the byte before
  int got;         // change sets seen
  long long *at;   // their arrival times
} stream_t;

static const char *pattern = "event: change-set\n";

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

// Counts the change sets in `p`; whether the stream's last round arrived in it.
static int scan(stream_t *s, const char *p, ssize_t n, int rounds) {
  int before = s->got;
  size_t plen = strlen(pattern);
  for (ssize_t i = 0; i < n; i++) {
    char c = p[i];
    if (s->in_event) {
      if (c == '\n' && s->last == '\n') {
        if (s->got < rounds) s->at[s->got] = now_ns();
        s->got++;
        s->in_event = 0;
      }
    } else if (c == pattern[s->match]) {
      if (++s->match == (int)plen) {
        s->in_event = 1;
        s->match = 0;
      }
    } else {
      s->match = (c == pattern[0]) ? 1 : 0;
    }
    s->last = c;
  }
  return before < rounds && s->got >= rounds;
}

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: %s SOURCE HOST PORT PATH COUNT ROUNDS TIMEOUT OUT\n", argv[0]);
    return 2;
  }
  const char *source = argv[1], *host = argv[2], *path = argv[4], *out = argv[8];
  int port = atoi(argv[3]), count = atoi(argv[5]), rounds = atoi(argv[6]), timeout = atoi(argv[7]);
  struct rlimit lim;
  getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
  char request[1024];
  int rlen = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n",
                      path, host);
  stream_t *streams = calloc(count, sizeof(stream_t));
  int ep = epoll_create1(0);
  struct sockaddr_in from = {.sin_family = AF_INET}, to = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, source, &from.sin_addr);
  inet_pton(AF_INET, host, &to.sin_addr);
  int opened = 0, headed = 0, ready_said = 0, finished = 0;  // finished: closed, or every round arrived
  long long ready_at = 0;
  char buffer[65536];
  struct epoll_event events[1024];
  for (;;) {
    // Connect in waves of 256 not yet answered, so the gateway's accept backlog never overflows.
    while (opened < count && opened - headed < 256) {
      stream_t *s = &streams[opened];
      s->at = calloc(rounds, sizeof(long long));
      s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      if (s->fd < 0) { perror("socket"); return 1; }
      int one = 1;
      setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (bind(s->fd, (struct sockaddr *)&from, sizeof from) != 0) { perror("bind"); return 1; }
      if (connect(s->fd, (struct sockaddr *)&to, sizeof to) != 0 && errno != EINPROGRESS) { perror("connect"); return 1; }
      struct epoll_event e = {.events = EPOLLIN | EPOLLOUT, .data.u32 = (uint32_t)opened};
      epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &e);
      opened++;
    }
    int n = epoll_wait(ep, events, 1024, 100);
    for (int i = 0; i < n; i++) {
      stream_t *s = &streams[events[i].data.u32];
      if ((events[i].events & EPOLLOUT) && !s->connected) {
        if (write(s->fd, request, rlen) != rlen) { fprintf(stderr, "short request write\n"); return 1; }
        s->connected = 1;
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = events[i].data.u32};
        epoll_ctl(ep, EPOLL_CTL_MOD, s->fd, &e);
      }
      if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        ssize_t got = read(s->fd, buffer, sizeof buffer);
        if (got <= 0) {
          if (got < 0 && errno == EAGAIN) continue;
          fprintf(stderr, "stream %u closed by the gateway\n", events[i].data.u32);
          epoll_ctl(ep, EPOLL_CTL_DEL, s->fd, NULL);
          close(s->fd);
          s->fd = -1;
          if (s->got < rounds) finished++;
          if (!s->headed) { s->headed = 1; headed++; }
          continue;
        }
        if (!s->headed) {
          if (strncmp(buffer, "HTTP/1.1 200", 12) != 0) {
            fprintf(stderr, "stream %u: %.*s\n", events[i].data.u32, (int)(got < 80 ? got : 80), buffer);
          }
          s->headed = 1;
          headed++;
        }
        finished += scan(s, buffer, got, rounds);
      }
    }
    if (!ready_said && headed == count) {
      printf("ready %d\n", count);
      fflush(stdout);
      ready_said = 1;
      ready_at = now_ns();
    }
    if (ready_said) {
      if (finished == count || now_ns() - ready_at > (long long)timeout * 1000000000LL) break;
    }
  }
  FILE *f = fopen(out, "w");
  if (!f) { perror(out); return 1; }
  for (int i = 0; i < count; i++)
    for (int r = 0; r < rounds && r < streams[i].got; r++) fprintf(f, "%d %d %lld\n", i, r, streams[i].at[r]);
  fclose(f);
  return 0;
}
