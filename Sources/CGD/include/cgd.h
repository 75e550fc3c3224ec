#ifndef CGD_H
#define CGD_H
// libgd's header, plus what Swift cannot do with it.
#include <gd.h>

/// Stops libgd printing its diagnostics ("gd-jpeg: JPEG library reports unrecoverable error",
/// "gd-png: fatal libpng error", ...) to stderr: the error handler takes a va_list, so Swift
/// cannot supply one. A broken image is reported by the caller, from the NULL libgd returns.
void cgd_silence_errors(void);

#endif
