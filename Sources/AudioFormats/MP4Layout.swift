/// Where an MP4's index lies relative to its audio.
public enum MP4Layout {
    /// True when the top-level boxes at the start of `source` reach the audio (`mdat`) before
    /// the index (`moov`): a file written front to back without a "fast start" pass, which no
    /// player can begin before its end has arrived.
    public static func indexFollowsAudio(in source: some ByteSource) -> Bool {
        var offset = 0
        while let box = MP4Box(in: source, at: offset, limit: Int.max / 2) {
            if box.type == "moov" { return false }
            if box.type == "mdat" { return true }
            offset = box.end
        }
        return false
    }
}
