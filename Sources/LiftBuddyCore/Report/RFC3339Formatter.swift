/// Unix seconds to RFC 3339 UTC with milliseconds (`2026-01-05T10:00:12.345Z`).
///
/// By hand, beside the parser in `RFC3339Timestamp`, so the report's bytes
/// depend on nothing but arithmetic (no locale, no calendar database). The
/// one formatter of the project: the recorder's `started_at` header uses it.
public enum RFC3339Formatter {
  /// RFC 3339 covers years 0000–9999; times outside (only reachable through
  /// absurd input: a row time of 1e16 s) are clamped to its ends instead of
  /// overflowing the arithmetic below.
  static let representable = -62_167_219_200.0...253_402_300_799.999

  public static func string(unixSeconds: Double) -> String {
    let clamped =
      unixSeconds.isNaN
      ? 0 : min(max(unixSeconds, representable.lowerBound), representable.upperBound)
    let millisTotal = Int64((clamped * 1000).rounded())
    var days = millisTotal >= 0 ? millisTotal / 86_400_000 : (millisTotal - 86_399_999) / 86_400_000
    let msOfDay = millisTotal - days * 86_400_000
    let (y, m, d) = civil(fromDays: &days)
    let h = msOfDay / 3_600_000
    let mi = (msOfDay / 60_000) % 60
    let s = (msOfDay / 1000) % 60
    let ms = msOfDay % 1000
    return
      "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2)).\(pad(ms, 3))Z"
  }

  /// `20260105T100012Z`: the same instant, to the second, for ids and file names.
  static func compact(unixSeconds: Double) -> String {
    let full = string(unixSeconds: unixSeconds.rounded(.down))
    return full.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
  }

  /// Howard Hinnant's days-from-civil inverse (public domain algorithm).
  private static func civil(fromDays days: inout Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  private static func pad(_ v: Int64, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }
}
