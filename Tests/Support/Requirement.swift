import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only where `present` holds (a tool, a bus, the corpus, root), except under
    /// `CI=true`: there it always runs, so a missing install step fails instead of hiding behind
    /// a skip. `what` says what is missing, for the developer whose machine skips it.
    public static func requires(_ present: @autoclosure @escaping @Sendable () -> Bool, _ what: Comment) -> Self {
        .enabled(what) { present() || TestEnvironment.isCI }
    }
}
