/// `value` rounded to `decimals` places (0…6), without exponent notation.
public func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(scaled) }
    let fraction = String(scaled % scale)
    return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// `value` in lower-case hex, zero-padded to `digits`: as evemu and `lsusb` write ids.
public func hex(_ value: UInt16, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
