/// "Did you mean …?": the closest known name to a mistyped one.
enum Suggestion {
    /// The candidate nearest to `typed`, if it is close enough to be a plausible typo:
    /// at most 3 edits away, and at most half of `typed`'s length (so short nonsense gets none).
    /// Ties go to the candidate listed first.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let limit = min(3, typed.count / 2)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Edits (insert, delete, substitute, swap two neighbours) turning `a` into `b`.
    /// Counting a swap as one edit makes `jsno` one step from `json`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // d[i][j]: distance between the first i characters of a and the first j of b.
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
