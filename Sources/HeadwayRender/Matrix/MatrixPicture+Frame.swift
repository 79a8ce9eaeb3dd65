extension MatrixPicture {
    /// The frame a driver is handed: the picture at the depth the glass has, in its palette's
    /// colours and `appearance`'s brightness (a hidden track stays dark), through `pipeline` (gamma, the current budget, dithering with
    /// `dither`) where the dies have levels.
    ///
    /// - On/off dies light the pixels wholly covered by anything but the track (a 1-bit glass never
    ///   shows a part-covered pixel: the edge never runs ahead of the job); the brightness is the
    ///   chip's dimming.
    /// - Red and green dies show each part's colour as the pair nearest it: red, green, or both
    ///   (yellow); a colour with neither shows green; dimmed chip-wide.
    /// - Single PWM dies take the coverage as light (the track dim), scaled by the brightness.
    /// - RGB dies take each part's colour, scaled by its coverage and the brightness.
    public func frame(appearance: Appearance, pipeline: ColourPipeline, dither: inout DitherState) -> MatrixFrame {
        switch face {
        case .segments:
            return MatrixFrame(.segments(digits), blink: blink, dimming: appearance.brightness)
        case .pixels(let width, let height, let dies):
            var levels = MatrixLevels(width: max(1, width), height: max(1, height))
            switch dies {
            case .onOff, .redGreen:
                for y in 0..<canvas.height {
                    for x in 0..<canvas.width where canvas.level(x: x, y: y) == MatrixCanvas.maxLevel {
                        let role = canvas.role(x: x, y: y)
                        guard role != .track, let colour = colour(of: role, appearance) else { continue }
                        levels[x, y] = dies == .onOff ? RGB8(red: 255, green: 255, blue: 255) : Self.redGreen(colour)
                    }
                }
                return MatrixFrame(.pixels(levels), blink: blink, dimming: appearance.brightness)
            case .levels, .rgb:
                var light = LEDFrame(count: canvas.width * canvas.height)
                let brightness = Float(appearance.brightness)
                for y in 0..<canvas.height {
                    for x in 0..<canvas.width {
                        let level = canvas.level(x: x, y: y)
                        let role = canvas.role(x: x, y: y)
                        guard level > 0, let colour = colour(of: role, appearance) else { continue }
                        let share = Float(level) / Float(MatrixCanvas.maxLevel) * brightness
                        if dies == .rgb {
                            light[y * canvas.width + x] = LinearColour(colour).scaled(by: share)
                        } else {
                            let grey = share * (role == .track ? Self.singleColourTrack : 1)
                            light[y * canvas.width + x] = LinearColour(red: grey, green: grey, blue: grey)
                        }
                    }
                }
                let driven = pipeline.levels(for: light, dither: &dither)
                for (index, level) in driven.enumerated() { levels[index % canvas.width, index / canvas.width] = level }
                return MatrixFrame(.pixels(levels), blink: blink, dimming: 1)
            }
        }
    }

    /// The colour `role` is lit in; nil for no light (the background, or a hidden track).
    private func colour(of role: SurfaceRole, _ appearance: Appearance) -> Colour? {
        switch role {
        case .off: nil
        case .track: appearance.track == nil ? nil : palette.track
        default: palette.colour(of: role)
        }
    }

    /// How bright the track is on a single-colour PWM glass, where no colour tells it apart.
    static let singleColourTrack: Float = 0.08

    /// The red and green dies nearest `colour`: each lit when its channel is at least 3/8 of the
    /// colour's strongest (and not faint); too dark a colour lights neither; one with neither red nor
    /// green (a blue) lights green.
    static func redGreen(_ colour: Colour) -> RGB8 {
        let top = max(colour.red, colour.green, colour.blue)
        guard top >= 0x30 else { return .off }
        let threshold = max(0x40, Int(top) * 3 / 8)
        let red = Int(colour.red) >= threshold
        var green = Int(colour.green) >= threshold
        if !red && !green { green = true }
        return RGB8(red: red ? 255 : 0, green: green ? 255 : 0, blue: 0)
    }
}
