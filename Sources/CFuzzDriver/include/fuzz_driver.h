// A bridge to libFuzzer's driver. SwiftPM renames an executable's `main`, so libFuzzer cannot provide it;
// the Swift program calls libFuzzer's `LLVMFuzzerRunDriver` through here instead. The symbol is weak: a
// plain build (no `-sanitize-coverage`, no libFuzzer linked) links too, and then replays files.
#ifndef GUIDED_FUZZ_DRIVER_H
#define GUIDED_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

typedef int (*guided_fuzz_callback)(const uint8_t *data, size_t size);

/// 1 when libFuzzer is linked into this binary.
int guided_fuzz_has_driver(void);

/// Runs libFuzzer's driver with the given arguments (libFuzzer's flags, corpus folders); returns its
/// exit status. Only call when `guided_fuzz_has_driver()` is 1.
int guided_fuzz_run_driver(int argc, char **argv, guided_fuzz_callback callback);

#endif
