import CLinuxBuses
import HeadwayCore
import HeadwayDevices
import HeadwaySystem


/// A GPIO chip through libgpiod (1.6 or 2.x, whichever the build found), consumer name "headway".
public final class GpiodChip: GPIOChip, @unchecked Sendable {
    // The C handle is only used under libgpiod's own per-request locking and is immutable here.
    private let handle: OpaquePointer
    /// The chip's label (`pinctrl-bcm2711`: what it is), as `gpiodetect` shows it.
    public let label: String
    /// The chip's name (`gpiochip0`: which it is on this boot).
    public let name: String
    /// How many lines the chip has; offsets run from 0 to one less.
    public let lineCount: Int

    /// The libgpiod API in use (1 or 2) and its version string.
    public static var library: (api: Int, version: String) {
        (Int(hw_gpio_api()), String(cString: hw_gpio_library_version()))
    }

    /// Opens a chip by path (`/dev/gpiochip0`), name (`gpiochip0`) or label (`pinctrl-rp1`).
    public init(_ which: String) throws(DeviceError) {
        guard let handle = hw_gpio_open(which) else { throw GPIOErrno.opening(which, errno: SystemError.last.code) }
        self.handle = handle
        label = String(cString: hw_gpio_chip_label(handle))
        name = String(cString: hw_gpio_chip_name(handle))
        lineCount = Int(hw_gpio_chip_line_count(handle))
    }

    /// Who holds `offset`: nil when the line is free, else its consumer's name ("" when it gave
    /// none). Asks the kernel's line info; requests nothing.
    public func holder(of offset: UInt32) throws(DeviceError) -> String? {
        try checkOffsets([offset])
        var consumer = [CChar](repeating: 0, count: 64)
        let used = hw_gpio_line_holder(handle, CUnsignedInt(offset), &consumer, CUnsignedInt(consumer.count))
        guard used >= 0 else { throw DeviceError(.other, "cannot read line \(offset) of \(label): \(SystemError.last)", errno: SystemError.last.code) }
        return used == 1 ? String(decoding: consumer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Every GPIO chip of this machine (`/dev/gpiochip*`), by name.
    public static func all() -> [GpiodChip] {
        (Folders.entries("/dev") ?? []).filter { $0.hasPrefix("gpiochip") }.sorted().compactMap { try? GpiodChip("/dev/" + $0) }
    }

    /// The first chip with one of `labels` (e.g. every Raspberry Pi's header chip).
    public static func first(labelledAnyOf labels: [String]) throws(DeviceError) -> GpiodChip {
        for label in labels {
            if let chip = try? GpiodChip(label) { return chip }
        }
        throw DeviceError(.notPresent, "no GPIO chip labelled \(labels.joined(separator: " or ")); list the chips with gpiodetect")
    }

    /// The labels of the chip behind the 40-pin header: the Pi 5's RP1, the Pi 4's BCM2711, and the
    /// BCM2835 family of the Pi 0–3.
    public static let raspberryPiHeaderLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

    deinit { hw_gpio_close(handle) }

    private func checkOffsets(_ offsets: [UInt32]) throws(DeviceError) {
        if let bad = offsets.first(where: { Int($0) >= lineCount }) {
            throw DeviceError(.unsupported, "\(label) (\(name)) has lines 0…\(lineCount - 1), not \(bad)")
        }
    }

    /// Takes `offsets` as outputs at their `initial` levels, as consumer "headway"; refused with the
    /// line's holder when another program has it.
    public func requestOutputs(_ offsets: [UInt32], activeLow: Bool, initial: [Bool]) throws(DeviceError) -> any GPIOOutputLines {
        try checkOffsets(offsets)
        guard initial.count == offsets.count else { throw DeviceError(.unsupported, "\(offsets.count) lines need \(offsets.count) initial values") }
        let values = initial.map { Int32($0 ? 1 : 0) }
        let request = offsets.map { CUnsignedInt($0) }.withUnsafeBufferPointer { o in
            values.withUnsafeBufferPointer { v in
                hw_gpio_request_outputs(handle, o.baseAddress, CUnsignedInt(o.count), activeLow ? 1 : 0, v.baseAddress, "headway")
            }
        }
        guard let request else { throw GPIOErrno.requesting(offsets, chip: label, errno: SystemError.last.code) }
        return GpiodRequest(request: request, offsets: offsets, chip: self)
    }

    /// Takes `offset` as an input with edge events, with `bias` (its pull) and `activeLow`.
    public func requestInput(_ offset: UInt32, bias: GPIOBias, activeLow: Bool) throws(DeviceError) -> any GPIOInputLine {
        try checkOffsets([offset])
        let code: Int32
        switch bias {
        case .asIs: code = Int32(HW_GPIO_BIAS_AS_IS)
        case .disabled: code = Int32(HW_GPIO_BIAS_DISABLED)
        case .pullUp: code = Int32(HW_GPIO_BIAS_PULL_UP)
        case .pullDown: code = Int32(HW_GPIO_BIAS_PULL_DOWN)
        }
        guard let request = hw_gpio_request_input(handle, CUnsignedInt(offset), code, activeLow ? 1 : 0, "headway") else {
            throw GPIOErrno.requesting([offset], chip: label, errno: SystemError.last.code)
        }
        return GpiodRequest(request: request, offsets: [offset], chip: self)
    }
}

/// Requested lines; released when the object goes away.
final class GpiodRequest: GPIOOutputLines, GPIOInputLine, @unchecked Sendable {
    // libgpiod requests are used from one task at a time by their owners (a driver or a button).
    private let request: OpaquePointer
    let offsets: [UInt32]
    private let chip: GpiodChip

    init(request: OpaquePointer, offsets: [UInt32], chip: GpiodChip) {
        self.request = request
        self.offsets = offsets
        self.chip = chip
    }

    deinit { hw_gpio_release(request) }

    var offset: UInt32 { offsets[0] }

    func set(_ values: [Bool]) throws(DeviceError) {
        guard values.count == offsets.count else { throw DeviceError(.unsupported, "\(offsets.count) lines need \(offsets.count) values") }
        let levels = values.map { Int32($0 ? 1 : 0) }
        let result = levels.withUnsafeBufferPointer { hw_gpio_set(request, $0.baseAddress) }
        guard result == 0 else { throw DeviceError(.other, "setting lines \(offsets) of \(chip.label) failed: \(SystemError.last)", errno: SystemError.last.code) }
    }

    func read() throws(DeviceError) -> Bool {
        var values = [Int32](repeating: 0, count: offsets.count)
        guard hw_gpio_get(request, &values) == 0 else {
            throw DeviceError(.other, "reading line \(offset) of \(chip.label) failed: \(SystemError.last)", errno: SystemError.last.code)
        }
        return values[0] != 0
    }

    func edges(timeout: Seconds) throws(DeviceError) -> [GPIOEdge] {
        var edges: [GPIOEdge] = []
        var wait = Int64(max(0, timeout) * 1e9)
        while true {
            var rising: Int32 = 0
            var stamp: UInt64 = 0
            let result = hw_gpio_read_edge(request, wait, &rising, &stamp)
            if result < 0 { throw DeviceError(.other, "waiting for edges on line \(offset) of \(chip.label) failed: \(SystemError.last)", errno: SystemError.last.code) }
            if result == 0 { return edges }
            edges.append(GPIOEdge(rising: rising != 0, time: Double(stamp) / 1e9))
            wait = 0  // collect what is queued, then return
        }
    }
}

/// What a failed libgpiod call means and what to do about it.
enum GPIOErrno {
    static func opening(_ which: String, errno code: Int32) -> DeviceError {
        switch code {
        case Errno.permissionDenied, Errno.notPermitted:
            return DeviceError(.permission, "permission denied opening GPIO chip \(which): add the user to the gpio group (sudo usermod -aG gpio $USER) or run the daemon with SupplementaryGroups=gpio", errno: code)
        case Errno.noSuchFile, Errno.noDevice:
            return DeviceError(.notPresent, "no GPIO chip \"\(which)\" (by path, name or label); list the chips with gpiodetect", errno: code)
        default:
            return DeviceError(.other, "cannot open GPIO chip \(which): \(SystemError(code))", errno: code)
        }
    }

    static func requesting(_ offsets: [UInt32], chip: String, errno code: Int32) -> DeviceError {
        switch code {
        case Errno.busy:
            return DeviceError(.busy, "lines \(offsets) of \(chip) are in use by another program or a kernel driver; gpioinfo shows the consumer", errno: code)
        case Errno.invalid:
            return DeviceError(.unsupported, "\(chip) refused the request for lines \(offsets) (bias or edge detection unsupported?): \(SystemError(code))", errno: code)
        default:
            return DeviceError(.other, "requesting lines \(offsets) of \(chip) failed: \(SystemError(code))", errno: code)
        }
    }
}
