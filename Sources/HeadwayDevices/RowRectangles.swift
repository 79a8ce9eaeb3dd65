import HeadwaySurfaces

/// A rectangle a driver's planner grows from runs of changed bytes on one row: the OLEDs' page
/// runs and the colour TFTs' pixel rectangles.
package protocol RowRectangle {
    /// The row it starts on.
    var firstRow: Int { get }
    /// The smallest rectangle around it and `other`.
    func union(_ other: Self) -> Self
}

extension Array where Element: RowRectangle {
    /// Runs (in row order) grown into rectangles: each run joins the rectangle that ended on the
    /// row above whose bounding rectangle saves the most by `cost` (and costs no more than the two
    /// apart), or starts a rectangle of its own.
    package func mergedDown(cost: (Element) -> Int) -> [Element] {
        var merged: [Element] = []
        merged.reserveCapacity(count)
        // Indices in `merged` of the rectangles ending on the row above, and on this row: a few
        // at a time, in two buffers that swap as the rows go by.
        var open: [Int] = [], opening: [Int] = []
        open.reserveCapacity(8)
        opening.reserveCapacity(8)
        var row = -1
        for run in self {
            if run.firstRow != row {
                if run.firstRow == row + 1 { swap(&open, &opening) } else { open.removeAll(keepingCapacity: true) }
                opening.removeAll(keepingCapacity: true)
                row = run.firstRow
            }
            let alone = cost(run)
            var best = -1, bestSaving = -1
            for (position, index) in open.enumerated() {
                let saving = cost(merged[index]) + alone - cost(merged[index].union(run))
                if saving > bestSaving { (best, bestSaving) = (position, saving) }
            }
            if best >= 0 {
                let index = open.remove(at: best)
                merged[index] = merged[index].union(run)
                opening.append(index)
            } else {
                merged.append(run)
                opening.append(merged.count - 1)
            }
        }
        return merged
    }
}

extension PixelRect: RowRectangle {
    package var firstRow: Int { y }
}
