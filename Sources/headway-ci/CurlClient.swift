import CCurl
import HeadwayCI
import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// The HTTP client: libcurl, loaded on demand through the CCurl shim (as libmosquitto is for
/// MQTT), driven by one loop for every source.
///
/// Why libcurl: it is the most widely used, best kept HTTP client there is, packaged by Debian for
/// both architectures (libcurl4, libcurl4t64 on Debian 13) and already on most systems, so it costs
/// the package nothing but a dependency; it reads `http_proxy`, `https_proxy` and `no_proxy` as
/// every tool does, trusts the system's CA store, reuses connections (HTTP/2 where the server
/// speaks it) and does gzip. swift-server's AsyncHTTPClient would bring SwiftNIO and its TLS: minutes
/// more for each of CI's builds (debug, Debian 13's Swift, sanitizers, two release packages),
/// megabytes more in the package, and no proxy settings from the environment. Writing HTTP or TLS
/// here was never an option.
final class CurlClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The largest answer taken; a larger one is refused as it arrives, never held whole.
    static let maxBody = 8 << 20
    static let connectTimeout = 10.0
    static let maxRedirects = 5

    private let handle: OpaquePointer
    /// Seconds a transfer may take, its answer included.
    let timeout: Double

    /// A client trusting the system's CA store, and `caFile`'s certificates besides when given.
    init(caFile: String?, timeout: Double) throws(Failure) {
        self.timeout = timeout
        guard hw_http_load() == 0 else {
            throw Failure(description: "headway-ci needs libcurl (sudo apt install libcurl4): \(String(cString: hw_http_load_error()))")
        }
        guard let handle = hw_http_new() else { throw Failure(description: "cannot make an HTTP client (out of memory?)") }
        self.handle = handle
        if let caFile {
            guard let extra = Files.read(caFile), String(decoding: extra, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                throw Failure(description: "cannot read a PEM certificate from \(caFile) (--ca-file)")
            }
            // libcurl takes one CA store per transfer: the system's bundle and the added CA are
            // given together, so that the CA is added, not put in the system's place.
            let system = Self.systemBundle ?? []
            var blob = system
            if !blob.isEmpty, blob.last != 0x0A { blob.append(0x0A) }
            blob += extra
            _ = blob.withUnsafeBytes { hw_http_set_ca(handle, $0.baseAddress, $0.count) }
        }
    }

    deinit { hw_http_destroy(handle) }

    /// The system's CA bundle: where libcurl was built to look, else Debian's.
    private static var systemBundle: [UInt8]? {
        var paths = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"]
        if let built = hw_http_default_ca_file() { paths.insert(String(cString: built), at: 0) }
        for path in paths { if let bytes = Files.read(path) { return bytes } }
        return nil
    }

    static var version: String { String(cString: hw_http_version()) }

    /// Starts the request (a GET, or a command's POST); false when libcurl refused it (the tag's
    /// result will not come).
    func get(_ request: HTTPRequest, tag: UInt64) -> Bool {
        // The header lines, each ended by a NUL, in one buffer that outlives the call (libcurl
        // copies them when the transfer is added).
        var storage: [CChar] = []
        var offsets: [Int] = []
        for line in request.headers {
            offsets.append(storage.count)
            storage += line.utf8CString
        }
        let code = storage.withUnsafeBufferPointer { buffer in
            let lines: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return lines.withUnsafeBufferPointer { headers in
                request.body.withUnsafeBytes { body in
                    let connect = Int(min(Self.connectTimeout, timeout) * 1000), whole = Int(timeout * 1000)
                    // A POST (a printer's command) is sent once, where it was aimed: never redirected.
                    return request.method == .post
                        ? hw_http_post(handle, tag, request.url, headers.baseAddress, Int32(headers.count), body.baseAddress, Int64(body.count), Int64(Self.maxBody), connect, whole)
                        : hw_http_get(handle, tag, request.url, headers.baseAddress, Int32(headers.count), Int64(Self.maxBody), connect, whole, Self.maxRedirects)
                }
            }
        }
        return code == 0
    }

    /// Waits up to `timeout` seconds for the transfers or `descriptors` (readable, or with room to
    /// send where `send`); returns which of `descriptors` are ready.
    func poll(timeout: Double, descriptors: [(descriptor: Int32, send: Bool)]) -> [Bool] {
        var ready = [Int32](repeating: 0, count: descriptors.count)
        let fds = descriptors.map(\.descriptor), sending = descriptors.map { Int32($0.send ? 1 : 0) }
        let milliseconds = Int32(max(0, min(timeout, 60)) * 1000)
        _ = hw_http_poll(handle, milliseconds, fds, sending, &ready, Int32(fds.count))
        return ready.map { $0 != 0 }
    }

    /// Starts a connection to `url`'s host (http or https) for a WebSocket; false when libcurl
    /// refused it. Its result comes from ``finished(hosts:)`` with the connection.
    func connect(_ url: String, tag: UInt64) -> Bool {
        hw_http_connect(handle, tag, url, Int(min(Self.connectTimeout, timeout) * 1000)) == 0
    }

    /// The transfers and connections finished since the last call: their tag and what came (a
    /// connection's result is a 200 without a body).
    func finished(hosts: (UInt64) -> String) -> [(tag: UInt64, result: Result<HTTPResponse, HTTPFailure>, connection: CurlConnection?)] {
        var out: [(UInt64, Result<HTTPResponse, HTTPFailure>, CurlConnection?)] = []
        while let pointer = hw_http_next(handle) {
            let r = pointer.pointee
            let host = hosts(r.tag)
            let error = withUnsafeBytes(of: r.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let connection = r.connection {
                out.append((r.tag, .success(HTTPResponse(status: 200)), CurlConnection(connection)))
            } else if r.too_large != 0 || r.code == 63 {
                out.append((r.tag, .failure(.tooLarge(host: host, limit: Self.maxBody)), nil))
            } else if r.code != 0 {
                out.append((r.tag, .failure(Self.failure(code: r.code, host: host, detail: error, timeout: timeout)), nil))
            } else {
                let headers = r.headers.map { String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: r.headers_length), as: UTF8.self) } ?? ""
                let body = r.body.map { Array(UnsafeBufferPointer(start: $0, count: r.body_length)) } ?? []
                out.append((r.tag, .success(HTTPResponse(status: Int(r.status), headers: HTTPHeaders(lines: headers), body: body)), nil))
            }
            hw_http_result_free(pointer)
        }
        return out
    }

    /// libcurl's error codes (curl/curl.h's CURLcode) by what they mean for a user.
    static func failure(code: Int32, host: String, detail: String, timeout: Double) -> HTTPFailure {
        let detail = DisplayText.sanitised(detail)
        switch code {
        case 5, 6: return .resolve(host: host, detail: detail)
        case 7: return .connect(host: host, detail: detail)
        case 28: return .timeout(host: host, seconds: timeout)
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: return .tls(host: host, detail: detail)
        case 47: return .redirects(host: host, limit: maxRedirects)
        default: return .other(host: host, detail: detail)
        }
    }
}

/// A connection libcurl made (TCP, TLS for https) over which headway-ci speaks a WebSocket:
/// bytes out and in, never blocking.
final class CurlConnection {
    private let pointer: OpaquePointer

    fileprivate init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { hw_http_connection_close(pointer) }

    /// The socket to wait on for reading.
    var socket: Int32 { hw_http_connection_socket(pointer) }

    enum Received {
        case bytes([UInt8])
        /// Nothing has arrived.
        case nothing
        /// The server closed the connection.
        case closed
        case failed(String)
    }

    /// What has arrived, at most `limit` bytes.
    func receive(limit: Int = 65536) -> Received {
        var buffer = [UInt8](repeating: 0, count: limit)
        var count = 0
        let code = buffer.withUnsafeMutableBytes { hw_http_connection_receive(pointer, $0.baseAddress, limit, &count) }
        switch code {
        case 0: return count == 0 ? .closed : .bytes(Array(buffer.prefix(count)))
        case Self.again: return .nothing
        default: return .failed(String(cString: hw_http_strerror(code)))
        }
    }

    /// Sends what the socket takes now of `bytes`: how many it took, or why it failed.
    func send(_ bytes: ArraySlice<UInt8>) -> Result<Int, CurlClient.Failure> {
        var sent = 0
        let code = bytes.withUnsafeBytes { hw_http_connection_send(pointer, $0.baseAddress, $0.count, &sent) }
        switch code {
        case 0, Self.again: return .success(sent)
        default: return .failure(CurlClient.Failure(description: String(cString: hw_http_strerror(code))))
        }
    }

    /// CURLE_AGAIN: nothing to read, or no room to send, now.
    private static let again: Int32 = 81
}
