/// A rectangle of controller RAM to rewrite: columns `firstColumn...lastColumn` of pages
/// `firstPage...lastPage` (picture coordinates, before the module's column offset).
public struct PageRun: Sendable, Equatable {
    public var firstPage: Int
    public var lastPage: Int
    public var firstColumn: Int
    public var lastColumn: Int

    public var columns: Int { lastColumn - firstColumn + 1 }
    public var pages: Int { lastPage - firstPage + 1 }
    public var bytes: Int { columns * pages }
}

/// Works out which parts of a display to rewrite to turn one picture into the next.
///
/// Both pictures are in page format (``Bitmap/bytes``). For each page the changed columns are found
/// byte by byte; two changed stretches are sent as one when the unchanged gap between them costs
/// fewer bytes than starting a new run (`runOverhead`: the addressing commands and the extra
/// message). Runs covering the same columns on consecutive pages become one rectangle when the
/// controller can address rectangles (SSD1306's column/page window).
public struct PageRunPlanner: Sendable {
    public var width: Int
    public var pages: Int
    /// Bytes on the wire that starting one more run costs.
    public var runOverhead: Int
    public var mergesPages: Bool

    public init(width: Int, pages: Int, runOverhead: Int, mergesPages: Bool) {
        self.width = width
        self.pages = pages
        self.runOverhead = runOverhead
        self.mergesPages = mergesPages
    }

    /// The runs that turn `old` into `new`; every run when there is no old picture.
    public func runs(from old: [UInt8]?, to new: [UInt8]) -> [PageRun] {
        precondition(new.count == width * pages, "picture size does not match the display")
        guard let old else { return [PageRun(firstPage: 0, lastPage: pages - 1, firstColumn: 0, lastColumn: width - 1)] }
        var runs: [PageRun] = []
        for page in 0..<pages {
            let row = page * width
            var current: PageRun?
            for x in 0..<width where old[row + x] != new[row + x] {
                if var run = current, x - run.lastColumn - 1 <= runOverhead {
                    run.lastColumn = x
                    current = run
                } else {
                    if let run = current { runs.append(run) }
                    current = PageRun(firstPage: page, lastPage: page, firstColumn: x, lastColumn: x)
                }
            }
            if let run = current { runs.append(run) }
        }
        return mergesPages ? mergeVertically(runs) : runs
    }

    private func mergeVertically(_ runs: [PageRun]) -> [PageRun] {
        var merged: [PageRun] = []
        for run in runs {
            let above = merged.firstIndex {
                $0.lastPage + 1 == run.firstPage && $0.firstColumn == run.firstColumn && $0.lastColumn == run.lastColumn
            }
            if let above { merged[above].lastPage = run.lastPage } else { merged.append(run) }
        }
        return merged
    }
}
