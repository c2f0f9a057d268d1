#include "fuzz_driver.h"

extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))
    __attribute__((weak));

int guided_fuzz_has_driver(void) { return LLVMFuzzerRunDriver != 0; }

int guided_fuzz_run_driver(int argc, char **argv, guided_fuzz_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
