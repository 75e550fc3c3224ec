// What Swift cannot do with libxml2: its generic error handler is a variadic function pointer.

// Routes libxml2's generic errors on this thread (such as "xmlParseChunk: encoder error", which
// it would print to stderr) to a counter: each one adds 1 to *count. With NULL they are dropped.
// podcli reports parse errors itself; the count only tells that one happened.
void cxml_count_generic_errors(int *count);
