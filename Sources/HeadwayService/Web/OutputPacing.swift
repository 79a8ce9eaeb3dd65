import Headway

/// When each output's new frames go to the pages: a frame as soon as it is drawn, but for each
/// output at most one every ``period`` (a 50 fps strip is sent 25 times a second, the frame it
/// drew last), and the frames of one moment together. Outputs draw on clocks of their own, a few
/// milliseconds apart; every event costs its framing, which for frames of a few changed bytes is
/// most of what is sent. So a frame held back by the period goes along with others once its
/// period is nearly over, and frames due out wait for an output about to draw (at most
/// ``gather``).
struct OutputPacing {
    /// Each output's frames go out at most this often (WLED's live view: 40 ms).
    static let period: Seconds = 0.04
    /// How long frames due out wait for an output about to draw.
    static let gather: Seconds = 0.005

    /// Each output's version as last sent, and when.
    private var sent: [UInt64?]
    private var sentAt: [Seconds]
    /// Whether the frames due out are waiting for an output about to draw.
    private var gathering = false

    /// Outputs whose frames in `versions` the pages hold already.
    init(versions: [UInt64?], at now: Seconds) {
        sent = versions
        sentAt = Array(repeating: now, count: versions.count)
    }

    /// Which outputs' frames go out now, given each output's frame version and when it draws
    /// next, and when to look again for those held back (nil: none is).
    mutating func due(versions: [UInt64?], nextFrames: [Seconds], at now: Seconds) -> (send: [Int], lookAgain: Seconds?) {
        var ready: [Int] = []
        var held: [(index: Int, due: Seconds)] = []
        for index in versions.indices where index < sent.count {
            guard let version = versions[index], version != sent[index] else { continue }
            // Compared as the time it is due, the very number handed back to look again at.
            let due = sentAt[index] + Self.period
            if now >= due { ready.append(index) } else { held.append((index, due)) }
        }
        var lookAgain: Seconds?
        for (index, due) in held {
            if !ready.isEmpty, due - now <= Self.period / 4 {
                ready.append(index)
            } else {
                lookAgain = min(lookAgain ?? due, due)
            }
        }
        if !ready.isEmpty, !gathering, let soon = nextFrames.filter({ $0 > now && $0 - now <= Self.gather }).max() {
            gathering = true
            return ([], min(lookAgain ?? soon, soon))
        }
        gathering = false
        for index in ready {
            sent[index] = versions[index]
            sentAt[index] = now
        }
        return (ready.sorted(), lookAgain)
    }
}
