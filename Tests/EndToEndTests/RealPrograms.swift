import Testing

/// Journeys against real programs and servers that run for seconds each, one test at a time in
/// each of three chains that share nothing: the tools `headway run` reads and the CI servers
/// headway-ci follows (each on data or a server of its own); OctoPrint with its Virtual Printer;
/// Moonraker and Home Assistant (the mixed sources use both). A test of a chain blocks a thread
/// while its processes run, mostly waiting on them, so a test process holds one chain beside its
/// timing-sensitive and asynchronous suites: in a full run Scripts/test gives the printers' and
/// Home Assistant's chains a test process of their own.
@Suite("Real programs, end to end: tools and CI servers", .serialized)
enum RealPrograms {}

/// OctoPrint and its Virtual Printer, one print at a time.
@Suite("Real programs, end to end: OctoPrint", .serialized)
enum RealPrinter {}

/// Moonraker (with the Klippy stand-in) and Home Assistant, one job at a time on each.
@Suite("Real programs, end to end: Moonraker and Home Assistant", .serialized)
enum RealHome {}
