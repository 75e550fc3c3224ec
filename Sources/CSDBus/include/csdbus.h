#ifndef CSDBUS_H
#define CSDBUS_H
// sd-bus, libsystemd's D-Bus client, plus what Swift cannot call: its readers are variadic.
#include <systemd/sd-bus.h>

/// Reads a message's next argument as a boolean ("b"). Returns what sd_bus_message_read returns.
int csdbus_read_bool(sd_bus_message *message, int *value);

#endif
