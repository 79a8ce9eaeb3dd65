import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// A set of virtual devices the simulator shows together, each behind its real driver.
public struct SimulatorRig: Sendable {
    /// The LED chains (rings and strips).
    public var chains: [SimulatedLEDChain]
    /// The OLED displays.
    public var displays: [SimulatedOLED]
    /// The plain GPIO LEDs.
    public var lights: [SimulatedGPIOLEDs]
    /// The SPI buses the devices are on.
    public var spiBuses: [VirtualSPIBus]
    /// The GPIO chips the devices are on.
    public var gpioChips: [VirtualGPIOChip]
    /// The button on the rig, if any: its chip and line.
    public var button: (chip: VirtualGPIOChip, offset: UInt32)?

    /// A rig of the devices and buses given.
    public init(
        chains: [SimulatedLEDChain] = [], displays: [SimulatedOLED] = [], lights: [SimulatedGPIOLEDs] = [],
        spiBuses: [VirtualSPIBus] = [], gpioChips: [VirtualGPIOChip] = [], button: (chip: VirtualGPIOChip, offset: UInt32)? = nil
    ) {
        self.chains = chains
        self.displays = displays
        self.lights = lights
        self.spiBuses = spiBuses
        self.gpioChips = gpioChips
        self.button = button
    }

    /// The I2C buses the rig's displays sit on (each once).
    public var i2cBuses: [VirtualI2CBus] {
        var buses: [VirtualI2CBus] = []
        for display in displays {
            guard let bus = display.i2cBus, !buses.contains(where: { $0 === bus }) else { continue }
            buses.append(bus)
        }
        return buses
    }

    /// Closes the current frame in every bus's statistics.
    public func endFrame() {
        for bus in i2cBuses { bus.endFrame() }
        for bus in spiBuses { bus.endFrame() }
        for chip in gpioChips { chip.endFrame() }
    }

    /// Sends every bus's and chip's traffic to `capture`.
    public func capture(to capture: BusCapture?) {
        for bus in i2cBuses { bus.capture(to: capture) }
        for bus in spiBuses { bus.capture(to: capture) }
        for chip in gpioChips { chip.capture(to: capture) }
    }

    /// The default rig, wired as on a Raspberry Pi 4: a 24-LED WS2812 ring on spi0.0, a 60-LED
    /// APA102 strip on spi1.0, an SSD1306 128x64 OLED at 0x3C on i2c-1, and on the header GPIO chip
    /// an 8-LED bar graph (lines 5, 6, 13, 19, 26, 16, 20, 21), a Blinkt!-style stick of 8 APA102s
    /// bit-banged on lines 23 (data) and 24 (clock), and a button on line 17 (to ground, pull-up).
    public static func standard(clock: any ProgressClock, i2cClockHz: Double = 100_000) -> SimulatorRig {
        let i2c = VirtualI2CBus(name: "i2c-1", clockHz: i2cClockHz, clock: clock)
        let spi0 = VirtualSPIBus(name: "spi0.0", clockModel: .raspberryPi4, clock: clock)
        let spi1 = VirtualSPIBus(name: "spi1.0", clockModel: .raspberryPi4, clock: clock)
        let header = VirtualGPIOChip(label: "pinctrl-bcm2711", clock: clock)
        // Every part below is a supported configuration on free lines, so none of these can fail.
        let oled = try! OLEDConfiguration(controller: .ssd1306, width: 128, height: 64)
        return SimulatorRig(
            chains: [
                try! .ws2812(name: "ring", count: 24, layout: .ring(), bus: spi0),
                try! .apa102(name: "strip", count: 60, layout: .strip, bus: spi1),
                try! .apa102BitBanged(name: "stick", count: 8, chip: header, data: 23, clock: 24),
            ],
            displays: [SimulatedOLED(name: "oled", configuration: oled, bus: i2c)],
            lights: [try! SimulatedGPIOLEDs(name: "bar", chip: header, offsets: [5, 6, 13, 19, 26, 16, 20, 21])],
            spiBuses: [spi0, spi1],
            gpioChips: [header],
            button: (header, 17)
        )
    }
}
