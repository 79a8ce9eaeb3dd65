// Runs libFuzzer from a program that keeps its own main (llvm.org/docs/LibFuzzer.html, "Using
// libFuzzer as a library"): the fuzzers here are SwiftPM executables, whose main is theirs.
#ifndef HEADWAY_FUZZ_DRIVER_H
#define HEADWAY_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Hands the command line to libFuzzer's driver, which calls `callback` with each input, and exits
/// with its status, having printed the inputs' throughput (stat::input_bytes_per_second,
/// stat::inputs_per_second).
_Noreturn void headway_fuzz(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));

#endif
