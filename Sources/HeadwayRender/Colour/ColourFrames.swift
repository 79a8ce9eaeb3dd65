/// A colour display's last two frames, each a role map and its picture, from which the next
/// frame's picture is made. A frame mostly repeats the last one; its picture is drawn over the
/// older frame's buffer where the roles changed since that frame, so that the 150 KB buffer is
/// neither allocated nor copied while the newer picture is still held by the driver and the
/// output's records. The picture carries its damage against the last one (``/HeadwaySurfaces/PictureDamage``),
/// which the driver and the records compare and send instead of the whole.
package struct ColourFrames: Sendable {
    private struct Frame: Sendable {
        var roles: RoleMap
        var picture: ColourPicture
        /// Where the role map's top-left corner is on the picture.
        var origin: (x: Int, y: Int)
        /// What changed since the frame before, in the role map; nil when that is not known (a
        /// first frame, or one at a new place).
        var changes: [RowStretch]?
    }

    private var palette: ColourPalette?
    private var last: Frame?
    /// The picture of the frame before the last, which differs from the last's in its changes.
    private var older: ColourPicture?
    /// The role map of the frame before the last, to draw the next frame on.
    private var spare: RoleMap?
    /// Counts the frames whose roles or palette differed from the frame before's: what people
    /// see change, which a move of the picture to another place is not.
    package private(set) var contentChanges = 0

    /// No frames yet.
    package init() {}

    /// A blank role map of `width` x `height` to draw the next frame on: the one of a frame no
    /// longer needed, cleared where it was drawn on, or a new one.
    package mutating func canvas(width: Int, height: Int) -> RoleMap {
        guard var roles = spare, roles.width == width, roles.height == height else { return RoleMap(width: width, height: height) }
        spare = nil
        roles.clear()
        return roles
    }

    /// `roles` in `palette`'s colours in `format`, drawn over the frames before where they allow;
    /// on a picture of `width` x `height` (by default the map's size), black around the map, whose
    /// top-left corner is at `origin`. Placed here, the picture is drawn once where it shows, and
    /// its damage is known in the picture's own rows.
    package mutating func picture(of roles: RoleMap, palette: ColourPalette, format: PixelFormat,
                                  at origin: (x: Int, y: Int) = (0, 0), onWidth width: Int? = nil, height: Int? = nil) -> ColourPicture {
        let glass = (width: width ?? roles.width, height: height ?? roles.height)
        guard let previous = last, self.palette == palette, previous.picture.format == format,
              previous.roles.width == roles.width, previous.roles.height == roles.height,
              previous.picture.width == glass.width, previous.picture.height == glass.height, previous.origin == origin else {
            let moved = last.map { self.palette == palette && $0.roles == roles } ?? false
            if !moved { contentChanges += 1 }
            let picture: ColourPicture
            if glass == (roles.width, roles.height) {
                picture = palette.picture(roles, format: format)
            } else {
                var placed = ColourPicture(width: glass.width, height: glass.height, format: format)
                placed.redraw((0..<roles.height).lazy.map { RowStretch(row: $0, first: 0, last: roles.width - 1) }, from: roles, at: origin, lookup: palette.cachedLookup(format))
                picture = placed
            }
            self.palette = palette
            last = Frame(roles: roles, picture: picture, origin: origin, changes: nil)
            older = nil
            spare = nil
            return picture
        }
        let changes = previous.roles.changes(to: roles)
        // Nothing changed: the same picture, which everyone holding it compares at a glance.
        guard !changes.isEmpty else {
            spare = roles
            return previous.picture
        }
        contentChanges += 1
        let lookup = palette.cachedLookup(format)
        var picture: ColourPicture
        if let since = previous.changes, let before = older {
            // Let go of here first, so that the buffer is this frame's own unless someone else
            // still holds that picture.
            picture = before
            older = nil
            picture.redraw(Self.union(since, changes), from: roles, at: origin, lookup: lookup)
        } else {
            picture = previous.picture
            picture.redraw(changes, from: roles, at: origin, lookup: lookup)
        }
        let damaged = origin == (0, 0) ? changes : changes.map { RowStretch(row: $0.row + origin.y, first: $0.first + origin.x, last: $0.last + origin.x) }
        picture.damage = PictureDamage(base: previous.picture.generation, rows: damaged)
        older = previous.picture
        spare = previous.roles
        last = Frame(roles: roles, picture: picture, origin: origin, changes: changes)
        return picture
    }

    /// The stretches of `a` and `b` (each top to bottom, one a row) together, one a row.
    static func union(_ a: [RowStretch], _ b: [RowStretch]) -> [RowStretch] {
        var out: [RowStretch] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || i < a.count && a[i].row < b[j].row {
                out.append(a[i])
                i += 1
            } else if i == a.count || b[j].row < a[i].row {
                out.append(b[j])
                j += 1
            } else {
                out.append(RowStretch(row: a[i].row, first: min(a[i].first, b[j].first), last: max(a[i].last, b[j].last)))
                i += 1
                j += 1
            }
        }
        return out
    }
}
