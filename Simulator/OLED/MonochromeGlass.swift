import HeadwayRender

/// What a monochrome controller's outputs show: for the crossing of one SEG output and one COM
/// pad, the RAM bit behind it and whether the pixel lights.
extension OLEDRegisters {
    /// The row scan, from the registers (see ``OLEDCOMScan`` for the datasheet tables behind it).
    var scan: OLEDCOMScan {
        OLEDCOMScan(lines: geometry.commons, multiplex: multiplex, offset: displayOffset, startLine: startLine,
                    reversed: comScanReversed, offsetAwayFromCOM0: geometry.columnsOnCommons)
    }

    /// The RAM line (a row of bits, or on SH1107 a column) COM pad `pad` shows, `nil` if no scanned
    /// line drives it. SH1107 has no pad configuration command: its pads carry COM0 … COM127 in order.
    func line(forPad pad: Int) -> Int? {
        let signal = geometry.columnsOnCommons ? pad : OLEDPadMap.signal(forPad: pad, comPins: comPins)
        return scan.ramLine(forSignal: signal)
    }

    /// The RAM position along the segments that SEG output `segment` shows: a stored column (Solomon,
    /// whose re-map already applied on write), a column through the re-map (SH1106: ADC = 1 puts
    /// column 131 on SEG0), or a bit row through the re-map (SH1107: "the direction of both page and
    /// byte are reversed").
    func position(forSegment segment: Int) -> Int {
        geometry.remapOnWrite || !segmentRemap ? segment : geometry.segments - 1 - segment
    }

    /// The SEG output that shows what is written now at position `index` along the segments (a
    /// column address, or on SH1107 a bit row), under the re-map in force.
    func segment(showing index: Int) -> Int {
        segmentRemap ? geometry.segments - 1 - index : index
    }

    /// The COM pad that shows RAM line `line`, if any does.
    func pad(showing line: Int) -> Int? {
        (0..<geometry.commons).first { self.line(forPad: $0) == line }
    }

    /// Whether the panel can light: display on, and its high voltage there — from the board
    /// (`externalSupply`) or from the controller's own charge pump / DC-DC converter. SH1106 table 8:
    /// "DC-DC 0, display on: External VPP must be used"; SSD1306 charge pump application note:
    /// 8Dh 14h before AFh.
    func isLit(externalSupply: Bool) -> Bool { displayOn && (externalSupply || powerOn) }

    /// The level (0 or 15) at RAM position `along` the segments on RAM line `line`, the panel being
    /// lit. Entire display on (A5h) has priority over inverse (SH1106 §7: "This command has priority
    /// over the normal/reverse display command"; SSD1306 §10.1.9: "regardless of the contents of the
    /// display data RAM").
    func level(position along: Int, line: Int) -> UInt8 {
        let (column, bit) = geometry.columnsOnCommons ? (line, along) : (along, line)
        var lit = ram[bit / 8 * ramWidth + column] & (1 << UInt8(bit % 8)) != 0
        if inverted { lit.toggle() }
        if entireDisplayOn { lit = true }
        return lit ? 15 : 0
    }

    /// Every pixel of `panel`, the scan worked out once per pad and segment rather than per pixel. A
    /// pad no scanned line drives stays dark.
    func glass(on panel: OLEDPanel) -> Greymap {
        var glass = Greymap(width: panel.width, height: panel.height)
        guard isLit(externalSupply: panel.externalSupply) else { return glass }
        let lines = (0..<geometry.commons).map { line(forPad: $0) }
        let positions = (0..<geometry.segments).map { position(forSegment: $0) }
        for y in 0..<panel.height {
            for x in 0..<panel.width {
                guard let (segment, pad) = panel.electrodes(x: x, y: y), let line = lines[pad] else { continue }
                glass[x, y] = level(position: positions[segment], line: line)
            }
        }
        return glass
    }
}
