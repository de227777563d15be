/// How a bound command starts. Words with no shell syntax run directly, the program found
/// on PATH as systemd's `ExecStart=` does: no `/bin/sh` to start first. A command a shell
/// would interpret (quotes, `$`, redirections, pipes, globs, `;`, `&`, backslashes,
/// newlines, comments, a variable assignment or a shell keyword or builtin first) runs as
/// `/bin/sh -c command`. `exec = [...]` in the configuration gives the words exactly.
public enum CommandForm: Equatable, Codable, Sendable, CustomStringConvertible {
    case direct([String])
    case shell(String)

    public init(_ command: String) {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let first = words.first, !command.contains(where: Self.shellSyntax.contains),
           !first.contains("="), !Self.shellWords.contains(first) {
            self = .direct(words)
        } else {
            self = .shell(command)
        }
    }

    /// Characters that mean something to /bin/sh beyond separating words.
    private static let shellSyntax: Set<Character> = ["'", "\"", "`", "$", "<", ">", "|", ";", "&", "\\", "\n", "\r",
                                                      "*", "?", "[", "]", "{", "}", "~", "#", "(", ")", "!"]
    /// Keywords and builtins that have no program of their own (or act on the shell).
    private static let shellWords: Set<String> = [
        "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "in", "function",
        "select", "time", "cd", ".", "source", "export", "exec", "eval", "set", "unset", "alias", "unalias", "read",
        "shift", "trap", "ulimit", "umask", "wait", "command", "type", "hash", "getopts", "break", "continue",
        "return", "exit", "readonly", "local", "let", "declare", "typeset", "builtin", "jobs", "fg", "bg",
    ]

    /// What to start: the words (argv[0] looked up on PATH), or the shell and the text.
    public var argv: [String] {
        switch self {
        case .direct(let words): words
        case .shell(let text): ["/bin/sh", "-c", text]
        }
    }

    /// The command as a line: the words with spaces, or the shell's text.
    public var text: String {
        switch self {
        case .direct(let words): words.joined(separator: " ")
        case .shell(let text): text
        }
    }

    public var description: String {
        switch self {
        case .direct(let words): "started directly: " + words.joined(separator: " ")
        case .shell(let text): "started with /bin/sh -c: " + text
        }
    }
}
