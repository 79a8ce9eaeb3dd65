import HeadwayDevices

/// An LED chain laid out as a matrix, read back as glass: each LED placed where the panel's wiring
/// puts it, walked from the first LED as the panels are wired (not from the picture's side, as the
/// driver maps it), then turned as mounted.
extension RigDevice {
    /// A chain whose decoded levels are `levels`, laid out as `layout`; `problems` are the chain
    /// model's.
    public static func chainMatrix(
        _ name: String, layout: ChainMatrixLayout, levels: @escaping @Sendable () -> [RGB8], problems: @escaping @Sendable () -> [String]
    ) -> RigDevice {
        let places = ChainPanelWalk.places(layout)
        let width = layout.width * layout.panelsAcross, height = layout.height * layout.panelsDown
        return RigDevice(name: name, view: .matrix(glass: {
            let shown = levels()
            // Each LED a red, a green and a blue die, each as bright as its PWM level.
            let leds = places.enumerated().flatMap { index, place -> [GlassLED] in
                let level = index < shown.count ? shown[index] : .off
                return [(RGB8(red: 255, green: 0, blue: 0), level.red), (RGB8(red: 0, green: 255, blue: 0), level.green), (RGB8(red: 0, green: 0, blue: 255), level.blue)].map {
                    GlassLED(x: place.x, y: place.y, colour: $0.0, brightness: Double($0.1) / 256)
                }
            }
            return LEDGlass(width: width, height: height, leds: leds).turned(layout.rotation)
        }), problems: problems)
    }
}

/// Walks a chain through its panels, LED by LED, as the wiring runs.
enum ChainPanelWalk {
    /// Where each LED of the chain sits (before the matrix is turned), in chain order.
    static func places(_ layout: ChainMatrixLayout) -> [(x: Int, y: Int)] {
        let panels = walk(across: layout.panelsAcross, down: layout.panelsDown, layout.panelWiring)
        let inPanel = walk(across: layout.width, down: layout.height, layout.wiring)
        return panels.flatMap { panel in inPanel.map { (panel.x * layout.width + $0.x, panel.y * layout.height + $0.y) } }
    }

    /// The cells of an `across` × `down` grid in the order the wiring visits them: from its start
    /// corner, a step at a time along the line, then over to the next line, turning back there when
    /// serpentine.
    static func walk(across: Int, down: Int, _ wiring: ChainMatrixLayout.Wiring) -> [(x: Int, y: Int)] {
        let startsLeft = wiring.start == .topLeft || wiring.start == .bottomLeft
        let startsTop = wiring.start == .topLeft || wiring.start == .topRight
        var x = startsLeft ? 0 : across - 1, y = startsTop ? 0 : down - 1
        var along = wiring.lines == .rows ? (startsLeft ? 1 : -1) : (startsTop ? 1 : -1)
        let over = wiring.lines == .rows ? (startsTop ? 1 : -1) : (startsLeft ? 1 : -1)
        let lineLength = wiring.lines == .rows ? across : down
        let lines = wiring.lines == .rows ? down : across
        var cells: [(x: Int, y: Int)] = []
        for _ in 0..<lines {
            let lineStart = (x, y)
            for step in 0..<lineLength {
                cells.append((x, y))
                guard step < lineLength - 1 else { break }
                if wiring.lines == .rows { x += along } else { y += along }
            }
            // To the next line: back to where this one began (progressive), or straight over (serpentine).
            if wiring.serpentine { along = -along } else { (x, y) = lineStart }
            if wiring.lines == .rows { y += over } else { x += over }
        }
        return cells
    }
}
