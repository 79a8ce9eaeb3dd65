import HeadwayCore

/// Reading a request's members, each refusal naming its field. Public so that programs adding
/// operations of their own around the service (the simulator) check lines the same way.
public struct RequestFields {
    /// The request line, read as JSON.
    public let json: JSONValue

    /// The members of `json`.
    public init(json: JSONValue) { self.json = json }

    /// The line as a JSON object with a supported `"v"`.
    public static func object(_ line: String) throws(ProtocolError) -> JSONValue {
        guard line.utf8.count <= WireProtocol.maxLineBytes else {
            throw ProtocolError(.lineTooLong, field: nil, "the line is \(line.utf8.count) bytes; the limit is \(WireProtocol.maxLineBytes)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw ProtocolError(.malformed, field: nil, "\(error)") }
        guard case .object = json else { throw ProtocolError(.malformed, field: nil, "a request is a JSON object, e.g. {\"v\":1,\"op\":\"status\"}") }
        guard let version = json["v"] else { throw ProtocolError(.unsupportedVersion, field: "v", "missing; this service speaks version \(WireProtocol.version)") }
        guard version.number == Double(WireProtocol.version) else {
            throw ProtocolError(.unsupportedVersion, field: "v", "version \(DisplayText.sanitised(String(version.text.prefix(20)))) is not supported; this service speaks version \(WireProtocol.version)")
        }
        return json
    }

    /// The `op` member.
    public func operation() throws(ProtocolError) -> String {
        guard let op = json["op"]?.string else { throw ProtocolError(.unknownOperation, field: "op", "missing or not a string; one of \(Request.operations)") }
        return op
    }

    /// The `job` member: an ``Identifier`` of 1…128 bytes.
    public func job() throws(ProtocolError) -> String {
        guard let job = json["job"]?.string else { throw ProtocolError(.invalidMember, field: "job", "missing or not a string") }
        try Identifier.check(job, field: "job")
        return job
    }

    /// The `label` member, made safe to show and cut to ``WireProtocol/maxLabelBytes`` (never refused
    /// for its length).
    public func label(required: Bool) throws(ProtocolError) -> String? {
        guard let value = json["label"] else {
            if required { throw ProtocolError(.invalidMember, field: "label", "missing") }
            return nil
        }
        guard let label = value.string else { throw ProtocolError(.invalidMember, field: "label", "must be a string") }
        return DisplayText.truncated(DisplayText.sanitised(label), maxBytes: WireProtocol.maxLabelBytes)
    }

    /// A number member: finite, and greater than 0 (`positive`) or at least 0.
    public func number(_ field: String, required: Bool, positive: Bool) throws(ProtocolError) -> Double? {
        guard let value = json[field] else {
            if required { throw ProtocolError(.invalidMember, field: field, "missing") }
            return nil
        }
        guard let number = value.number else { throw ProtocolError(.invalidMember, field: field, "must be a number, not \(DisplayText.sanitised(String(value.text.prefix(40))))") }
        if positive, number <= 0 { throw ProtocolError(.outOfRange, field: field, "must be greater than 0, not \(JSONValue.format(number))") }
        if !positive, number < 0 { throw ProtocolError(.outOfRange, field: field, "must be 0 or more, not \(JSONValue.format(number))") }
        return number
    }

    /// A string member (optional).
    public func string(_ field: String) throws(ProtocolError) -> String? {
        guard let value = json[field] else { return nil }
        guard let text = value.string else { throw ProtocolError(.invalidMember, field: field, "must be a string") }
        return text
    }

    /// A boolean member (optional).
    public func bool(_ field: String) throws(ProtocolError) -> Bool? {
        guard let value = json[field] else { return nil }
        guard let flag = value.bool else { throw ProtocolError(.invalidMember, field: field, "must be true or false") }
        return flag
    }
}
