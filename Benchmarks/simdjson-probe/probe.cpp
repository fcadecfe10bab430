// Parse-only throughput of simdjson (DOM API) on one JSON file: the practical ceiling `make bench` compares the
// whole `layout-worker compile` process against. Benchmark only: nothing in the project links simdjson.
//   simdjson-probe FILE [SECONDS]   prints "<MB/s> <parses>" for repeated parses of FILE for about SECONDS.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <simdjson.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: simdjson-probe FILE [SECONDS]\n");
        return 2;
    }
    double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[1]).get(json)) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(json).get(doc)) {  // warm up, and size the parser's buffers once
        std::fprintf(stderr, "%s is not valid JSON\n", argv[1]);
        return 1;
    }
    auto start = std::chrono::steady_clock::now();
    long parses = 0;
    double elapsed = 0;
    do {
        for (int i = 0; i < 50; i++) {
            if (parser.parse(json).get(doc)) return 1;
        }
        parses += 50;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < seconds);
    std::printf("%.0f %ld\n", json.size() * parses / elapsed / 1e6, parses);
    return 0;
}
