#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that nothing listens on, so a connection to it is refused (a server that
/// is down). The port stays bound, not listening, for as long as the value lives: no other server
/// the suite starts meanwhile can be handed it.
public final class ClosedLoopbackPort: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        var (descriptor, address) = try loopbackSocket(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TestSupportError("bind: \(reason)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts listening on the port (the server is back); returns the listening descriptor, which
    /// this value still owns.
    public func listen(backlog: Int32 = 8) throws -> Int32 {
        #if canImport(Glibc)
            guard Glibc.listen(descriptor, backlog) == 0 else {
                throw TestSupportError("listen: \(String(cString: strerror(errno)))")
            }
        #else
            guard Darwin.listen(descriptor, backlog) == 0 else {
                throw TestSupportError("listen: \(String(cString: strerror(errno)))")
            }
        #endif
        return descriptor
    }

    deinit { close(descriptor) }
}

/// A new TCP socket, and the address of 127.0.0.1:`port` for it.
public func loopbackSocket(port: Int) throws -> (descriptor: Int32, address: sockaddr_in) {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return (descriptor, address)
}
