import HeadwayCore
import HeadwayDevices

/// The 4-line serial front end: SCL and SDA on a ``VirtualSPIBus``, D/C, RES# and the backlight on
/// GPIO lines.
///
/// "If D/CX is 'low', the transmission byte is interpreted as a command byte. If D/CX is 'high', the
/// transmission byte is stored in the display data RAM … or command register as parameter" (ST7735S
/// V1.4 §9.4.1; ST7789V V1.3 §8.4.2 and ILI9341 V1.11 §7.1.9 alike). D/C is sampled with each byte's
/// last bit, and a driver changes it only between messages, so its level when a message arrives is
/// taken for all of the message's bytes.
struct TFTSPIWiring: Sendable {
    let gpio: VirtualGPIOChip
    let dc: UInt32
    let reset: UInt32?
    let backlight: UInt32?
    let clock: any ProgressClock
    /// RES# is held low now.
    var resetLow = false
    var resetFell: Seconds = 0
    /// When RES# last rose after a reset the chip took.
    var resetRose: Seconds?

    /// Whether the backlight shines: its line at the level that lights it, or always when no line
    /// was wired.
    func backlightOn(_ wiring: TFTBacklightWiring?) -> Bool {
        guard let backlight else { return true }
        return gpio.levels([backlight])[0] == (wiring?.activeHigh ?? true)
    }
}

extension VirtualTFT {
    /// Wires the chip for 4-line SPI: D/C, RES# (if the module brings it out) and the backlight's
    /// switch (if it is on a line) on `chip`. Attach the chip to the bus with
    /// ``VirtualSPIBus/attach(_:)`` as well.
    ///
    /// RES# counts as high (the module's pull-up) until a consumer drives it. The backlight line
    /// reads as the GPIO chip has it: low, so off, until someone drives it.
    public func wireSPI(dc: UInt32, reset: UInt32?, backlight: UInt32?, on chip: VirtualGPIOChip, clock: any ProgressClock) {
        state.withLock { $0.wiring = TFTSPIWiring(gpio: chip, dc: dc, reset: reset, backlight: backlight, clock: clock) }
        guard let reset else { return }
        chip.watch([reset]) { [weak self] levels in self?.resetLine(isHigh: levels[0]) }
    }

    /// One SPI message, clocked at `hz` in `mode`.
    public func receive(_ bytes: [UInt8], hz: UInt32, mode: UInt8) {
        guard let wiring = state.withLock({ $0.wiring }) else {
            return state.withLock { $0.chip.error("an SPI message reached a chip not wired for SPI (wireSPI was not called)") }
        }
        let isData = wiring.gpio.levels([wiring.dc])[0]
        let now = wiring.clock.now
        state.withLock { state in
            if Double(hz) > facts.maxSPIHz {
                state.chip.error("SPI clock \(hz) Hz is above the \(controller)'s \(Int(facts.maxSPIHz)) Hz (serial clock cycle time, write)")
            }
            if !TFTControllerFacts.spiModes.contains(mode) {
                state.chip.error("SPI mode \(mode) samples on falling clock edges; the \(controller) latches SDA on rising edges (modes 0, 3)")
            }
            guard let spi = state.wiring else { return }
            if spi.resetLow {
                return state.chip.error("\(bytes.count) byte(s) arrived while RES# is low and are lost")
            }
            if let rose = spi.resetRose, now - rose < facts.resetCancel - TFTHoldOffClock.timeResolution {
                return state.chip.error("\(bytes.count) byte(s) arrived \(TFTChipState.milliseconds(now - rose)) after RES# rose; the \(controller) "
                                        + "loads its defaults for \(TFTChipState.milliseconds(facts.resetCancel)) (t_RT) and loses them")
            }
            state.chip.take(bytes, isData: isData, at: now, byteTime: hz > 0 ? 8 / Double(hz) : 0)
        }
    }

    /// RES# changed level (or was driven again to the same level). A pulse shorter than 5 µs is
    /// rejected as a spike ("RESX Pulse Shorter than 5us: Reset Rejected", ST7789V V1.3 §7.4.5
    /// note 2; ST7735S V1.4 §9.17 and ILI9341 V1.11 §15.4 alike); one shorter than t_RW is an error.
    func resetLine(isHigh: Bool) {
        state.withLock { state in
            guard var spi = state.wiring else { return }
            let now = spi.clock.now
            if !isHigh, !spi.resetLow {
                spi.resetLow = true
                spi.resetFell = now
            } else if isHigh, spi.resetLow {
                spi.resetLow = false
                let width = now - spi.resetFell
                if width < facts.minimumResetPulse - TFTHoldOffClock.timeResolution {
                    state.chip.error("RES# low pulse of \(Self.microseconds(width)) is shorter than the \(controller)'s "
                                     + "\(Self.microseconds(facts.minimumResetPulse)) (t_RW)")
                }
                if width >= Self.spikeRejection - TFTHoldOffClock.timeResolution {
                    state.chip.hardwareReset()
                    state.chip.holdOffs.record(.resetReleased, at: now)
                    spi.resetRose = now
                }
            }
            state.wiring = spi
        }
    }

    /// A RES# pulse this short is rejected by every controller modelled.
    static let spikeRejection = 5e-6

    private static func microseconds(_ seconds: Double) -> String {
        "\((seconds * 1e7).rounded() / 10) µs"
    }
}
