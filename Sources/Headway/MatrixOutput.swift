import Synchronization

/// An LED matrix, bar graph or segment display drawn in a style. Each moment is drawn whole on a
/// ``/HeadwayRender/MatrixPicture``, put at the depth the module's dies have (through the colour
/// pipeline where they have levels: gamma, the current budget, dithering) and handed to the driver,
/// which sends only what changed and blinks it as the style asks (``/HeadwayDevices/LEDMatrixDevice``).
public final class MatrixOutput: IndicatorOutput {
    /// The module drawn on.
    public let device: any LEDMatrixDevice
    /// The style each moment is drawn in.
    public let style: any ProgressStyle<MatrixPicture>
    /// Turns light into drive levels on dies that have levels.
    public let pipeline: ColourPipeline
    private let dither = Mutex(DitherState())

    /// `device` drawn in `style` (default: ``/HeadwayRender/MatrixStyle``) through `pipeline`.
    public init(_ device: any LEDMatrixDevice, style: any ProgressStyle<MatrixPicture> = MatrixStyle(), pipeline: ColourPipeline = ColourPipeline()) {
        self.device = device
        self.style = style
        self.pipeline = pipeline
    }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        try dither.withLock { (dither: inout DitherState) throws(DeviceError) in
            var picture = MatrixPicture(face: device.face)
            style.render(configuration, into: &picture)
            try device.show(picture.frame(appearance: configuration.appearance, pipeline: pipeline, dither: &dither))
        }
    }
}
