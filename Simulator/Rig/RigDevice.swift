import HeadwayDevices
import HeadwayRender

/// A virtual panel the terminal and snapshots show: a controller's glass, as its module shows it.
public protocol VirtualPanel: AnyObject, Sendable {
    /// The glass's width in pixels.
    var panelWidth: Int { get }
    /// The glass's height in pixels.
    var panelHeight: Int { get }
    /// What the glass shows now.
    var panelPicture: PanelPicture { get }
    /// Whether the panel is on (off: spared, or quiet hours).
    var isDisplayOn: Bool { get }
    /// Whether it is lit well below full (an unchanging picture dimmed, a result kept dim).
    var isDim: Bool { get }
    /// What the controller found wrong in what it was sent.
    var protocolErrors: [String] { get }
}

/// What a panel's glass shows, in the depth it has.
public enum PanelPicture: Sendable, Equatable {
    /// On/off pixels.
    case mono(Bitmap)
    /// 16 grey levels.
    case grey(Greymap)
    /// A colour TFT's glass, as sRGB drive levels.
    case colour(TFTGlass)
}

/// One device of a rig as the terminal and snapshots see it: a virtual twin attached to the
/// simulated buses, read back as LEDs, lamps or a panel. Built by the twin table, never by a driver.
public struct RigDevice: Sendable {
    /// How the device is read back.
    public enum View: Sendable {
        /// A chain of LEDs laid out as `layout`, at the drive levels the twin decoded.
        case leds(levels: @Sendable () -> [RGB8], layout: LEDLayout)
        /// Plain lamps on GPIO lines, lit or not.
        case lamps(lit: @Sendable () -> [Bool])
        /// A display's glass.
        case panel(any VirtualPanel)
        /// An LED matrix's, bar graph's or segment display's dies as the module shows them now.
        case matrix(glass: @Sendable () -> LEDGlass)
    }

    /// The output's name.
    public let name: String
    /// How it is read back.
    public let view: View
    private let findProblems: @Sendable () -> [String]

    /// Device `name`, read back as `view`; `problems` are what its twin found wrong in the bytes or
    /// pulses it was sent.
    public init(name: String, view: View, problems: @escaping @Sendable () -> [String]) {
        self.name = name
        self.view = view
        findProblems = problems
    }

    /// A panel `name`, its problems the controller's protocol errors.
    public static func panel(_ name: String, _ panel: any VirtualPanel) -> RigDevice {
        RigDevice(name: name, view: .panel(panel), problems: { panel.protocolErrors })
    }

    /// What the twin found wrong.
    public var problems: [String] { findProblems() }

    /// The light each LED or lamp gives, for LEDs and lamps.
    public var light: [LinearColour] {
        switch view {
        case .leds(let levels, _): levels().map(ColourPipeline().light(for:))
        case .lamps(let lit): lit().map { $0 ? RigDevice.lampLight : .black }
        case .panel, .matrix: []
        }
    }

    /// A lit lamp: a red LED.
    static let lampLight = LinearColour(red: 1, green: 0.08, blue: 0.03)
}
