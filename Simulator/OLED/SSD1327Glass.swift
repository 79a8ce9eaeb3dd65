import HeadwayRender

/// What the SSD1327's outputs show: for the crossing of one SEG output and one COM pad, the grey
/// index (0 … 15) of the RAM pixel behind it. The brightness that index produces depends on the
/// grey scale table (``SSD1327Registers/greyTable``), which the glass reports beside the picture.
extension SSD1327Registers {
    /// The row scan: COM re-map (A0h A[4]) reverses it, like C8h on the monochrome parts; offset
    /// and start line as in Figures 9-6 and 9-7.
    var scan: OLEDCOMScan {
        OLEDCOMScan(lines: 128, multiplex: multiplex, offset: displayOffset, startLine: startLine, reversed: comRemap)
    }

    /// The RAM row COM pad `pad` shows, through the odd/even split (A0h A[6], Figures 9-4 and 9-5).
    func row(forPad pad: Int) -> Int? {
        scan.ramLine(forSignal: OLEDPadMap.signal(forPad: pad, split: comSplit))
    }

    /// The COM pad that shows RAM row `row`, if any does.
    func pad(showing row: Int) -> Int? {
        (0..<128).first { self.row(forPad: $0) == row }
    }

    /// Whether the glass lights at all: display on (AFh) with the logic supply there (the internal
    /// VDD regulator, ABh A[0] = 1, on the modules modelled). The panel's VCC comes from the board:
    /// the SSD1327 has no charge pump.
    var isLit: Bool { displayOn && internalVDD }

    /// The grey index at SEG `segment` on RAM row `row`, through the display mode (§9.1.8: A5h
    /// "gray scale of 15", A6h "of 0", A7h "GS0 → GS15, GS1 → GS14 …").
    func level(segment: Int, row: Int) -> UInt8 {
        let stored = pixels[row * 128 + segment]
        switch displayMode {
        case .normal: return stored
        case .allOn: return 15
        case .allOff: return 0
        case .inverse: return 15 - stored
        }
    }

    /// Every pixel of `panel`, the scan worked out once per pad. A pad no scanned line drives stays dark.
    func glass(on panel: OLEDPanel) -> Greymap {
        var glass = Greymap(width: panel.width, height: panel.height)
        guard isLit else { return glass }
        let rows = (0..<128).map { row(forPad: $0) }
        for y in 0..<panel.height {
            for x in 0..<panel.width {
                guard let (segment, pad) = panel.electrodes(x: x, y: y), let row = rows[pad] else { continue }
                glass[x, y] = level(segment: segment, row: row)
            }
        }
        return glass
    }
}
