#include "cxml_shim.h"

#include <libxml/xmlerror.h>

static void count_generic_error(void *context, const char *message, ...) {
    (void)message;
    if (context != NULL) *(int *)context += 1;
}

void cxml_count_generic_errors(int *count) { xmlSetGenericErrorFunc(count, count_generic_error); }
