import HeadwayCore

extension Job {
    /// Reports each value `values` yields, of `total` (the job's total, else 1), as it yields it
    /// (the latest wins: a fast sequence costs the service no more than a slow one); finishes the
    /// job as succeeded when the sequence ends, as failed when it throws (and throws that error
    /// on), and leaves it running when the task is cancelled.
    ///
    /// - Throws: a ``/HeadwayCore/ProgressError`` for a value the service would refuse (nothing is sent), or
    ///   what the sequence threw.
    public func follow<Values: AsyncSequence>(_ values: Values, total: Double? = nil) async throws where Values.Element == Double {
        do {
            for try await value in values { try update(value: value, total: total) }
        } catch let error as ProgressError {
            throw error
        } catch {
            try? await finish(.failed)
            throw error
        }
        if Task.isCancelled { return }
        try await finish(.succeeded)
    }
}
