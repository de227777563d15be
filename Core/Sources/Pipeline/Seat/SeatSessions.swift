import Bindings
import Config
import ConfigDocument
import Gestures
import TouchCore

/// A caller on the bus, as the bus and logind say it (never as the caller says): its
/// unique name, its user, and the logind session its process is in (nil: in none, as the
/// user's own services are: the session agent's user unit). On a user's own session bus
/// (`ofTheUser`: a user's own daemon's) every caller is that user.
public struct BusPeer: Sendable, Equatable {
    public var name: String
    public var uid: UInt32
    public var session: String?
    public var ofTheUser: Bool

    public init(name: String, uid: UInt32, session: String?) {
        self.name = name
        self.uid = uid
        self.session = session
        ofTheUser = false
    }

    /// A caller on the user's own session bus.
    public init(onTheSessionBus name: String) {
        self.name = name
        uid = UInt32.max
        session = nil
        ofTheUser = true
    }
}

/// The session in front of seat0, as logind says it (its ActiveSession): the session's
/// id (its object path, live) and its user.
public struct SeatSession: Sendable, Equatable, CustomStringConvertible {
    public var id: String
    public var user: UInt32

    public init(id: String, user: UInt32) {
        self.id = id
        self.user = user
    }

    public var description: String { "session \(printable(name, limit: 64)) of uid \(user)" }

    /// The session's id as loginctl says it: logind's object path ends with it, its
    /// leading digit escaped (`_312` for "12").
    public var name: String {
        let last = id.split(separator: "/").last.map(String.init) ?? id
        guard last.hasPrefix("_3"), last.count >= 3 else { return last }
        return String(last.dropFirst(2))
    }
}

/// A user's configuration as their session's agent hands it: the parser's document (the
/// agent runs the TOML parser, as the user; `ParseOutcome`'s form), and the text, only
/// for the lines its errors name. The seat checks the document itself, as a user's
/// (`ConfigScope.user`): nothing in it is taken on the agent's word. The bus's edge
/// copies nothing of it beyond the bounds (`oversize` says what was larger) and nothing
/// at all of a caller the seat would refuse (`unread`).
public struct UserPush: Sendable {
    public var file: String
    public var text: String
    public var document: [UInt8]
    /// A hand-over's parts, each with its bound.
    public enum Part: String, Sendable {
        case text
        case document = "parsed document"

        public var most: Int { self == .text ? UserPush.longestText : UserPush.longestDocument }
    }

    /// The part larger than a user's configuration may be, left uncopied, and its size
    /// (nil: more than the bound, not read further).
    public var oversize: (part: Part, bytes: Int?)?

    public init(file: String, text: String, document: [UInt8]) {
        self.file = file
        self.text = text
        self.document = document
        if text.utf8.count > Part.text.most {
            oversize = (.text, text.utf8.count)
        } else if document.count > Part.document.most {
            oversize = (.document, document.count)
        }
    }

    /// A hand-over left unread: its text or document is larger than the bounds.
    public init(file: String, oversize: (part: Part, bytes: Int?)) {
        self.init(file: file, text: "", document: [])
        self.oversize = oversize
    }

    /// Not read by the edge: the seat refuses it, as not in front or too soon.
    public private(set) var isUnread = false

    /// What the edge hands the seat for a caller that does not act for the session in
    /// front, or calls faster than `PushPace`: none of its arguments read, the seat
    /// refuses it before looking.
    public static let unread = {
        var push = UserPush(file: "", text: "", document: [])
        push.isUnread = true
        return push
    }()

    /// A user's file is a few KiB; its document a few times that.
    public static let longestText = 64 * 1024
    public static let longestDocument = 256 * 1024
}

/// The sessions at the seat, for the system service: which one is in front, and what
/// each one's agent handed over (its user's configuration, the agent's bus name for the
/// actions of that user's gestures). Who may hand over or report, and what stands once
/// another session is in front, are decided here.
struct SeatSessions {
    struct Given {
        var config: Configuration?
        var file: String
        /// The agent that last handed it over: where that user's commands go.
        var agent: String?
        var pushes = PushPace()
        var usedAt: Timestamp
        /// "no agent" was said for this session since its agent was last there.
        var saidNoAgent = false
    }

    private(set) var active: SeatSession?
    private(set) var given: [String: Given] = [:]
    /// The sessions not in front whose actions were dropped since the last change of session.
    private var saidNotInFront: Set<String> = []
    /// Sessions remembered at most: each user's configuration for when their session is
    /// in front again, without waiting for the agent; the oldest used is forgotten.
    static let mostSessions = 16

    /// Whether a caller acts for the session in front: that session's user, from a
    /// process of that session or of none (the user's own services); a process of
    /// another session of that user is not in front.
    func actsForTheActive(_ peer: BusPeer) -> Bool {
        guard let active, !peer.ofTheUser, peer.uid == active.user else { return false }
        return peer.session == nil || peer.session == active.id
    }

    /// Another session in front (or none known).
    mutating func setActive(_ session: SeatSession?, at time: Timestamp) {
        active = session
        saidNotInFront = []
        if let id = session?.id, given[id] != nil { given[id]!.usedAt = time }
    }

    /// The gestures of the users of sessions not in front that need gestured's keyboard
    /// or pointer.
    var neededByOthers: [String] {
        given.filter { $0.key != active?.id }.values.flatMap { $0.config?.bindings.filter(\.needsVirtualDevices).map(\.gesture) ?? [] }.sorted()
    }

    /// Whether another session's user hands a gesture to the virtual touchpad.
    var othersNeedTouchpad: Bool {
        given.contains { $0.key != active?.id && $0.value.config?.bindings.contains(where: \.touchpad) == true }
    }

    /// What the active session's agent gave, if anything.
    var activeGiven: Given? { active.flatMap { given[$0.id] } }

    /// Whether the active session's agent may hand over one more now (1 a second, 4 at once).
    mutating func admitPush(at time: Timestamp) -> Bool {
        guard let id = active?.id else { return false }
        if given[id] == nil {
            forgetOldest()
            given[id] = Given(config: nil, file: "", usedAt: time)
        }
        return given[id]!.pushes.admit(at: time)
    }

    /// Whether the active session's agent's next hand-over would be admitted now, taking
    /// nothing: what decides whether its arguments are read at all.
    func wouldAdmitPush(at time: Timestamp) -> Bool {
        guard let id = active?.id else { return false }
        return given[id]?.pushes.wouldAdmit(at: time) ?? true
    }

    mutating func take(_ config: Configuration, file: String, from agent: String, at time: Timestamp) {
        guard let id = active?.id, given[id] != nil else { return }
        given[id]!.config = config
        given[id]!.file = file
        given[id]!.agent = agent
        given[id]!.usedAt = time
        given[id]!.saidNoAgent = false
    }

    /// A peer left the bus: the sessions it was the agent of have none now; true for the active one.
    mutating func peerLeft(_ name: String) -> Bool {
        var wasActive = false
        for id in given.keys where given[id]!.agent == name {
            given[id]!.agent = nil
            if id == active?.id { wasActive = true }
        }
        return wasActive
    }

    /// "No agent" to be said for the active session now: true once until its agent comes back.
    mutating func sayNoAgent() -> Bool {
        guard let id = active?.id, given[id] != nil, !given[id]!.saidNoAgent else { return false }
        given[id]!.saidNoAgent = true
        return true
    }

    /// Whether the owner of a binding is in front of the seat now: the machine always is.
    func inFront(_ owner: BindingOwner) -> Bool {
        switch owner {
        case .machine: true
        case .session(let id): id == active?.id
        }
    }

    /// "Dropped: not in front" to be said for a session now: true once until another
    /// session comes in front.
    mutating func sayNotInFront(_ id: String) -> Bool {
        saidNotInFront.insert(id).inserted
    }

    private mutating func forgetOldest() {
        guard given.count >= Self.mostSessions,
              let oldest = given.filter({ $0.key != active?.id }).min(by: { $0.value.usedAt < $1.value.usedAt })?.key else { return }
        given[oldest] = nil
    }
}

/// How often a session's agent may hand over its configuration: checking one takes
/// milliseconds, a flood of them would take the loop. Four at once, then one a second.
struct PushPace: Equatable {
    static let burst = 4.0
    static let perSecond = 1.0
    private var tokens = PushPace.burst
    private var refilledAt: Timestamp?

    mutating func admit(at time: Timestamp) -> Bool {
        tokens = tokens(at: time)
        refilledAt = time
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whether `admit` would take one at `time`, taking none.
    func wouldAdmit(at time: Timestamp) -> Bool { tokens(at: time) >= 1 }

    private func tokens(at time: Timestamp) -> Double {
        guard let refilledAt else { return tokens }
        let elapsed = max(0, (Double(time.microseconds) - Double(refilledAt.microseconds)) / 1_000_000)
        return min(Self.burst, tokens + elapsed * Self.perSecond)
    }
}
