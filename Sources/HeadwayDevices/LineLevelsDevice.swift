/// A few plain on/off LEDs driven together (a bar graph, a status LED).
public protocol LineLevelsDevice: AnyObject, Sendable {
    var count: Int { get }
    func show(_ values: [Bool]) throws(DeviceError)
}
