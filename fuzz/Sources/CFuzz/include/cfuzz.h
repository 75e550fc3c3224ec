#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver: runs the fuzzing loop with `callback` as the target.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
