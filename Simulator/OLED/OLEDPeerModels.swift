import HeadwayDevices

/// What other drivers send to turn one OLED picture into the next, from their published update
/// methods: the yardsticks of docs/performance.md and of the planner's property test. Bytes on the
/// wire, each message's address byte included, as ``VirtualI2CBus`` counts them; `messageLimit` is
/// the bus's longest message (33 on SMBus-only adapters, which cut data into 32-byte blocks).
/// Pictures are in page format (``Bitmap/bytes``).
public enum OLEDPeerModel: String, CaseIterable, Sendable {
    /// luma.oled: the whole frame every time — on SSD1306 one command message with the column and
    /// page window (6 bytes), then all the data; on SH1106 each page addressed (3 bytes) and sent.
    case luma
    /// The Rust ssd1306 crate (buffered graphics mode over display-interface-i2c): the bounding
    /// box of the pixels changed since the last flush, after an 8-byte window command, its data in
    /// 16-byte chunks each with its own address and control byte; nothing when nothing changed.
    /// On SH1106, which has no window, the box's pages each addressed on their own.
    case boundingBox = "bounding box"

    public func bytes(from old: [UInt8]?, to new: [UInt8], width: Int, controller: OLEDController, messageLimit: Int) -> Int {
        let pages = new.count / width
        switch self {
        case .luma:
            return Self.cost(PageRun(firstPage: 0, lastPage: pages - 1, firstColumn: 0, lastColumn: width - 1), controller, chunk: messageLimit - 1)
        case .boundingBox:
            guard let old else {
                return Self.cost(PageRun(firstPage: 0, lastPage: pages - 1, firstColumn: 0, lastColumn: width - 1), controller, chunk: 16)
            }
            let changed = Self.changedRuns(from: old, to: new, width: width)
            guard let box = PageRunPlanner.boundingWindow(of: changed) else { return 0 }
            return Self.cost(box, controller, chunk: min(16, messageLimit - 1))
        }
    }

    /// The fewest bytes any plan could send: the changed bytes themselves, plus the least
    /// addressing — one window and as few data messages as hold them (SSD1306), or each changed
    /// page addressed once (SH1106).
    public static func floor(from old: [UInt8]?, to new: [UInt8], width: Int, controller: OLEDController, messageLimit: Int) -> Int {
        var changedPerPage = [Int](repeating: 0, count: new.count / width)
        for index in new.indices where old?[index] != new[index] {
            changedPerPage[index / width] += 1
        }
        let chunk = messageLimit - 1
        func data(_ count: Int) -> Int { count + 2 * ((count + chunk - 1) / chunk) }
        switch controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327:
            let changed = changedPerPage.reduce(0, +)
            return changed == 0 ? 0 : 8 + data(changed)
        case .sh1106:
            return changedPerPage.filter { $0 > 0 }.reduce(0) { $0 + 5 + data($1) }
        }
    }

    /// One run per page: the changed columns, first to last.
    static func changedRuns(from old: [UInt8], to new: [UInt8], width: Int) -> [PageRun] {
        (0..<(new.count / width)).compactMap { page in
            let changed = (0..<width).filter { old[page * width + $0] != new[page * width + $0] }
            guard let first = changed.first, let last = changed.last else { return nil }
            return PageRun(firstPage: page, lastPage: page, firstColumn: first, lastColumn: last)
        }
    }

    /// A window's addressing and its data in chunks of `chunk` bytes (SSD1306: one window, the
    /// data one stream; SH1106: each page addressed).
    static func cost(_ run: PageRun, _ controller: OLEDController, chunk: Int) -> Int {
        func data(_ count: Int) -> Int { count + 2 * ((count + chunk - 1) / chunk) }
        switch controller {
        case .ssd1306, .ssd1309, .ssd1305, .ssd1315, .sh1107, .ssd1327: return 8 + data(run.bytes)
        case .sh1106: return run.pages * (5 + data(run.columns))
        }
    }
}
