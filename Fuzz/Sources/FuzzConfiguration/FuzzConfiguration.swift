import HeadwayService

/// Feeds `data` to the configuration loader as file contents. Any input must give a configuration
/// or a ConfigurationError quickly: a trap, a hang (libFuzzer's -timeout) or a memory error is a
/// finding.
/// Also exported under libFuzzer's name, which its own (unused) main refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start.map(UnsafeRawPointer.init), count: count)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    _ = try? ConfigurationLoader.parse(text, source: "fuzz.yaml")
    return 0
}
