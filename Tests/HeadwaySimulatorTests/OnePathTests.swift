import HeadwayCore
import HeadwaySystem
import HeadwayDevices
import HeadwayRender
@testable import HeadwaySimProgram
import HeadwayService
import HeadwaySimulator
import Testing

/// headwayd and headway-sim build every device through one path: the catalogue's row, over a
/// `Buses`. The simulator only attaches twins first. A configuration of every family, with its
/// options away from their defaults, is built both ways; the drivers must put the same bytes on
/// the same buses at the same clocks, and every option must reach the wire.
@Suite("One build path for every family")
struct OnePathTests {
    static let configuration = """
        spi-clock: raspberry-pi-4
        outputs:
          - name: ring
            driver: ws2812
            bus: spi0.0
            count: 12
            layout: ring
            speed-hz: 2600000
            order: rgb
          - name: strip
            driver: apa102
            bus: spi1.0
            count: 10
          - name: stick
            driver: apa102-gpio
            chip: header
            data: 23
            clock: 24
            count: 8
          - name: pi5
            driver: leds0
            count: 6
            rgbw: true
          - name: grey
            driver: ssd1327
            bus: spi0.1
            dc: 22
            reset: 27
            speed-hz: 2000000
            size: 96x96
            rotation: 180
          - name: oled
            driver: sh1106
            bus: i2c-1
            address: 0x3d
          - name: bar
            driver: gpio-leds
            lines: [5, 6, 13]
            active-low: true
          - name: backpack
            driver: ht16k33
            bus: i2c-1
            address: 0x71
            layout: matrix16x8
            rotation: 180
          - name: shim
            driver: is31fl3731
            bus: i2c-1
            address: 0x76
            layout: led-shim
            gamma: 2
          - name: row
            driver: max7219
            bus: spi1.1
            layout: fc16
            chain: 2
            speed-hz: 2000000
            rotation: 90
          - name: panel
            driver: ws2812
            bus: spi1.2
            count: 70
            matrix: {width: 8, height: 8, lines: columns, wiring: serpentine, rotation: 270}
          - name: tft
            driver: st7735
            bus: spi2.0
            dc: 16
            reset: 20
            size: 128x128
            rotation: 90
            speed-hz: 12000000
            backlight-pwm: pwmchip0/1
            style: ring
          - name: led
            driver: gpio-leds
            colours: rgb
            lines: [19, 26, 12]
        buttons:
          - line: 17
        """

    /// Every write on every bus and line, in order, as `--capture` records them (times dropped).
    static func traffic(twins: Bool) throws -> [String] {
        let configuration = try ConfigurationLoader.parse(configuration, source: "one-path.yaml")
        let clock = ManualClock()
        let buses = SimulatedBuses(clock: clock)
        let outputs: [ServiceOutput]
        if twins {
            outputs = try SimulatedRigBuilder.devices(configuration, buses: buses).1.outputs
        } else {
            // headwayd's path over the simulator's buses: no twins, only the catalogue's builder.
            // The Pi 5's LED device exists before its driver opens it, and something answers at
            // the display's address, as on a Pi with the hardware wired.
            buses.attach(VirtualLEDDeviceFile(path: "/dev/leds0", count: 6))
            for address: UInt8 in [0x3D, 0x71, 0x76] { buses.i2cBus("i2c-1").attach(Acknowledging(address: address)) }
            outputs = try OutputBuilder.devices(for: configuration, buses: buses).outputs
        }
        let path = "/tmp/headway-one-path-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let capture = try BusCapture(path: path)
        buses.capture(to: capture)
        let job = ProgressStyleConfiguration(
            snapshot: ProgressSnapshot(time: 10, phase: .active, kind: .determinate(value: 0.4, total: 1), fraction: 0.4, label: "Build", elapsed: 8))
        for output in outputs { try output.indicatorOutput.draw(job) }
        capture.close()
        let text = String(decoding: Files.read(path) ?? [], as: UTF8.self)
        return text.split(separator: "\n").map { line in String(line.drop { $0 != "," }) }
    }

    @Test func headwaydAndTheSimulatorSendTheSameBytes() throws {
        let linux = try Self.traffic(twins: false)
        let simulated = try Self.traffic(twins: true)
        #expect(!linux.isEmpty && linux == simulated)
    }

    /// The options reach the wire: the WS2812's speed-hz, the OLED's speed-hz, its address, the
    /// TFT's speed-hz (as the Pi 4 divides it) and its PWM backlight.
    @Test func everyOptionReachesTheWire() throws {
        let traffic = try Self.traffic(twins: true)
        let ring = try #require(traffic.first { $0.contains("\"bus\":\"spi0.0\"") })
        #expect(ring.contains("\"hz\":\(SPIClockModel.raspberryPi4.effectiveSpeed(forRequested: 2_600_000))"), "\(ring)")
        #expect(traffic.contains { $0.contains("\"bus\":\"spi0.1\"") && $0.contains("\"hz\":\(SPIClockModel.exact.effectiveSpeed(forRequested: 2_000_000))") })
        #expect(traffic.contains { $0.contains("\"bus\":\"i2c-1\"") && $0.contains("\"addr\":61") })
        #expect(traffic.contains { $0.contains("\"addr\":113") } && traffic.contains { $0.contains("\"addr\":118") })
        #expect(traffic.contains { $0.contains("\"bus\":\"spi1.1\"") && $0.contains("\"hz\":2000000") })
        #expect(traffic.contains { $0.contains("\"bus\":\"spi1.2\"") })
        #expect(traffic.contains { $0.contains("\"bus\":\"spi2.0\"") && $0.contains("\"hz\":\(SPIClockModel.raspberryPi4.effectiveSpeed(forRequested: 12_000_000))") })
        #expect(traffic.contains { $0.contains("\"pwm\":\"pwmchip0/1\"") && $0.contains("\"duty\":1000000") && $0.contains("\"enabled\":1") })
        #expect(traffic.contains { $0.contains("\"lines\":[19,26,12]") })
    }
}

/// A chip that acknowledges whatever it is sent and does nothing with it.
final class Acknowledging: I2CTarget {
    let address: UInt8
    init(address: UInt8) { self.address = address }
    func receive(_ message: [UInt8]) {}
    func stop() {}
}
