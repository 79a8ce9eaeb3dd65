#include "fuzz_driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// Defined by the sanitizer runtime that -sanitize=fuzzer links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

// What went through the fuzzer, for its throughput: inputs, their bytes, and the time since the start.
static int (*fuzzed)(const uint8_t *data, size_t size);
static unsigned long long inputs, input_bytes;
static struct timespec started;

static int counted(const uint8_t *data, size_t size) {
    inputs += 1;
    input_bytes += size;
    return fuzzed(data, size);
}

// Printed at exit beside libFuzzer's own final statistics (-print_final_stats=1), in their form.
static void report(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double seconds = (double)(now.tv_sec - started.tv_sec) + (double)(now.tv_nsec - started.tv_nsec) / 1e9;
    if (seconds <= 0) return;
    fprintf(stderr, "stat::input_bytes:                   %llu\n", input_bytes);
    fprintf(stderr, "stat::input_bytes_per_second:        %.0f\n", (double)input_bytes / seconds);
    fprintf(stderr, "stat::inputs_per_second:             %.0f\n", (double)inputs / seconds);
}

void headway_fuzz(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    fuzzed = callback;
    clock_gettime(CLOCK_MONOTONIC, &started);
    atexit(report);
    exit(LLVMFuzzerRunDriver(&argc, &argv, counted));
}
