import Synchronization

/// A display drawn in a style. The picture is rendered whole every time, at the depth the display
/// has (a ``/HeadwaySurfaces/Bitmap``, a ``/HeadwaySurfaces/Greymap``, or on colour glass a
/// ``/HeadwaySurfaces/RoleMap`` coloured by the appearance's ``/HeadwayRender/ColourPalette``); what the glass already shows, and so what needs sending, is
/// the driver's to know (``/HeadwayDevices/DisplayDevice``). ``DisplayCare`` moves, dims and sleeps the picture to
/// spare the glass.
public final class DisplayOutput: IndicatorOutput, RecordsShownFrames {
    /// How the output draws: a style for any depth, or a 1-bit style of one's own.
    private enum Look: Sendable {
        case anyDepth(any DisplayStyle)
        case oneBit(any ProgressStyle<Bitmap>)
    }

    /// What the output remembers between frames.
    private struct State {
        /// The brightness last given to the device.
        var brightness: Double?
        /// What the last picture showed (wherever it was placed) and the brightness it was asked
        /// for, and when either last changed: a change of light is a change people see.
        var content: Content?
        var askedBrightness: Double?
        var changedAt = -Double.infinity
        /// Whether the panel was turned off for a blank picture.
        var asleep = false
        /// On colour glass, the last frames: the next is drawn over them where it changed.
        var colourFrames = ColourFrames()
    }

    /// What a picture shows, whatever its place on the glass.
    private enum Content: Equatable {
        /// On colour glass, the count of the colour frames' changes of content.
        case colour(Int)
        /// Otherwise the picture as drawn, before it was placed.
        case picture(DisplayPicture)
    }

    /// The display drawn on.
    public let device: any DisplayDevice
    /// How the display's pixels are spared (moved, dimmed, turned off when blank).
    public let care: DisplayCare
    private let look: Look
    private let state = Mutex(State())
    /// The picture, brightness and power the display last took.
    public let record = ShownRecord()

    /// `device` drawn in `style` (default: ``/HeadwayRender/BarScreenStyle``), at the display's depth.
    public init(_ device: any DisplayDevice, style: any DisplayStyle = BarScreenStyle(), care: DisplayCare = .off) {
        self.device = device
        self.care = Self.fitted(care, to: device)
        look = .anyDepth(style)
    }

    /// `device` drawn in a 1-bit style of your own (on a greyscale display, lit pixels are full).
    public init(_ device: any DisplayDevice, style: any ProgressStyle<Bitmap>, care: DisplayCare = .off) {
        self.device = device
        self.care = Self.fitted(care, to: device)
        look = .oneBit(style)
    }

    /// The care, its shift kept to a few pixels of small glass.
    private static func fitted(_ care: DisplayCare, to device: any DisplayDevice) -> DisplayCare {
        var care = care
        care.shift = min(care.shift, min(device.width, device.height) / 16)
        return care
    }

    public func draw(_ configuration: ProgressStyleConfiguration) throws(DeviceError) {
        do throws(DeviceError) {
            try state.withLock { (state: inout State) throws(DeviceError) in try draw(configuration, &state) }
        } catch {
            record.failed(error.message)
            throw error
        }
    }

    private func draw(_ configuration: ProgressStyleConfiguration, _ state: inout State) throws(DeviceError) {
        let time = configuration.time
        let (placed, content) = render(configuration, at: care.offset(at: time), &state)
        if state.content != content || state.askedBrightness != configuration.appearance.brightness {
            state.content = content
            state.askedBrightness = configuration.appearance.brightness
            state.changedAt = time
        }
        if care.sleepsWhenBlank, placed.isBlank {
            guard !state.asleep else { return }
            try device.show(placed)
            try device.setDisplayOn(false)
            state.asleep = true
            record.took(.picture(placed, brightness: state.brightness ?? 0, lit: false), bytes: placed.bytes.count, at: time)
            return
        }
        var wanted = configuration.appearance.brightness
        if let dimAfter = care.dimAfter?.seconds, time - state.changedAt >= dimAfter { wanted *= care.dimmedBrightness }
        if state.brightness != wanted {
            state.brightness = nil
            try device.setBrightness(wanted)
            state.brightness = wanted
        }
        try device.show(placed)
        if state.asleep {
            // After the picture, so the glass never shows what it held before it slept.
            try device.setDisplayOn(true)
            state.asleep = false
        }
        record.took(.picture(placed, brightness: wanted, lit: true), bytes: placed.bytes.count, at: time)
    }

    /// The picture drawn ``DisplayCare/shift`` pixels smaller than the glass and placed on it at
    /// `offset`, and what it shows. On colour glass the frames draw it in place, over the last
    /// frame where it changed, so that a frame costs what changed rather than the glass's size.
    private func render(_ configuration: ProgressStyleConfiguration, at offset: (x: Int, y: Int), _ state: inout State) -> (DisplayPicture, Content) {
        let width = device.width - care.shift, height = device.height - care.shift
        let drawn: DisplayPicture
        switch look {
        case .anyDepth(let style) where device.pixelFormat.isColour:
            var roles = state.colourFrames.canvas(width: width, height: height)
            style.render(configuration, into: &roles)
            let picture = state.colourFrames.picture(of: roles, palette: ColourPalette(configuration), format: device.pixelFormat,
                                                     at: offset, onWidth: device.width, height: device.height)
            return (.colour(picture), .colour(state.colourFrames.contentChanges))
        case .anyDepth(let style) where device.pixelFormat.hasLevels:
            var picture = Greymap(width: width, height: height)
            style.render(configuration, into: &picture)
            drawn = .greymap(picture)
        case .anyDepth(let style):
            var picture = Bitmap(width: width, height: height)
            style.render(configuration, into: &picture)
            drawn = .bitmap(picture)
        case .oneBit(let style):
            var picture = Bitmap(width: width, height: height)
            style.render(configuration, into: &picture)
            let tint = configuration.appearance.tint
            drawn = device.pixelFormat.isColour
                ? .colour(ColourPicture(picture, colour: RGB8(red: tint.red, green: tint.green, blue: tint.blue), format: device.pixelFormat)) : .bitmap(picture)
        }
        return (drawn.placed(onWidth: device.width, height: device.height, x: offset.x, y: offset.y), .picture(drawn))
    }
}
