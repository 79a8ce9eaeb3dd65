import HeadwaySurfaces

/// The order in which an LED chip expects its colour channels on the wire.
public enum ColourOrder: String, Sendable, Equatable, CaseIterable {
    /// Red, green, blue.
    case rgb
    /// Red, blue, green.
    case rbg
    /// Green, red, blue (WS2812B).
    case grb
    /// Green, blue, red.
    case gbr
    /// Blue, red, green.
    case brg
    /// Blue, green, red.
    case bgr
    /// Four channels with white last (SK6812 RGBW: GRBW).
    case grbw, rgbw

    /// Bytes per LED: 3, or 4 with white.
    public var channels: Int { hasWhite ? 4 : 3 }
    /// Whether the chip has a white channel.
    public var hasWhite: Bool { self == .grbw || self == .rgbw }

    /// Appends `level`'s channel bytes in this order to `bytes`. For RGBW chips the common part of
    /// red, green and blue goes to the white LED, which gives the same light more efficiently.
    @inline(__always)
    public func append(_ level: RGB8, to bytes: inout [UInt8]) {
        let (r, g, b) = (level.red, level.green, level.blue)
        switch self {
        case .rgb: bytes.append(r); bytes.append(g); bytes.append(b)
        case .rbg: bytes.append(r); bytes.append(b); bytes.append(g)
        case .grb: bytes.append(g); bytes.append(r); bytes.append(b)
        case .gbr: bytes.append(g); bytes.append(b); bytes.append(r)
        case .brg: bytes.append(b); bytes.append(r); bytes.append(g)
        case .bgr: bytes.append(b); bytes.append(g); bytes.append(r)
        case .grbw, .rgbw:
            let white = min(r, g, b)
            let (rr, gg, bb) = (r - white, g - white, b - white)
            if self == .grbw {
                bytes.append(gg); bytes.append(rr); bytes.append(bb)
            } else {
                bytes.append(rr); bytes.append(gg); bytes.append(bb)
            }
            bytes.append(white)
        }
    }
}
