import Headway

/// A device family: one row of the ``DeviceCatalogue``. It reads its outputs' sections of a
/// configuration, and what it reads (its ``DeviceSettings``) says what the device claims, what
/// doctor should check, and builds the driver over a `Buses` seam, once for
/// Linux and the simulator alike. The kernel's ssd130x keeps controllers as rows the same way.
public protocol DeviceFamily: Sendable {
    /// The `driver:` names it answers to (`ws2812`; `ssd1306`, `sh1106`, …).
    var drivers: [String] { get }
    /// Reads one output's section; every mistake names its line and key and says how to fix it.
    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings
    /// The configuration section a shorthand names (`ring24`, `ssd1327@spi`), as keys and values,
    /// or nil when the shorthand is not this family's.
    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]?
    /// The shorthands, for `--help`.
    var shorthandHelp: String { get }
}

/// One output's device as its family read it: what it takes of the machine and how it is built.
public protocol DeviceSettings: Sendable {
    /// The `driver:` it was read for.
    var driver: String { get }
    /// The buses, addresses, lines and files it takes; each serves one output or button.
    var claims: [DeviceClaim] { get }
    /// The frames it draws at most, unless the output says otherwise.
    var framesPerSecond: Double { get }
    /// How many LEDs it powers from the 5 V supply, for the current budget (nil: none).
    var ledCount: Int? { get }
    /// The bytes of one frame sent as one SPI message at `spiClock`'s real clock (spidev's
    /// `bufsiz` must hold it), when the device sends whole frames so.
    func frameBytes(spiClock: SPIClockModel) -> Int?
    /// What doctor checks for this family beyond its claims (overlays, clocks, level shifters).
    func findings(_ machine: DoctorMachine) -> [DoctorFinding]
    /// The device's driver, on `buses`, its SPI controller dividing as `spiClock` says.
    func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver
}

extension DeviceSettings {
    public var ledCount: Int? { nil }
    public func frameBytes(spiClock: SPIClockModel) -> Int? { nil }
    public func findings(_ machine: DoctorMachine) -> [DoctorFinding] { [] }
}

/// A driver as a family built it, by medium: the service draws each medium its own way.
public enum DeviceDriver {
    /// A chain of LEDs, progress running over it as `layout` says.
    case leds(any LEDChainDevice, layout: LEDLayout)
    /// A display drawn in `style`.
    case display(any DisplayDevice, style: any DisplayStyle)
    /// Plain LEDs on GPIO lines, drawn in `style` (nil: a bar graph, or a status LED for one line).
    case lights(any LineLevelsDevice, style: (any ProgressStyle<LineLevels>)? = nil)
    /// An LED matrix, bar graph or segment display (or a chain laid out as a matrix).
    case matrix(any LEDMatrixDevice)
}

/// What a family's own doctor checks see of the machine: the Raspberry Pi model and the firmware
/// configuration (both nil off a Pi), its files (sysfs: which kernel driver holds a bus), and the
/// output's name.
public struct DoctorMachine {
    /// The model, when this is a Raspberry Pi Headway knows.
    let model: RaspberryPiModel?
    /// config.txt as the firmware reads it for that model.
    let firmware: FirmwareConfig?
    /// Where config.txt is, for the fixes.
    let configFile: String
    /// The output checked.
    public let output: String
    /// The machine's files, read only.
    let files: MachineView
}
