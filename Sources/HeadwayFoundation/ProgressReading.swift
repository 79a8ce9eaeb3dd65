import Foundation

/// One look at a `Foundation.Progress`: what it says now, in the terms an indicator takes.
///
/// What Foundation's `Progress` does on Linux (swift-corelibs-foundation,
/// Sources/Foundation/Progress.swift, and measured with Swift 6.3.1 and 6.0.3; the tests check it):
/// - `fractionCompleted` counts the children's work (a child made with
///   `Progress(totalUnitCount:parent:pendingUnitCount:)`, or implicitly under `becomeCurrent`)
///   in proportion to their pending unit counts; `completedUnitCount` does not, until a child
///   finishes and its pending units are added. It is not clamped: 7 of 5 reads 1.4.
/// - `isIndeterminate` is true while `totalUnitCount` or `completedUnitCount` is below 0, and
///   also for a total of 0 (the default of `Progress(parent:userInfo:)`).
/// - `isFinished` is true once `completedUnitCount` reaches the total (never for an
///   indeterminate progress); `cancel()` sets `isCancelled` on the progress and its children,
///   and `isFinished` stays false.
/// - `localizedDescription` and `localizedAdditionalDescription` are always empty (not
///   implemented there), so on Linux the label comes from the caller; on Apple's platforms the
///   progress's own text is used when it has one.
/// - `isCancellable` is false by default (Apple's documentation says true), so it is not
///   consulted: a cancel from a button always cancels the progress.
struct ProgressReading: Equatable {
    /// Units done of ``total``, counting the children's work; nil while indeterminate.
    var value: Double?
    var total: Double
    var isFinished: Bool
    var isCancelled: Bool
    var isPaused: Bool
    var isPausable: Bool
    /// The progress's own description, when it has one.
    var label: String?
    var detail: String?

    init(_ progress: Progress) {
        let units = progress.totalUnitCount
        if progress.isIndeterminate || units <= 0 {
            value = nil
            total = 1
        } else {
            total = Double(units)
            value = min(max(progress.fractionCompleted, 0), 1) * total
        }
        isFinished = progress.isFinished || (value != nil && progress.fractionCompleted >= 1)
        isCancelled = progress.isCancelled
        isPaused = progress.isPaused
        isPausable = progress.isPausable
        label = progress.localizedDescription.flatMap { $0.isEmpty ? nil : $0 }
        detail = progress.localizedAdditionalDescription.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// How long to wait between two looks at a progress. swift-corelibs-foundation has no key-value
/// observing, so a `Progress` cannot say when it changes: it is looked at (a few reads under its
/// lock, microseconds) ten times a second by default — as often as an indicator's eased fill
/// (0.6 s) can show a difference — and only what changed is reported.
public let defaultProgressLookInterval = Duration.milliseconds(100)
