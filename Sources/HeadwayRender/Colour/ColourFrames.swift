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
        /// What changed since the frame before; nil when that is not known (a first frame).
        var changes: [RowStretch]?
    }

    private var palette: ColourPalette?
    private var last: Frame?
    /// The picture of the frame before the last, which differs from the last's in its changes.
    private var older: ColourPicture?
    /// The role map of the frame before the last, to draw the next frame on.
    private var spare: RoleMap?

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

    /// `roles` in `palette`'s colours in `format`, drawn over the frames before where they allow.
    package mutating func picture(of roles: RoleMap, palette: ColourPalette, format: PixelFormat) -> ColourPicture {
        guard let previous = last, self.palette == palette, previous.picture.format == format,
              previous.roles.width == roles.width, previous.roles.height == roles.height else {
            let picture = palette.picture(roles, format: format)
            self.palette = palette
            last = Frame(roles: roles, picture: picture, changes: nil)
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
        let lookup = palette.cachedLookup(format)
        var picture: ColourPicture
        if let since = previous.changes, let before = older {
            // Let go of here first, so that the buffer is this frame's own unless someone else
            // still holds that picture.
            picture = before
            older = nil
            picture.redraw(Self.union(since, changes), from: roles, lookup: lookup)
        } else {
            picture = previous.picture
            picture.redraw(changes, from: roles, lookup: lookup)
        }
        picture.damage = PictureDamage(base: previous.picture.generation, rows: changes)
        older = previous.picture
        spare = previous.roles
        last = Frame(roles: roles, picture: picture, changes: changes)
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
