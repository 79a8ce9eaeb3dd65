import Synchronization

/// A monochrome display drawn in a style. The picture is rendered whole every time; what the glass
/// already shows, and so what needs sending, is the driver's to know (``MonochromeDisplayDevice``).
public final class DisplayOutput: IndicatorOutput {
    public let device: any MonochromeDisplayDevice
    public let style: any ProgressStyle<Bitmap>
    /// The brightness last given to the device.
    private let brightness = Mutex<Double?>(nil)

    /// `device` drawn in `style` (default: ``BarScreenStyle``).
    public init(_ device: any MonochromeDisplayDevice, style: any ProgressStyle<Bitmap> = BarScreenStyle()) {
        self.device = device
        self.style = style
    }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        try brightness.withLock { (shown: inout Double?) throws(DeviceError) in
            var picture = Bitmap(width: device.width, height: device.height)
            style.render(configuration, into: &picture)
            let wanted = configuration.appearance.brightness
            if shown != wanted {
                shown = nil
                try device.setBrightness(wanted)
                shown = wanted
            }
            try device.show(picture)
        }
    }
}
