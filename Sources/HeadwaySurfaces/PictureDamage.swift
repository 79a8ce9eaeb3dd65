import Synchronization

/// Where a colour picture may differ from the picture it was drawn over, row by row: a frame mostly
/// repeats the last one, and whoever holds the older picture (the driver's record of the glass, the
/// output's record of what it showed) then compares and sends only these stretches.
///
/// The older picture is named by its ``ColourPicture/generation``, which no other picture's content
/// shares: a damage whose base is not the picture at hand says nothing about it.
package struct PictureDamage: Sendable, Equatable {
    /// The generation of the picture this one was drawn over.
    package let base: UInt64
    /// The stretches that may differ, top to bottom, at most one a row; every other pixel is the
    /// same as the base's.
    package let rows: [RowStretch]

    /// Damage over the picture of generation `base`, in `rows`.
    package init(base: UInt64, rows: [RowStretch]) {
        self.base = base
        self.rows = rows
    }
}

/// Pixels `first…last` of row `row`.
package struct RowStretch: Sendable, Equatable {
    /// The row.
    package let row: Int
    /// The first pixel of the stretch.
    package let first: Int
    /// The last pixel of the stretch.
    package let last: Int

    /// Pixels `first…last` of `row`.
    package init(row: Int, first: Int, last: Int) {
        self.row = row
        self.first = first
        self.last = last
    }
}

/// The generations of colour pictures: every picture drawn or changed takes the next one, so two
/// pictures of one generation hold the same pixels.
enum PictureGenerations {
    private static let counter = Atomic<UInt64>(0)

    static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).newValue }
}
