// libxml2's push parser with SAX2 callbacks: the feed parser streams a file through it.
#include <libxml/parser.h>
