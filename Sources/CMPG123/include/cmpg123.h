// libmpg123's header. Swift cannot call the `mpg123_param` macro: use mpg123_param2.
#include <mpg123.h>
