import HeadwayCore

/// A cctray feed (`cc.xml`) as https://cctray.org/v1/ describes it: one `<Projects>` root holding
/// `<Project>` elements whose attributes say everything (`name`, `activity`, `lastBuildStatus`,
/// `lastBuildLabel`, `lastBuildTime`, `webUrl`). Read by a small scanner of its own (no XML
/// library): it finds each `<Project …>` start tag and reads its attributes, skipping comments,
/// declarations and other elements. It never traps and never holds more than the text it is given;
/// anything that is not a well-formed attribute list ends the feed with an error.
public enum CCTrayFeed {
    public struct Project: Sendable, Equatable {
        public var attributes: [String: String]
        public subscript(name: String) -> String? { attributes[name] }
    }

    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public var offset: Int
        public var problem: String
        /// The problem quotes the feed's own names (a tag, an attribute, an entity): made safe to
        /// show, as everything a server sends is.
        public var description: String {
            "not a cctray feed at byte \(offset): \(DisplayText.truncated(DisplayText.sanitised(problem), maxBytes: 200))"
        }
    }

    /// More projects than any CI server lists; past it the feed is refused.
    public static let maxProjects = 5000

    public static func projects(in bytes: [UInt8]) throws(Malformed) -> [Project] {
        var scanner = Scanner(bytes: bytes)
        var projects: [Project] = []
        var sawRoot = false
        while let tag = try scanner.nextStartTag() {
            if tag.name == "Projects" { sawRoot = true }
            guard tag.name == "Project" else { continue }
            projects.append(Project(attributes: tag.attributes))
            guard projects.count <= maxProjects else { throw Malformed(offset: scanner.index, problem: "more than \(maxProjects) projects") }
        }
        guard sawRoot else { throw Malformed(offset: 0, problem: "no <Projects> element (is the address the feed's, e.g. …/cc.xml?)") }
        return projects
    }

    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        func malformed(_ problem: String) -> Malformed { Malformed(offset: index, problem: problem) }

        /// The next start (or empty-element) tag, or nil at the end of the text.
        mutating func nextStartTag() throws(Malformed) -> Tag? {
            while true {
                guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
                index = open + 1
                if starts(with: "!--") {
                    guard let end = find("-->") else { throw malformed("a comment is not closed") }
                    index = end + 3
                    continue
                }
                if starts(with: "![CDATA[") {
                    guard let end = find("]]>") else { throw malformed("a CDATA section is not closed") }
                    index = end + 3
                    continue
                }
                if starts(with: "?") || starts(with: "!") || starts(with: "/") {
                    guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { throw malformed("a tag is not closed") }
                    index = end + 1
                    continue
                }
                return try tag()
            }
        }

        private func starts(with text: StaticString) -> Bool {
            let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            return index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
        }

        private func find(_ text: StaticString) -> Int? {
            let pattern = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            var at = index
            while at + pattern.count <= bytes.count {
                if bytes[at..<at + pattern.count].elementsEqual(pattern) { return at }
                at += 1
            }
            return nil
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        private static func isNameByte(_ byte: UInt8) -> Bool {
            !isSpace(byte) && byte != UInt8(ascii: "=") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "/")
                && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "<")
        }

        private mutating func skipSpace() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        private mutating func name() -> String {
            let start = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func tag() throws(Malformed) -> Tag {
            let tagName = name()
            guard !tagName.isEmpty else { throw malformed("a tag without a name") }
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard index < bytes.count else { throw malformed("the <\(tagName)> tag is not closed") }
                if bytes[index] == UInt8(ascii: ">") {
                    index += 1
                    return Tag(name: tagName, attributes: attributes)
                }
                if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") {
                    index += 2
                    return Tag(name: tagName, attributes: attributes)
                }
                let attribute = name()
                guard !attribute.isEmpty else { throw malformed("expected an attribute in <\(tagName)>") }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw malformed("expected = after \(attribute)") }
                index += 1
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                    throw malformed("the value of \(attribute) is not quoted")
                }
                let quote = bytes[index]
                index += 1
                guard let end = bytes[index...].firstIndex(of: quote) else { throw malformed("the value of \(attribute) is not closed") }
                attributes[attribute] = try Self.decoded(bytes[index..<end], at: index)
                index = end + 1
            }
        }

        /// An attribute's text with XML's five entities and character references replaced.
        static func decoded(_ raw: ArraySlice<UInt8>, at offset: Int) throws(Malformed) -> String {
            guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
            var out = String.UnicodeScalarView()
            var rest = raw[...]
            while let amp = rest.firstIndex(of: UInt8(ascii: "&")) {
                out.append(contentsOf: String(decoding: rest[..<amp], as: UTF8.self).unicodeScalars)
                guard let semicolon = rest[amp...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                    throw Malformed(offset: offset, problem: "an & that starts no entity")
                }
                let entity = String(decoding: rest[(amp + 1)..<semicolon], as: UTF8.self)
                switch entity {
                case "amp": out.append("&")
                case "lt": out.append("<")
                case "gt": out.append(">")
                case "quot": out.append("\"")
                case "apos": out.append("'")
                default:
                    let number: UInt32? =
                        entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                    guard let number, let scalar = Unicode.Scalar(number) else {
                        throw Malformed(offset: offset, problem: "unknown entity &\(entity.prefix(10));")
                    }
                    out.append(scalar)
                }
                rest = rest[(semicolon + 1)...]
            }
            out.append(contentsOf: String(decoding: rest, as: UTF8.self).unicodeScalars)
            return String(out)
        }
    }
}
