import CALSA

#if canImport(Glibc)
    import Glibc
#endif

/// A device ALSA offers for playback, as `aplay -L` lists it: the sound cards' devices and those
/// the system's and the user's configuration (`~/.asoundrc`) define with a hint.
public struct ALSADevice: Sendable, Hashable {
    /// The name `--device` takes: `default`, `null`, `pulse`, `hw:CARD=PCH,DEV=0`, ...
    public let name: String
    /// The first line of ALSA's description ("HDA Intel PCH, ALC892 Analog"); empty when it has none.
    public let description: String

    /// ALSA's playback devices, in its order (those for capture only left out). Empty when ALSA
    /// lists none or cannot read its configuration: a listing has no one to tell (a shell's
    /// completion), and opening the device says why it cannot be used.
    public static func playbackDevices() -> [ALSADevice] {
        // A broken configuration would otherwise print ALSA's diagnostics over the command line.
        calsa_silence_errors()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADevice] = []
        // A list ended by NULL.
        var index = 0
        while let hint = hints[index] {
            index += 1
            // No direction: both; else "Input" or "Output".
            let direction = field(hint, "IOID")
            guard direction == nil || direction == "Output", let name = field(hint, "NAME") else { continue }
            // A card's description has its device's name on a second line.
            let description = field(hint, "DESC").map { String($0.prefix { $0 != "\n" }) } ?? ""
            devices.append(ALSADevice(name: name, description: description))
        }
        return devices
    }

    /// One field of a hint: ALSA's copy (allocated for the caller) copied, then freed.
    private static func field(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
