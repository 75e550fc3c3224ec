import FoundationEssentials

/// The JSON the two dialects send and take, read with the leniency real servers need: a time as
/// an ISO 8601 string or a Unix number, an action's name in any case (the Nextcloud app's README
/// writes `PLAY`), `-1` or null for an unknown position, and keys a dialect adds (`id`) ignored.
enum WireFormat {
    /// An episode action as it came down; `kind` is nil for one podcli does not know (`flattr`).
    struct DownloadedAction: Decodable {
        let action: EpisodeAction?

        enum Key: String, CodingKey {
            case podcast, episode, guid, action, timestamp, started, position, total, device
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let name = try container.decode(String.self, forKey: .action)
            let timestamp = try ServerTime(from: container.superDecoder(forKey: .timestamp)).seconds
            guard let kind = EpisodeAction.Kind(rawValue: name.lowercased()) else {
                action = nil
                return
            }
            let isPlay = kind == .play
            action = EpisodeAction(
                podcast: try container.decode(String.self, forKey: .podcast),
                episode: try container.decode(String.self, forKey: .episode),
                guid: try container.decodeIfPresent(String.self, forKey: .guid).flatMap { $0.isEmpty ? nil : $0 },
                kind: kind, timestamp: timestamp,
                started: isPlay ? try Self.seconds(container, .started) : nil,
                position: isPlay ? try Self.seconds(container, .position) : nil,
                total: isPlay ? try Self.seconds(container, .total) : nil,
                device: try container.decodeIfPresent(String.self, forKey: .device).flatMap { $0.isEmpty ? nil : $0 })
        }

        /// A position in seconds: nil when absent, null or negative (`-1`, unknown); a fraction dropped.
        private static func seconds(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int? {
            if let whole = try? container.decodeIfPresent(Int.self, forKey: key) { return whole >= 0 ? whole : nil }
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
            return value.isFinite && value >= 0 && value < Double(Int32.max) ? Int(value) : nil
        }
    }

    /// A server's time: Unix seconds as a number (a fraction dropped) or a numeric string, or an
    /// ISO 8601 string.
    struct ServerTime: Decodable {
        let seconds: Int

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let whole = try? value.decode(Int.self) {
                seconds = whole
            } else if let number = try? value.decode(Double.self), number.isFinite, abs(number) < 1e15 {
                seconds = Int(number.rounded(.down))
            } else {
                let text = try value.decode(String.self)
                guard let parsed = Int(text) ?? SyncTimestamp.parse(text) else {
                    throw DecodingError.dataCorruptedError(
                        in: value, debugDescription: "the time '\(text.prefix(40))' cannot be read")
                }
                seconds = parsed
            }
        }
    }

    struct SubscriptionsReply: Decodable {
        let add: [String]
        let remove: [String]
        let timestamp: ServerTime
    }

    struct EpisodeActionsReply: Decodable {
        let actions: [DownloadedAction]
        let timestamp: ServerTime
    }

    /// An upload's answer: mygpo's `{timestamp, update_urls}`, the Nextcloud app's `{timestamp}`.
    struct UploadReply: Decodable {
        let timestamp: ServerTime
        let updateURLs: [[String]]?

        enum CodingKeys: String, CodingKey {
            case timestamp
            case updateURLs = "update_urls"
        }
    }

    struct SyncGroups: Codable {
        var synchronized: [[String]]
        var notSynchronized: [String]?

        enum CodingKeys: String, CodingKey {
            case synchronized
            case notSynchronized = "not-synchronized"
        }
    }

    struct SyncRequest: Encodable {
        let synchronize: [[String]]
        let stopSynchronize: [String]

        enum CodingKeys: String, CodingKey {
            case synchronize
            case stopSynchronize = "stop-synchronize"
        }
    }

    struct Device: Encodable {
        let caption: String
        let type: String
    }

    struct SubscriptionUpload: Encodable {
        let add: [String]
        let remove: [String]
    }

    /// An episode action going up. mygpo takes `started`, `position` and `total` with `play` only;
    /// the Nextcloud app stores all three for every action (`-1` where there is none, as its README
    /// shows). An unknown value is `-1`.
    struct UploadedAction: Encodable {
        let action: EpisodeAction
        let device: String
        let dialect: SyncDialect

        enum Key: String, CodingKey {
            case podcast, episode, guid, action, timestamp, started, position, total, device
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(action.podcast, forKey: .podcast)
            try container.encode(action.episode, forKey: .episode)
            try container.encodeIfPresent(action.guid, forKey: .guid)
            try container.encode(action.kind.rawValue, forKey: .action)
            try container.encode(SyncTimestamp.format(action.timestamp), forKey: .timestamp)
            try container.encode(action.device ?? device, forKey: .device)
            if action.kind == .play || dialect == .nextcloud {
                try container.encode(action.started ?? -1, forKey: .started)
                try container.encode(action.position ?? -1, forKey: .position)
                try container.encode(action.total ?? -1, forKey: .total)
            }
        }
    }

    /// What was wrong with a reply, in a few words: the key missing or of the wrong type, by its path.
    static func problem(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it is not JSON" }
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map(String.init) ?? $0.stringValue }
                .joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "it has no '\(path(context.codingPath, key))'"
        case .valueNotFound(_, let context):
            return "'\(path(context.codingPath))' is null"
        case .typeMismatch(_, let context):
            let location = path(context.codingPath)
            return location.isEmpty ? "it is not a JSON object of the API's" : "'\(location)' is not what the API gives"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "it is not JSON" : "'\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default:
            return "it is not what the API gives"
        }
    }
}
