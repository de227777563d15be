import Gestures
import SystemIO
import SystemPackage

/// A desktop that says which application is in front, over a socket the loop watches:
/// sway or i3 (`SwayWatcher`), Hyprland (`HyprlandWatcher`), an X display (`X11Watcher`),
/// a wlroots compositor (`ToplevelWatcher`, through a helper's pipe). What it sends is a peer's:
/// read a budget at a time, each message bounded, names bounded (`AppInFront.longestName`).
public protocol AppWatcher: AnyObject {
    /// Who says: "sway", "i3", "hyprland".
    var source: String { get }
    var fd: FileDescriptor { get }
    /// Reads what arrived, at most `SocketBuffer.budget` bytes: what it says anew. Throws
    /// when the desktop went away or spoke what it never speaks; then `close()`.
    func read() throws(AppWatcherError) -> DesktopNews
    func close()
    /// What arrived is not all read (the budget ran out where the loop cannot see it,
    /// inside a library's queue): read again without waiting.
    var pending: Bool { get }
    /// A second descriptor to watch, for a desktop that answers questions on a socket of
    /// their own (Hyprland's request socket, one connection per question); it changes
    /// after `read()`, and `read()` reads it too.
    var requestFD: FileDescriptor? { get }
    /// When `read()` is due though nothing arrived (an answer late, a question to put
    /// again), on the monotonic clock in microseconds.
    var deadline: Int64? { get }
}

extension AppWatcher {
    public var pending: Bool { false }
    public var requestFD: FileDescriptor? { nil }
    public var deadline: Int64? { nil }
}

/// What a desktop said in one read.
public struct DesktopNews {
    /// The application in front when it changed (`.some(nil)`: none), nil when it did not.
    public var app: AppInFront??
    /// Where its windows are when that changed, nil when it did not (a desktop that
    /// never says leaves it nil).
    public var windows: WindowLayout??

    public init(app: AppInFront?? = nil, windows: WindowLayout?? = nil) {
        self.app = app
        self.windows = windows
    }
}

public struct AppWatcherError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What came from a desktop's socket and is not yet taken, bounded: a message larger
/// than `largest` is skipped as it comes, never held.
public struct SocketBuffer {
    /// Bytes read per wake-up: a desktop that floods its socket is read in turns with
    /// everything else.
    public static let budget = 256 * 1024
    public let largest: Int
    private var storage: [UInt8] = []
    /// Where the bytes not yet taken begin in `storage`.
    private var start = 0
    /// Bytes of an oversized message still to be thrown away as they come.
    private var skipping = 0
    /// Within a line longer than `largest`: thrown away up to its end.
    private var skippingLine = false

    /// The bytes not yet taken.
    public var bytes: ArraySlice<UInt8> { storage[start...] }

    public init(largest: Int) { self.largest = largest }

    /// Reads what is there, up to the budget; throws at the end of the stream or on an error.
    public mutating func fill(from fd: FileDescriptor) throws(AppWatcherError) {
        if try fillUntilClosed(from: fd) { throw AppWatcherError("it closed its socket") }
    }

    /// Reads what is there, up to the budget: whether the stream has ended (a reply that
    /// ends where the peer closes); throws on an error.
    public mutating func fillUntilClosed(from fd: FileDescriptor) throws(AppWatcherError) -> Bool {
        storage.removeFirst(start)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < Self.budget {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) in try Syscall.read(fd, into: raw) }
                }.get()
            } catch {
                if error == .wouldBlock { return false }
                throw AppWatcherError("reading its socket failed (\(error))")
            }
            guard count > 0 else { return true }
            total += count
            var taken = chunk[..<count]
            if skipping > 0 {
                let skipped = min(skipping, taken.count)
                skipping -= skipped
                taken = taken.dropFirst(skipped)
            }
            storage.append(contentsOf: taken)
        }
        return false
    }

    /// Takes the first `count` bytes (a message read).
    public mutating func consume(_ count: Int) { start = min(start + count, storage.count) }

    /// Each whole line that came (without its newline), in order; a line longer than
    /// `largest` is thrown away, what has come of it and the rest as it comes.
    public mutating func takeLines(_ each: (ArraySlice<UInt8>) -> Void) {
        while let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[..<end]
            consume(line.count + 1)
            if skippingLine {
                skippingLine = false
                continue
            }
            each(line)
        }
        if bytes.count > largest {
            consume(bytes.count)
            skippingLine = true
        }
    }

    /// Throws away a message of `count` bytes that begins here, what has come of it and
    /// what is still to come.
    public mutating func skip(_ count: Int) {
        let here = storage.count - start
        skipping = max(0, count - here)
        start = min(start + count, storage.count)
    }
}
