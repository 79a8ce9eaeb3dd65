import HeadwayDevices
import HeadwaySystem
import Synchronization

/// A PWM channel through the kernel's sysfs interface (Documentation/driver-api/pwm.rst, "Using
/// PWMs with the sysfs interface"): the channel is exported by writing its number to
/// `/sys/class/pwm/pwmchipN/export`, then driven through `pwmM/period`, `pwmM/duty_cycle` (both in
/// nanoseconds) and `pwmM/enable`. On a Raspberry Pi the pin gets its PWM function from an overlay
/// (`dtoverlay=pwm,pin=13,func=4`: GPIO 13 is PWM0 channel 1, BCM2711 peripherals §5.2 and §8.5).
public final class LinuxPWMChannel: PWMChannel {
    public let name: String
    /// The channel's folder (`/sys/class/pwm/pwmchip0/pwm1`).
    public let path: String
    /// The period last written, which decides the order of the next writes (the kernel refuses a
    /// duty cycle longer than the period).
    private let period = Mutex<UInt64?>(nil)

    /// Channel `channel` of `chip` (`pwmchip0`) under `root`, exported if it is not yet; waits up
    /// to a second for udev to hand its files to the PWM group.
    public init(chip: String, channel: Int, root: String = "/sys/class/pwm") throws(DeviceError) {
        name = "\(chip)/\(channel)"
        let chipPath = "\(root)/\(chip)"
        path = "\(chipPath)/pwm\(channel)"
        guard Files.exists(chipPath) else {
            throw DeviceError(.notPresent, "PWM \(name): \(chipPath) does not exist; load the pin's PWM overlay (on a Raspberry Pi `dtoverlay=pwm,pin=13,func=4` in config.txt for GPIO 13) and reboot", errno: Errno.noSuchFile)
        }
        if !Files.exists(path) {
            do throws(DeviceError) {
                try Self.write("\(channel)", to: "\(chipPath)/export", name: name)
            } catch where error.errno == Errno.busy {
                // Exported meanwhile by someone else: the folder appears all the same.
            }
        }
        var waited = 0.0
        while !Files.mayOpen("\(path)/enable", for: .write) {
            guard waited < 1 else {
                throw DeviceError(.permission, "PWM \(name): \(path)/enable is not writable; give the pwm sysfs files to a group the daemon is in (a udev rule, as Raspberry Pi OS's gives them to gpio)", errno: Errno.permissionDenied)
            }
            Threads.sleep(0.02)
            waited += 0.02
        }
    }

    /// `pwmchip0/1` (any form ``/HeadwayDevices/BusName/pwm(_:)`` takes) under `root`.
    public convenience init(name: String, root: String = "/sys/class/pwm") throws(DeviceError) {
        guard let (chip, channel) = BusName.pwm(name) else {
            throw DeviceError(.unsupported, "\(name) is not a PWM channel; write it as pwmchipN/M (the chip in /sys/class/pwm and the channel number)")
        }
        try self.init(chip: chip, channel: channel, root: root)
    }

    public func set(period newPeriod: UInt64, duty: UInt64, enabled: Bool) throws(DeviceError) {
        let duty = min(duty, newPeriod)
        try period.withLock { (period: inout UInt64?) throws(DeviceError) in
            // A shorter period than the duty cycle in force is refused: shorten the duty first.
            if period == nil || newPeriod < period! {
                try Self.write("0", to: "\(path)/duty_cycle", name: name)
            }
            if period != newPeriod {
                period = nil
                try Self.write("\(newPeriod)", to: "\(path)/period", name: name)
                period = newPeriod
            }
            try Self.write("\(duty)", to: "\(path)/duty_cycle", name: name)
            try Self.write(enabled ? "1" : "0", to: "\(path)/enable", name: name)
        }
    }

    /// One `write()` of `text` to a sysfs attribute.
    static func write(_ text: String, to file: String, name: String) throws(DeviceError) {
        let fd = SystemIO.open(file, for: .write)
        guard fd >= 0 else {
            let code = SystemError.last.code
            let kind: DeviceError.Kind = code == Errno.permissionDenied || code == Errno.notPermitted ? .permission : code == Errno.noSuchFile ? .notPresent : .other
            throw DeviceError(kind, "PWM \(name): cannot open \(file): \(SystemError(code))", errno: code)
        }
        defer { SystemIO.close(fd) }
        let bytes = Array((text + "\n").utf8)
        switch SystemIO.write(fd, bytes[...]) {
        case .written(bytes.count): return
        case .written, .wouldBlock:
            throw DeviceError(.other, "PWM \(name): writing \(text) to \(file) was cut short", errno: nil)
        case .failed(let error):
            throw DeviceError(error.code == Errno.busy ? .busy : .other, "PWM \(name): writing \(text) to \(file) failed: \(error)", errno: error.code)
        }
    }
}
