// The floor for the gateway's fan-out figures in `make bench-e2e`: what this machine's kernel takes to write one
// event to N loopback streams, with nothing else in the way. THREADS threads (one per core, as the gateway's event
// loops), each accepting on its own SO_REUSEPORT socket at HOST:PORT and holding its streams in an array; every
// request gets a chunked event-stream head. Each line on stdin fires one round: every thread writes the same
// SIZE-byte `change-set` event (one HTTP/1.1 chunk, one write() per stream) to all its streams; the line printed
// back is "ROUND NS" with the instant (CLOCK_REALTIME ns) the round was fired, read like the producer's. Prints
// "port P" when listening. No parsing, no cursors, no metrics: everything the gateway adds is above this.
// Usage: bench-fanout-floor HOST PORT THREADS SIZE
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int listener, ep, fire;  // fire: an eventfd, one count per round
  int *streams, count, capacity;
} loop_t;

static char *event;
static int event_len;
static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                           "Transfer-Encoding: chunked\r\n\r\n";

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void add(loop_t *l, int fd) {
  if (l->count == l->capacity) {
    l->capacity = l->capacity ? l->capacity * 2 : 1024;
    l->streams = realloc(l->streams, l->capacity * sizeof(int));
  }
  l->streams[l->count++] = fd;
}

static void *run(void *arg) {
  loop_t *l = arg;
  struct epoll_event events[256];
  char buffer[4096];
  for (;;) {
    int n = epoll_wait(l->ep, events, 256, -1);
    for (int i = 0; i < n; i++) {
      int fd = events[i].data.fd;
      if (fd == l->listener) {
        int c;
        while ((c = accept4(l->listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          int one = 1;
          setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          struct epoll_event e = {.events = EPOLLIN, .data.fd = c};
          epoll_ctl(l->ep, EPOLL_CTL_ADD, c, &e);
        }
      } else if (fd == l->fire) {
        unsigned long long rounds;
        if (read(l->fire, &rounds, sizeof rounds) != sizeof rounds) continue;
        for (int s = 0; s < l->count; s++)
          if (write(l->streams[s], event, event_len) != event_len && errno != EAGAIN) perror("write");
      } else {
        // The request (one read: the clients send it in one segment); the head answers it, then the stream waits.
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got <= 0) {
          epoll_ctl(l->ep, EPOLL_CTL_DEL, fd, NULL);
          close(fd);
          continue;
        }
        if (write(fd, head, sizeof head - 1) != (ssize_t)(sizeof head - 1)) perror("head");
        add(l, fd);
        struct epoll_event e = {.events = 0, .data.fd = fd};  // no more reads: a stream only writes
        epoll_ctl(l->ep, EPOLL_CTL_MOD, fd, &e);
      }
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s HOST PORT THREADS SIZE\n", argv[0]);
    return 2;
  }
  int port = atoi(argv[2]), threads = atoi(argv[3]), size = atoi(argv[4]);
  struct rlimit lim;
  getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  setrlimit(RLIMIT_NOFILE, &lim);
  // One SSE event of about SIZE bytes as one chunk.
  char *body = malloc(size + 64);
  int body_len = snprintf(body, 64, "event: change-set\nid: floor\ndata: ");
  while (body_len < size - 2) body[body_len++] = 'x';
  body[body_len++] = '\n';
  body[body_len++] = '\n';
  event = malloc(body_len + 32);
  event_len = snprintf(event, 32, "%x\r\n", body_len);
  memcpy(event + event_len, body, body_len);
  event_len += body_len;
  memcpy(event + event_len, "\r\n", 2);
  event_len += 2;

  loop_t *loops = calloc(threads, sizeof(loop_t));
  struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, argv[1], &at.sin_addr);
  for (int t = 0; t < threads; t++) {
    loop_t *l = &loops[t];
    l->listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(l->listener, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (bind(l->listener, (struct sockaddr *)&at, sizeof at) != 0 || listen(l->listener, 4096) != 0) {
      perror("listen");
      return 1;
    }
    if (t == 0) {  // port 0: the others join the port the first was given
      socklen_t len = sizeof at;
      getsockname(l->listener, (struct sockaddr *)&at, &len);
    }
    l->ep = epoll_create1(0);
    l->fire = eventfd(0, EFD_NONBLOCK);
    struct epoll_event e = {.events = EPOLLIN, .data.fd = l->listener};
    epoll_ctl(l->ep, EPOLL_CTL_ADD, l->listener, &e);
    e.data.fd = l->fire;
    epoll_ctl(l->ep, EPOLL_CTL_ADD, l->fire, &e);
  }
  printf("port %d\n", ntohs(at.sin_port));
  fflush(stdout);
  for (int t = 0; t < threads; t++) {
    pthread_t id;
    pthread_create(&id, NULL, run, &loops[t]);
  }
  char line[64];
  for (int round = 0; fgets(line, sizeof line, stdin); round++) {
    long long fired = now_ns();
    unsigned long long one = 1;
    for (int t = 0; t < threads; t++)
      if (write(loops[t].fire, &one, sizeof one) != sizeof one) perror("fire");
    printf("%d %lld\n", round, fired);
    fflush(stdout);
  }
  return 0;
}
