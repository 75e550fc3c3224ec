#include "csdbus.h"

int csdbus_read_bool(sd_bus_message *message, int *value) { return sd_bus_message_read(message, "b", value); }
