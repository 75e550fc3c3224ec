#!/usr/bin/python3
"""A recording desktop-notification server (org.freedesktop.Notifications) for podcli's tests.

    /usr/bin/python3 notification_server.py --bus ADDRESS [--capabilities body,actions,...]

Owns org.freedesktop.Notifications at /org/freedesktop/Notifications on the bus at ADDRESS and
writes one JSON object a line to stdout: first {"ready": true} once it owns the name, then one
per call it answered, e.g. {"method": "Notify", "app_name": "podcli", "replaces_id": 0,
"app_icon": "", "summary": "...", "body": "...", "actions": [...], "hints": {},
"expire_timeout": -1, "id": 41}. GetCapabilities answers the capabilities given (default: none).
Notification ids start at 41, so a client that assumes 1 is caught.

Commands on stdin, one a line, each acknowledged by {"emitted": ...} on stdout:
    invoke ID KEY      emit ActionInvoked(ID, KEY)
    close ID REASON    emit NotificationClosed(ID, REASON)
It exits at the end of stdin (the test finished or died) or on SIGTERM.

Needs Debian's python3-dbus and python3-gi (run it with /usr/bin/python3, which has them).
"""

import argparse
import json
import signal
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def say(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def plain(value):
    """dbus-python's types as JSON's."""
    if isinstance(value, (dbus.Array, list)):
        return [plain(item) for item in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (dbus.String, str)):
        return str(value)
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (int, float)):
        return value
    return str(value)


class Server(dbus.service.Object):
    def __init__(self, connection, capabilities):
        super().__init__(connection, PATH)
        self.capabilities = capabilities
        self.next_id = 41

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        say({"method": "GetCapabilities"})
        return dbus.Array(self.capabilities, signature="s")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        notification_id = int(replaces_id) or self.next_id
        if not replaces_id:
            self.next_id += 1
        say({
            "method": "Notify", "app_name": plain(app_name), "replaces_id": int(replaces_id),
            "app_icon": plain(app_icon), "summary": plain(summary), "body": plain(body),
            "actions": plain(actions), "hints": plain(hints), "expire_timeout": int(expire_timeout),
            "id": notification_id,
        })
        return dbus.UInt32(notification_id)

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        say({"method": "CloseNotification", "id": int(notification_id)})
        self.NotificationClosed(notification_id, dbus.UInt32(3))

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        say({"method": "GetServerInformation"})
        return ("podcli-test", "podcli", "1.0", "1.2")

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bus", required=True)
    parser.add_argument("--capabilities", default="")
    options = parser.parse_args()
    capabilities = [item for item in options.capabilities.split(",") if item]

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    connection = dbus.bus.BusConnection(options.bus)
    loop = GLib.MainLoop()
    server = Server(connection, capabilities)
    # Kept referenced: the name is released when this object goes.
    name = dbus.service.BusName(NAME, bus=connection, do_not_queue=True)

    def command(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        words = line.split()
        if len(words) == 3 and words[0] == "invoke":
            server.ActionInvoked(dbus.UInt32(int(words[1])), words[2])
        elif len(words) == 3 and words[0] == "close":
            server.NotificationClosed(dbus.UInt32(int(words[1])), dbus.UInt32(int(words[2])))
        else:
            say({"error": "unknown command", "line": line.strip()})
            return True
        # Out of the process before the acknowledgement: the client may see it already.
        connection.flush()
        say({"emitted": words})
        return True

    GLib.io_add_watch(sys.stdin, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, command)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    say({"ready": True, "name": str(name.get_name())})
    loop.run()


if __name__ == "__main__":
    main()
