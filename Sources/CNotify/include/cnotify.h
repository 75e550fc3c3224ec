#ifndef CNOTIFY_H
#define CNOTIFY_H
// A desktop-notification client (org.freedesktop.Notifications) on sd-bus. sd-bus's message
// calls are variadic, so they are written here; the header declares only podcli's functions.
#include <stddef.h>
#include <stdint.h>

typedef struct cnotify cnotify;

/// What the server can do (GetCapabilities), as bits.
enum { CNOTIFY_ACTIONS = 1, CNOTIFY_BODY_MARKUP = 2 };

/// What became of a notification (cnotify_wait).
enum { CNOTIFY_TIMED_OUT = 0, CNOTIFY_ACTION_INVOKED = 1, CNOTIFY_CLOSED = 2 };

/// Connects to the session bus (sd_bus_open_user: DBUS_SESSION_BUS_ADDRESS, else
/// $XDG_RUNTIME_DIR/bus), or to `address` when not NULL, with `call_timeout_usec` for each method
/// call, and subscribes to the server's ActionInvoked and NotificationClosed. Returns 0 with
/// *client set, or a negative errno.
int cnotify_open(cnotify **client, const char *address, uint64_t call_timeout_usec);
void cnotify_free(cnotify *client);

/// GetCapabilities as CNOTIFY_* bits, or a negative errno.
int cnotify_capabilities(cnotify *client);

/// Notify: the notification, with `action_count` strings in `actions` (key, label, key, label...)
/// and no hints. Returns 0 with *id set, or a negative errno.
int cnotify_notify(cnotify *client, const char *app_name, const char *summary, const char *body,
                   const char *const *actions, int action_count, int32_t expire_timeout, uint32_t *id);

/// Waits until the server reports an action on notification `id` (its key copied to `action`,
/// cut to `size`), or its closing, or `timeout_usec` passes. Returns CNOTIFY_ACTION_INVOKED,
/// CNOTIFY_CLOSED or CNOTIFY_TIMED_OUT, or a negative errno (the bus went away).
int cnotify_wait(cnotify *client, uint32_t id, uint64_t timeout_usec, char *action, size_t size);

/// The D-Bus error of the last failed call ("org.freedesktop.DBus.Error.ServiceUnknown: ..."),
/// or "" when there was none.
const char *cnotify_last_error(cnotify *client);

#endif
