/// `value` rounded to `decimals` places (0…6), without exponent notation. Magnitudes
/// beyond `fixedLimit` print as that limit (no measure reaches it; a speed over a
/// microsecond's frame can), NaN and infinities as 0: formatting never traps.
public func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    let decimals = min(6, max(0, decimals))
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64(saturating: (min(abs(value), fixedLimit) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// The largest magnitude `fixed` prints: a thousand kilometres in millimetres.
public let fixedLimit = 1e12

/// `value` in lower-case hex, zero-padded to `digits`: as evemu and `lsusb` write ids.
public func hex(_ value: UInt16, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// A string in double quotes as JSON and TOML both read it: quotes and backslashes
/// escaped, newlines, tabs and returns as \n, \t and \r, every other control character
/// (DEL too, which TOML requires) as \uXXXX.
public func doubleQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7f: out += "\\u" + hex(UInt16(scalar.value), digits: 4)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// Text from outside (a bus peer, a device's name) as one printable line: control
/// characters (escapes, newlines) written as `\u{1b}`, at most `limit` characters, cut
/// with "…". What a terminal or a log shows of it cannot be anything but text.
public func printable(_ text: String, limit: Int = 256) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        guard count < limit else { return out + "…" }
        count += 1
        let v = scalar.value
        if v < 0x20 || (0x7f...0x9f).contains(v) || v == 0x2028 || v == 0x2029 {
            out += "\\u{" + String(v, radix: 16) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
