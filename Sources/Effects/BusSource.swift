/// What keeps a bus connection (the service's own; those following logind,
/// iio-sensor-proxy and the running service), as the loop runs it: it says what to watch
/// through `onWatchChange`, when it next needs to run even if nothing arrives
/// (`nextDeadline`, monotonic µs), and runs (`process`).
public protocol BusSource: AnyObject {
    var nextDeadline: Int64? { get }
    func process()
    var onWatchChange: (_ old: BusService.Watch?, _ new: BusService.Watch?) -> Void { get set }
}

extension BusService: BusSource {}
extension LogindWatcher: BusSource {}
extension SensorProxyWatcher: BusSource {}
extension ServiceFollower: BusSource {}
