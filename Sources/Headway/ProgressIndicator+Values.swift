extension ProgressIndicator {
    /// Reports each value `values` yields, of `total` (the total known, else 1), as it yields it;
    /// finishes the job as succeeded when the sequence ends, as failed when it throws (and
    /// throws that error on), and leaves it running when the task is cancelled.
    ///
    /// - Throws: a ``/HeadwayCore/ProgressError`` for a value the job refuses (the job is left as it was), or
    ///   what the sequence threw.
    public func follow<Values: AsyncSequence>(_ values: Values, total: Double? = nil) async throws where Values.Element == Double {
        do {
            for try await value in values { try update(value: value, total: total) }
        } catch let error as ProgressError {
            throw error
        } catch {
            try? finish(.failed)
            throw error
        }
        if Task.isCancelled { return }
        try finish(.succeeded)
    }
}
