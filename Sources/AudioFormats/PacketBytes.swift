/// A packet's bytes as a source of their own, offsets counted from the packet's start.
struct PacketBytes<Source: ByteSource>: ByteSource {
    let packet: OggPacket
    let source: Source

    var size: Int { packet.length }

    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        return packet.bytes(at: offset, count: count, in: source)
    }
}
