#ifndef CALSA_H
#define CALSA_H
// ALSA's header, plus what Swift cannot do with it.
#include <alsa/asoundlib.h>

/// Stops alsa-lib printing its diagnostics ("ALSA lib confmisc.c:855:(parse_card) cannot find
/// card '0'", ...) to stderr: the error handler's type is variadic, so Swift cannot supply one.
/// The caller reports failures itself, from the return codes.
void calsa_silence_errors(void);

#endif
