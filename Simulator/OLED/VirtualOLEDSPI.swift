import HeadwayCore
import HeadwayDevices

/// The 4-wire SPI front end: SCLK and SDIN on a ``VirtualSPIBus``, D/C# and RES# on GPIO lines.
///
/// "D/C# is sampled on every eighth clock" (SSD1306 §8.1.3; likewise the others), and a driver
/// changes it only between messages, so the line's level when a message arrives says command (low)
/// or data (high) for all its bytes. RES# low resets the registers (``OLEDChipState/reset()``);
/// its pulse width and the chip's recovery after it are checked against ``OLEDControllerFacts``,
/// on the simulation's clock.
struct SPIWiring: Sendable {
    let gpio: VirtualGPIOChip
    let dc: UInt32
    let reset: UInt32?
    let clock: any ProgressClock
    /// RES# is held low now.
    var resetLow = false
    var resetFell: Seconds = 0
    /// When RES# last rose, until the first message after it was checked.
    var resetRose: Seconds?
}

extension VirtualOLED {
    /// Wires the chip for 4-wire SPI: D/C# (and RES#, if the module's reset pin is connected) on
    /// `chip`. Attach the chip to the bus with ``VirtualSPIBus/attach(_:)`` as well.
    ///
    /// RES# counts as high (the module's pull-up) until a consumer drives the line; from then on
    /// every level change is an edge.
    public func wireSPI(dc: UInt32, reset: UInt32?, on chip: VirtualGPIOChip, clock: any ProgressClock) {
        state.withLock { $0.spi = SPIWiring(gpio: chip, dc: dc, reset: reset, clock: clock) }
        guard let reset else { return }
        chip.watch([reset]) { [weak self] levels in self?.resetLine(isHigh: levels[0]) }
    }

    /// One SPI message, clocked at `hz` in `mode`.
    public func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8) {
        guard let wiring = state.withLock({ $0.spi }) else {
            return state.withLock { $0.chip.error("an SPI message reached a chip not wired for SPI (wireSPI was not called)") }
        }
        let isData = wiring.gpio.levels([wiring.dc])[0]
        let now = wiring.clock.now
        state.withLock { state in
            if Double(hz) > facts.maxSPIHz {
                state.chip.error("SPI clock \(hz) Hz is above the \(controller.rawValue)'s \(Int(facts.maxSPIHz)) Hz (serial clock cycle time)")
            }
            if !OLEDControllerFacts.spiModes.contains(mode) {
                state.chip.error(
                    "SPI mode \(mode) samples on falling clock edges; the \(controller.rawValue) shifts data in on rising edges (modes 0, 3)")
            }
            guard var spi = state.spi else { return }
            if spi.resetLow {
                return state.chip.error("\(bytes.count) byte(s) arrived while RES# is low and are lost")
            }
            if let rose = spi.resetRose {
                spi.resetRose = nil
                state.spi = spi
                if now - rose < facts.resetRecovery - Self.timeResolution {
                    return state.chip.error(
                        "first byte \(micros(now - rose)) after RES# rose; the \(controller.rawValue) is still resetting for "
                            + "\(micros(facts.resetRecovery)) and loses \(bytes.count) byte(s)")
                }
            }
            for byte in bytes { state.chip.take(byte, isData: isData) }
        }
    }

    /// RES# changed level (or was driven again to the same level).
    func resetLine(isHigh: Bool) {
        state.withLock { state in
            guard var spi = state.spi else { return }
            let now = spi.clock.now
            if !isHigh, !spi.resetLow {
                spi.resetLow = true
                spi.resetFell = now
                spi.resetRose = nil
                state.chip.reset()
            } else if isHigh, spi.resetLow {
                spi.resetLow = false
                spi.resetRose = now
                let width = now - spi.resetFell
                if width < facts.minimumResetPulse - Self.timeResolution {
                    state.chip.error(
                        "RES# low pulse of \(micros(width)) is shorter than the \(controller.rawValue)'s \(micros(facts.minimumResetPulse))")
                }
            }
            state.spi = spi
        }
    }

    /// Times are compared to the nanosecond: finer than any datasheet figure, coarser than the
    /// rounding of the simulation clock's sums.
    static let timeResolution = 1e-9

    private func micros(_ seconds: Double) -> String {
        let value = (seconds * 1e7).rounded() / 10
        return "\(value) µs"
    }
}
