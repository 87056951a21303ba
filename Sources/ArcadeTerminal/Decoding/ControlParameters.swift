/// The numeric parameters of one control sequence, read in place from the input bytes.
///
/// Fields are separated by `;` and sub-fields by `:` (`CSI 97;5:3u` has field 0 = 97 and
/// field 1 = 5 with sub-field 1 = 3). Reading scans the few bytes again on every call
/// instead of collecting the numbers, so decoding a sequence allocates nothing.
struct ControlParameters {
    /// The bytes being decoded.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the parameter bytes lie in `bytes` (after any private marker such as `<` or `?`).
    let range: Range<Int>

    /// Numbers beyond this are garbage from a broken stream; capping them keeps the
    /// arithmetic from overflowing.
    private static let largest = 9_999_999

    /// The number in `field`, sub-field `sub`; `nil` when it is absent or empty, which
    /// sequences use to mean "the default".
    func value(_ field: Int, _ sub: Int = 0) -> Int? {
        var currentField = 0
        var currentSub = 0
        var number = 0
        var hasDigits = false
        for index in range {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if currentField == field && currentSub == sub {
                    number = min(number * 10 + Int(byte - UInt8(ascii: "0")), Self.largest)
                    hasDigits = true
                }
            case UInt8(ascii: ";"):
                if currentField == field && currentSub == sub { return hasDigits ? number : nil }
                currentField += 1
                currentSub = 0
            case UInt8(ascii: ":"):
                if currentField == field && currentSub == sub { return hasDigits ? number : nil }
                currentSub += 1
            default:
                break  // stray private-use bytes inside the parameters carry no number
            }
        }
        return currentField == field && currentSub == sub && hasDigits ? number : nil
    }

    /// How many `;`-separated fields there are (an empty parameter string has none).
    var fieldCount: Int {
        if range.isEmpty { return 0 }
        var count = 1
        for index in range where bytes[index] == UInt8(ascii: ";") { count += 1 }
        return count
    }
}
