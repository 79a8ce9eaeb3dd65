import Testing

/// Journeys against real programs and servers that run for seconds each — CI servers followed by
/// headway-ci (the CI server fixture, a real Buildbot) and the tools `headway run` reads — one at a
/// time, beside the "End to end" suites rather than after them: two chains of tests that block
/// while their processes run, which the machine's two cores can carry.
@Suite("Real programs, end to end", .serialized)
enum RealPrograms {}
