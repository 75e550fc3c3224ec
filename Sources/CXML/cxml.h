// libxml2's push parser with SAX2 callbacks: the feed parser streams a file through it; and its
// HTML parser, which reads show notes and HTML transcripts.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h would pull in the system's ICU headers,
// whose UErrorCode clashes with the copy inside Foundation when one Swift module imports both.
// podcli never touches the ICU-only fields of xmlCharEncodingHandler, so it goes without them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
