import Foundation
import GymCore
import Testing

/// The two pieces of sync that are pure arithmetic: keys that mean the same row everywhere, and the
/// hybrid logical clock that orders every device's writes the same way.
@Suite struct SyncClockAndKeyTests {
  /// Known answers from the definition, computed apart with Python:
  /// `int.from_bytes(hashlib.sha256(b'grocery_item\0milk\0').digest()[:8], 'big') & (2**53 - 1)`.
  @Test func derivedKeysFollowTheirDefinition() {
    #expect(GlobalKey.derived("grocery_item", "milk") == 2_852_457_989_480_797)
    // The parts are separated: ("ab", "c") and ("a", "bc") are different records.
    #expect(GlobalKey.derived("ab", "c") != GlobalKey.derived("a", "bc"))
    for _ in 0..<1000 {
      let key = GlobalKey.random()
      #expect(key >= 1 && key < 1 << 53)
    }
  }

  @Test func theClockFollowsTheWallAndNeverGoesBack() {
    let now = Date(timeIntervalSince1970: 1_800_000_000.25)
    // 1,800,000,000,250 ms, shifted 16 bits: 1_800_000_000_250 × 65,536.
    let physical: Int64 = 1_800_000_000_250 * 65_536
    #expect(HybridClock.next(after: nil, now: now) == physical)
    #expect(HybridClock.next(after: physical - 1, now: now) == physical)
    // A reading from a device whose clock runs ahead: the next one follows it by one.
    let ahead = physical + 5_000 * 65_536
    #expect(HybridClock.next(after: ahead, now: now) == ahead + 1)
    #expect(HybridClock.date(physical) == now)
  }
}
