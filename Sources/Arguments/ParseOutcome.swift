/// What `ArgumentParser.parse(_:)` asks the program to do.
public enum ParseOutcome: Sendable {
    /// Run a command.
    case run(Invocation)
    /// Print this rendered help text to stdout and exit 0.
    case help(String)
    /// Print this version line (e.g. `podcli 0.1.0`) to stdout and exit 0.
    case version(String)
}
