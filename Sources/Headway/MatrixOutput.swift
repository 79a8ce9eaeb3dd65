import Synchronization

/// An LED matrix, bar graph or segment display drawn in a style. Each moment is drawn whole on a
/// ``/HeadwayRender/MatrixPicture``, put at the depth the module's dies have (through the colour
/// pipeline where they have levels: gamma, the current budget, dithering) and handed to the driver,
/// which sends only what changed and blinks it as the style asks (``/HeadwayDevices/LEDMatrixDevice``).
public final class MatrixOutput: IndicatorOutput, RecordsShownFrames {
    /// The module drawn on.
    public let device: any LEDMatrixDevice
    /// The style each moment is drawn in.
    public let style: any ProgressStyle<MatrixPicture>
    /// Turns light into drive levels on dies that have levels.
    public let pipeline: ColourPipeline
    private let dither = Mutex(DitherState())
    /// The frame the module last took.
    public let record = ShownRecord()

    /// `device` drawn in `style` (default: ``/HeadwayRender/MatrixStyle``) through `pipeline`.
    public init(_ device: any LEDMatrixDevice, style: any ProgressStyle<MatrixPicture> = MatrixStyle(), pipeline: ColourPipeline = ColourPipeline()) {
        self.device = device
        self.style = style
        self.pipeline = pipeline
    }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        do throws(DeviceError) {
            try dither.withLock { (dither: inout DitherState) throws(DeviceError) in
                var picture = MatrixPicture(face: device.face)
                style.render(configuration, into: &picture)
                let frame = picture.frame(appearance: configuration.appearance, pipeline: pipeline, dither: &dither)
                try device.show(frame)
                record.took(.matrix(frame), bytes: frame.handedBytes, at: configuration.time)
            }
        } catch {
            record.failed(error.message)
            throw error
        }
    }
}

extension MatrixFrame {
    /// Its size as handed to the driver, for the record: three levels a position, a digit's 16
    /// segment bits two bytes.
    fileprivate var handedBytes: Int {
        switch content {
        case .pixels(let levels): levels.levels.count * 3
        case .segments(let picture): picture.digits.count * 2
        }
    }
}
