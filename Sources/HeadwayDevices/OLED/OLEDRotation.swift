/// How a module is mounted: the picture turned on its glass by a quarter, half or three quarters
/// of a turn, clockwise. A half turn is the controller's own (segment and COM remap); a quarter turn
/// swaps the picture's width and height and is done by the driver, for square and tall glass.
public enum OLEDRotation: Int, Sendable, Equatable, CaseIterable {
    /// As the module's maker mounts it.
    case upright = 0
    /// A quarter turn clockwise (square and tall glass only).
    case quarter = 90
    /// Upside down (the controller's own remap).
    case half = 180
    /// Three quarters of a turn clockwise (square and tall glass only).
    case threeQuarters = 270

    /// Whether the picture's rows run along the glass's columns.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

    /// Whether the controller turns the picture by 180° (segment remap and COM scan reversed).
    public var turnsInHardware: Bool { self == .half || self == .threeQuarters }
}
