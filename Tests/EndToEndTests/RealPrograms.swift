import Testing

/// Journeys against real programs and servers that run for seconds each — the tools `headway run`
/// reads (each on data it makes, with a service of its own, throttled rather than made to work
/// hard) and CI servers followed by headway-ci (the CI server fixture, a real Buildbot) — one at a
/// time, beside the "End to end" suites rather than after them. The machine's two cores carry two
/// such chains: one test of this chain at a time blocks a thread while its processes run, so the
/// timing-sensitive end-to-end tests and the asynchronous client tests beside it keep theirs.
@Suite("Real programs, end to end", .serialized)
enum RealPrograms {}
