import Headway

/// A button is built over the same seam as the outputs and claims its line like them.
extension ButtonConfiguration {
    /// The line it takes.
    var claims: [DeviceClaim] { [.line(line, of: chip, role: "button", key: "line", what: "a button")] }

    /// The button's monitor, reading its line's edge events on `buses`.
    func build(on buses: any Buses) throws(DeviceError) -> ButtonMonitor {
        try ButtonMonitor(
            chip: try buses.gpio(chip), offset: line, bias: bias, activeLow: activeLow, clock: buses.clock, debouncer: ButtonDebouncer(longPress: longPress))
    }
}
