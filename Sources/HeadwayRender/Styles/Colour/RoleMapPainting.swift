import RealModule

/// Anti-aliased shapes on a colour display's ``/HeadwaySurfaces/RoleMap``: each pixel gets the share of it a
/// shape covers. A shape paints over another role (the fill over the track: the track is dim, so
/// an edge pixel's mix with black instead of the track shows no seam) and over less of its own.
/// Each shape writes the map's bytes in place, a row at a time: a colour frame is mostly these.
extension RoleMap {
    /// The pattern a fill is drawn in: solid progress, hatched (stalled, stale), dotted (an estimate).
    enum Pattern {
        case solid, hatched, dotted

        /// Whether the pattern lights pixel (`x`, `y`): stripes and dots are as wide as `scale`.
        @inline(__always)
        func lights(_ x: Int, _ y: Int, scale: Int) -> Bool {
            switch self {
            case .solid: true
            case .hatched: (x + y) / scale % 2 == 0
            case .dotted: (x / scale + y / scale) % 2 == 0
            }
        }
    }

    /// Paints `coverage` (0…1) of the pixel at `index` in `role` (already shifted to bits 7…5).
    @inline(__always)
    static func paint(_ pixels: UnsafeMutableBufferPointer<UInt8>, _ index: Int, _ role: UInt8, coverage: Double) {
        guard coverage > 0 else { return }
        let level = UInt8(Swift.min(31, coverage * 31 + 0.5))
        guard level > 0 else { return }
        let old = pixels[index]
        if old >> 5 != role >> 5 || level > old & 0x1F { pixels[index] = role | level }
    }

    /// Paints `coverage` of pixel (`x`, `y`) in `role` (clipped to the map).
    mutating func paint(_ x: Int, _ y: Int, _ role: SurfaceRole, coverage: Double) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        withUnsafeMutablePixels(rows: y..<(y + 1)) { Self.paint($0, index, role.rawValue << 5, coverage: coverage) }
    }

    /// A bar with round ends filling `rect`, its ends half circles of the rect's height; only its
    /// part left of `upTo` (a fractional x) when given, the pixel there lit by the share left of it.
    mutating func capsule(_ rect: PixelRect, _ role: SurfaceRole, upTo: Double? = nil, pattern: Pattern = .solid, patternScale: Int = 1) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let radius = Double(rect.height) / 2
        let centreY = Double(rect.y) + radius
        let left = Double(rect.x) + radius, right = Double(rect.maxX) - radius
        let limit = upTo ?? Double(rect.maxX)
        let lastColumn = Swift.min(area.maxX, Int(limit.rounded(.up)))
        guard lastColumn > area.x else { return }
        let code = role.rawValue << 5, width = self.width
        // Columns before this one are wholly left of the limit.
        let beforeLimit = Swift.min(lastColumn, Int(limit.rounded(.down)))
        let outer = radius + 0.5, inner = radius - 0.5
        withUnsafeMutablePixels(rows: area.y..<area.maxY) { pixels in
            for y in area.y..<area.maxY {
                let dy = abs(Double(y) + 0.5 - centreY)
                guard dy < outer else { continue }
                let straight = Swift.min(1, Swift.max(0, radius - dy + 0.5))
                let row = y * width
                // A pixel's share: the row's across the straight part, the distance from an end's
                // centre across the round ends, and never more than its share left of the limit.
                func edge(_ columns: Range<Int>) {
                    for x in columns where pattern.lights(x, y, scale: patternScale) {
                        let px = Double(x) + 0.5
                        let across: Double
                        if px < left || px > right {
                            let dx = px < left ? left - px : px - right
                            across = Swift.min(1, Swift.max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                        } else {
                            across = straight
                        }
                        Self.paint(pixels, row + x, code, coverage: Swift.min(across, Swift.min(1, limit - Double(x))))
                    }
                }
                // The columns the row touches at all: within the outer circle around each end.
                let reach = (outer * outer - dy * dy).squareRoot()
                let from = Swift.max(area.x, Int((left - reach - 0.5).rounded(.down)))
                let to = Swift.min(lastColumn, Int((right + reach - 0.5).rounded(.down)) + 2)
                guard from < to else { continue }
                // Those it covers whole, filled in one go: within the inner circle of the ends.
                var whole = to..<to
                if pattern == .solid, dy <= inner, left <= right {
                    let chord = (inner * inner - dy * dy).squareRoot()
                    let first = Swift.max(from, Int((left - chord - 0.5).rounded(.up)))
                    let end = Swift.min(to, beforeLimit, Int((right + chord - 0.5).rounded(.down)) + 1)
                    if first < end { whole = first..<end }
                }
                if whole.isEmpty {
                    edge(from..<to)
                } else {
                    edge(from..<whole.lowerBound)
                    pixels[(row + whole.lowerBound)..<(row + whole.upperBound)].update(repeating: code | 31)
                    edge(whole.upperBound..<to)
                }
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
        let code = role.rawValue << 5, width = self.width
        let reach = outer + 0.5, hole = Swift.max(0, inner - 0.5)
        withUnsafeMutablePixels(rows: area.y..<area.maxY) { pixels in
            for y in area.y..<area.maxY {
                let dy = Double(y) + 0.5 - centreY
                guard abs(dy) < reach else { continue }
                // The columns the ring covers on this row: inside the outer circle, outside the hole.
                let span = (reach * reach - dy * dy).squareRoot()
                let gap = abs(dy) < hole ? (hole * hole - dy * dy).squareRoot() : -1
                let first = Swift.max(area.x, Int((centreX - span).rounded(.down))), last = Swift.min(area.maxX - 1, Int((centreX + span).rounded(.up)))
                guard first <= last else { continue }
                let row = y * width
                for x in first...last {
                    let dx = Double(x) + 0.5 - centreX
                    guard abs(dx) > gap - 1 else { continue }
                    guard pattern.lights(x, y, scale: patternScale) else { continue }
                    let radius = (dx * dx + dy * dy).squareRoot()
                    let across = Swift.min(1, Swift.max(0, Swift.min(outer - radius, radius - inner) + 0.5))
                    guard across > 0 else { continue }
                    let along = full ? 1 : Self.coverage(dx: dx, dy: dy, radius: radius, start: start, sweep: sweep)
                    Self.paint(pixels, row + x, code, coverage: across * along)
                }
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
        let code = role.rawValue << 5, width = self.width
        withUnsafeMutablePixels(rows: area.y..<area.maxY) { pixels in
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX {
                    let px = Double(x) + 0.5 - start.x, py = Double(y) + 0.5 - start.y
                    let t = length > 0 ? Swift.min(1, Swift.max(0, (px * vx + py * vy) / length)) : 0
                    let dx = px - t * vx, dy = py - t * vy
                    Self.paint(pixels, y * width + x, code, coverage: Swift.min(1, Swift.max(0, half - (dx * dx + dy * dy).squareRoot() + 0.5)))
                }
            }
        }
    }
}
