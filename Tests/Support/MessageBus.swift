import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private D-Bus daemon for a test, standing in for the system bus (or a session bus): the
/// test points a child at `address` (`DBUS_SYSTEM_BUS_ADDRESS`) and emits signals on it with
/// `dbus-send`, as logind would.
public final class MessageBus {
    public let address: String
    private let daemon: RunningProcess
    private let directory: TemporaryDirectory

    public static var unavailableReason: String? {
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (dbus-daemon, dbus-bin)"
        }
        return nil
    }

    public init() throws {
        if let reason = Self.unavailableReason { throw TestSupportError(reason) }
        directory = try TemporaryDirectory(prefix: "podcli-bus")
        let config = try directory.write(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """, to: "bus.conf")
        let daemon = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
            arguments: ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: ProcessInfo.processInfo.environment)
        let socket = directory.appending("bus").path
        // The daemon prints its address once it listens. The socket's file alone is not enough:
        // it appears at bind(2), before listen(2), and a client connecting between the two is
        // refused (seen on a loaded machine).
        guard waitUntil(timeout: 20, { daemon.currentStdout.contains("\n") }) else {
            daemon.kill(signal: SIGKILL)
            throw TestSupportError("dbus-daemon did not listen on \(socket): \(try daemon.waitUntilExit())")
        }
        self.daemon = daemon
        address = "unix:path=\(socket)"
    }

    deinit { daemon.kill(signal: SIGTERM) }

    /// `dbus-send --type=signal PATH INTERFACE.MEMBER ARGUMENTS...` on this bus.
    public func emit(path: String, member: String, _ arguments: [String]) throws {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/dbus-send"),
            arguments: ["--bus=\(address)", "--type=signal", path, member] + arguments,
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 10)
        guard result.status == 0 else { throw TestSupportError("dbus-send failed: \(result)") }
    }

    /// logind's signal before the system sleeps (`true`) and after it wakes (`false`).
    public func prepareForSleep(_ sleeping: Bool) throws {
        try emit(
            path: "/org/freedesktop/login1", member: "org.freedesktop.login1.Manager.PrepareForSleep",
            ["boolean:\(sleeping)"])
    }
}
