#include "fuzz_driver.h"

#include <stdlib.h>

// Defined by the sanitizer runtime that -sanitize=fuzzer links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

void headway_fuzz(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback));
}
