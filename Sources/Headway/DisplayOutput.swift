import Synchronization

/// A display drawn in a style. The picture is rendered whole every time, at the depth the display
/// has (a ``Bitmap`` or a ``Greymap``); what the glass already shows, and so what needs sending, is
/// the driver's to know (``DisplayDevice``).
public final class DisplayOutput: IndicatorOutput {
    /// How the output draws: a style for any depth, or a 1-bit style of one's own.
    private enum Look: Sendable {
        case anyDepth(any DisplayStyle)
        case oneBit(any ProgressStyle<Bitmap>)
    }

    public let device: any DisplayDevice
    private let look: Look
    /// The brightness last given to the device.
    private let brightness = Mutex<Double?>(nil)

    /// `device` drawn in `style` (default: ``BarScreenStyle``), at the display's depth.
    public init(_ device: any DisplayDevice, style: any DisplayStyle = BarScreenStyle()) {
        self.device = device
        look = .anyDepth(style)
    }

    /// `device` drawn in a 1-bit style of your own (on a greyscale display, lit pixels are full).
    public init(_ device: any DisplayDevice, style: any ProgressStyle<Bitmap>) {
        self.device = device
        look = .oneBit(style)
    }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        try brightness.withLock { (shown: inout Double?) throws(DeviceError) in
            let wanted = configuration.appearance.brightness
            if shown != wanted {
                shown = nil
                try device.setBrightness(wanted)
                shown = wanted
            }
            switch look {
            case .anyDepth(let style) where device.greyLevels > 2:
                var picture = Greymap(width: device.width, height: device.height)
                style.render(configuration, into: &picture)
                try device.show(picture)
            case .anyDepth(let style):
                var picture = Bitmap(width: device.width, height: device.height)
                style.render(configuration, into: &picture)
                try device.show(picture)
            case .oneBit(let style):
                var picture = Bitmap(width: device.width, height: device.height)
                style.render(configuration, into: &picture)
                try device.show(picture)
            }
        }
    }
}
