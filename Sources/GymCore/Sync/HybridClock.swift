import Foundation

/// A hybrid logical clock (Kulkarni et al., 2014): milliseconds since 1970 in the high 48 bits,
/// a counter in the low 16. A new reading is after the wall clock and after every reading this
/// device has seen, its own or another's, so a device whose clock runs behind still orders its
/// writes after what it has already applied, and every device sorts all writes the same way.
public enum HybridClock {
  /// The reading for a write at `now`, after `latest` (the latest reading seen, if any).
  public static func next(after latest: Int64?, now: Date) -> Int64 {
    let milliseconds = Int64(max(0, min(now.timeIntervalSince1970 * 1000, 281_474_976_710_655)))
    let physical = milliseconds << 16
    guard let latest, latest >= physical else { return physical }
    return latest + 1
  }

  /// The wall-clock time a reading was taken at (or pushed to by a later one it follows).
  public static func date(_ reading: Int64) -> Date {
    Date(timeIntervalSince1970: Double(reading >> 16) / 1000)
  }
}
