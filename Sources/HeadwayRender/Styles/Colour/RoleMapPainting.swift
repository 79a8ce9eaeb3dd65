import RealModule

/// Anti-aliased shapes on a colour display's ``/HeadwaySurfaces/RoleMap``: each pixel gets the share of it a
/// shape covers. A shape paints over another role (the fill over the track: the track is dim, so
/// an edge pixel's mix with black instead of the track shows no seam) and over less of its own.
extension RoleMap {
    /// Paints `coverage` (0…1) of pixel (`x`, `y`) in `role`.
    @inline(__always)
    mutating func paint(_ x: Int, _ y: Int, _ role: SurfaceRole, coverage: Double) {
        guard coverage > 0, x >= 0, y >= 0, x < width, y < height else { return }
        let level = UInt8(Swift.min(Double(RoleMap.maxLevel), (coverage * Double(RoleMap.maxLevel)).rounded()))
        guard level > 0 else { return }
        if role != self.role(x: x, y: y) || level > self.level(x: x, y: y) { setLevel(level, x: x, y: y, role: role) }
    }

    /// The pattern a fill is drawn in: solid progress, hatched (stalled, stale), dotted (an estimate).
    enum Pattern {
        case solid, hatched, dotted

        /// Whether the pattern lights pixel (`x`, `y`): stripes and dots are as wide as `scale`.
        func lights(_ x: Int, _ y: Int, scale: Int) -> Bool {
            switch self {
            case .solid: true
            case .hatched: (x + y) / scale % 2 == 0
            case .dotted: (x / scale + y / scale) % 2 == 0
            }
        }
    }

    /// A bar with round ends filling `rect`, its ends half circles of the rect's height; only its
    /// part left of `upTo` (a fractional x) when given, the pixel there lit by the share left of it.
    mutating func capsule(_ rect: PixelRect, _ role: SurfaceRole, upTo: Double? = nil, pattern: Pattern = .solid, patternScale: Int = 1) {
        guard !rect.isEmpty else { return }
        let radius = Double(rect.height) / 2
        let centreY = Double(rect.y) + radius
        let left = Double(rect.x) + radius, right = Double(rect.maxX) - radius
        let limit = upTo ?? Double(rect.maxX)
        let lastColumn = Swift.min(rect.maxX, Int(limit.rounded(.up)))
        guard lastColumn > rect.x else { return }
        for y in rect.y..<rect.maxY {
            let dy = abs(Double(y) + 0.5 - centreY)
            for x in rect.x..<lastColumn {
                guard pattern.lights(x, y, scale: patternScale) else { continue }
                let px = Double(x) + 0.5
                let dx = px < left ? left - px : px > right ? px - right : 0
                let distance = dx == 0 ? dy : (dx * dx + dy * dy).squareRoot()
                let across = Swift.min(1, Swift.max(0, radius - distance + 0.5))
                let along = Swift.min(1, Swift.max(0, limit - Double(x)))
                paint(x, y, role, coverage: Swift.min(across, along))
            }
        }
    }

    /// Part of a ring around (`centreX`, `centreY`) between `inner` and `outer`, from `start`
    /// sweeping `sweep` turns (0 = 12 o'clock, clockwise; 1 or more: the whole ring).
    mutating func ring(centreX: Double, centreY: Double, inner: Double, outer: Double, start: Double = 0, sweep: Double = 1,
                       _ role: SurfaceRole, pattern: Pattern = .solid, patternScale: Int = 1) {
        guard sweep != 0, outer > inner else { return }
        let full = abs(sweep) >= 1
        let area = PixelRect(x: Int((centreX - outer).rounded(.down)) - 1, y: Int((centreY - outer).rounded(.down)) - 1,
                             width: Int(2 * outer) + 4, height: Int(2 * outer) + 4).intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            let dy = Double(y) + 0.5 - centreY
            for x in area.x..<area.maxX {
                guard pattern.lights(x, y, scale: patternScale) else { continue }
                let dx = Double(x) + 0.5 - centreX
                let radius = (dx * dx + dy * dy).squareRoot()
                let across = Swift.min(1, Swift.max(0, Swift.min(outer - radius, radius - inner) + 0.5))
                guard across > 0 else { continue }
                let along = full ? 1 : Self.coverage(dx: dx, dy: dy, radius: radius, start: start, sweep: sweep)
                paint(x, y, role, coverage: across * along)
            }
        }
    }

    /// A straight stroke `thickness` pixels wide with round ends, from `start` to `end`.
    mutating func stroke(from start: (x: Double, y: Double), to end: (x: Double, y: Double), thickness: Double, _ role: SurfaceRole) {
        let half = thickness / 2
        let area = PixelRect(x: Int((Swift.min(start.x, end.x) - half).rounded(.down)) - 1, y: Int((Swift.min(start.y, end.y) - half).rounded(.down)) - 1,
                             width: Int(abs(end.x - start.x) + thickness) + 3, height: Int(abs(end.y - start.y) + thickness) + 3).intersection(bounds)
        guard !area.isEmpty else { return }
        let vx = end.x - start.x, vy = end.y - start.y
        let length = vx * vx + vy * vy
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let px = Double(x) + 0.5 - start.x, py = Double(y) + 0.5 - start.y
                let t = length > 0 ? Swift.min(1, Swift.max(0, (px * vx + py * vy) / length)) : 0
                let dx = px - t * vx, dy = py - t * vy
                paint(x, y, role, coverage: Swift.min(1, Swift.max(0, half - (dx * dx + dy * dy).squareRoot() + 0.5)))
            }
        }
    }
}
