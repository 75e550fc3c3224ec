// libebur128's header (Debian's libebur128-dev): EBU R128 loudness and true peak.
#include <ebur128.h>
