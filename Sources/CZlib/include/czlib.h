// zlib's header (Debian's zlib1g-dev): deflate and inflate, for the transcripts' stored text.
#include <zlib.h>
