/// What follows a peer on the bus (logind, iio-sensor-proxy, the running service), as the
/// loop runs it: it says what to watch through `onWatchChange`, when it next needs to run
/// even if nothing arrives (`nextDeadline`, monotonic µs), and runs (`process`).
public protocol PeerFollower: AnyObject {
    var nextDeadline: Int64? { get }
    func process()
    var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void { get set }
}

extension LogindWatcher: PeerFollower {}
extension SensorProxyWatcher: PeerFollower {}
extension ServiceFollower: PeerFollower {}
