#include "cgd.h"

static void ignore_error(int priority, const char *format, va_list arguments) {
    (void)priority;
    (void)format;
    (void)arguments;
}

void cgd_silence_errors(void) { gdSetErrorMethod(ignore_error); }
