/// Whether the session a daemon serves is in front of the seat. The system service serves
/// the seat whoever is in front, and stays `inFront`. A user's own daemon (`gestured run`
/// as the user: the user service, development) follows its session's Active (logind):
/// while another session is in front, the touches are another user's (an on-screen
/// keyboard's taps), so it lets every panel go, touches under way cancelled, takes no
/// event of a recording, and opens no panel that appears; back in front, the panels
/// present are offered again.
public enum SeatPresence: Equatable, Sendable {
    case inFront
    case away

    /// As logind says it.
    init(inFront: Bool) { self = inFront ? .inFront : .away }
}
