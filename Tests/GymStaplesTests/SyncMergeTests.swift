import Foundation
import GRDB
import GymCLI
import GymCore
import Testing

@testable import GymStaples

/// Devices apart, then synced: each a database of its own, its writes recorded by the store, other
/// devices' changes integrated in the log's order (what `gym sync` does between the remote's
/// transfers). The pantry's commands make the changes.
@Suite struct SyncMergeTests {
  /// One device: a database whose log has begun.
  final class Device {
    let name: String
    let store: Store
    /// One clock for every device of a test: a lot bought later is added later, whichever device
    /// bought it (takings go to the oldest lot first).
    nonisolated(unsafe) static var clock: Int64 = 0

    init(_ name: String) throws {
      self.name = name
      let path = NSTemporaryDirectory() + "gym-sync-" + UUID().uuidString + "/gym.sqlite"
      store = try Store(path: path, modules: [staplesModule, syncModule])
      try store.writeSyncing { db in
        try ChangeLog.begin(db, device: name, tables: StaplesKeys.synced, now: Date())
      }
    }

    /// A distinct time for each write's own fields (added, usedAt): the order they were made in.
    func now() -> Timestamp {
      Self.lock.lock()
      defer { Self.lock.unlock() }
      Self.clock += 1
      return Timestamp(millisecondsSince1970: 1_800_000_000_000 + Self.clock * 1000)
    }
    static let lock = NSLock()

    /// Pulls every change `remote` holds that this log lacks, then publishes this device's own.
    @discardableResult
    func sync(_ remote: Remote, publishing: Bool = true) throws -> ChangeLog.Integration {
      var wanted: [ChangeLog.Entry] = []
      for (device, entries) in remote.published where device != name {
        let have = try store.read { try ChangeLog.sequences($0, device: device) }
        wanted += entries.filter { !have.contains($0.seq) }
      }
      let result = try store.writeSyncing { db in try ChangeLog.integrate(db, wanted, tables: StaplesKeys.synced) }
      guard publishing else { return result }
      for entry in try store.read({ try ChangeLog.unpushed($0, device: name) }) {
        remote.published[name, default: []].append(entry)
        try store.writeSyncing { try ChangeLog.markPushed($0, device: name, through: entry.seq) }
      }
      return result
    }

    /// Every synced row, keys and all, in a fixed order: two devices with the same records print the same.
    func contents() throws -> String {
      try store.read { db in
        let queries = [
          "SELECT seq, name, category, isStaple, unit, minStock, notes, dateCreated FROM grocery_item ORDER BY seq",
          "SELECT seq, itemSeq, round(amount, 9), bestBefore, location, opened, added FROM stock_lot ORDER BY seq",
          "SELECT seq, name, usageCount, lastUsed, isFavorite, servings, notes FROM recipe ORDER BY seq",
          "SELECT seq, recipeSeq, itemSeq, amount, unit FROM recipe_ingredient ORDER BY seq",
          "SELECT seq, itemSeq, fromAmount, fromUnit, toAmount, toUnit FROM item_conversion ORDER BY seq",
          "SELECT seq, recipeSeq, cookedAt, servings, shortfall FROM cooking ORDER BY seq",
          "SELECT seq, itemSeq, amount, usedAt, spoiled, cookingSeq FROM stock_use ORDER BY seq",
        ]
        return try queries.map { sql in
          try Row.fetchAll(db, sql: sql).map(\.description).joined(separator: "\n")
        }.joined(separator: "\n--\n")
      }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T { try store.write(body) }

    func total(_ item: String) throws -> Double {
      try store.read { db in
        try Double.fetchOne(
          db, sql: "SELECT total(amount) FROM stock_lot JOIN grocery_item g ON g.seq = itemSeq WHERE g.name = ?",
          arguments: [item]) ?? 0
      }
    }
  }

  /// The remote: every device's published changes.
  final class Remote { var published: [String: [ChangeLog.Entry]] = [:] }

  /// A generator that repeats from its seed, which a failure prints.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// A write and its record are one: a committed write adds one change to the log, a failed one
  /// neither; a write that commits on its own (a bulk load) cannot be recorded and is refused whole.
  @Test func everyWriteIsRecordedWithItsTransactionAndBulkWritesAreRefused() throws {
    let device = try Device("a")
    func logged() throws -> Int {
      try device.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_change") ?? 0 }
    }
    #expect(try logged() == 0)  // began on an empty pantry: nothing to record
    try device.write {
      try StaplesWrites.upsertItem($0, name: "Milk", changes: ItemChanges(category: "Dairy"), now: device.now())
    }
    #expect(try logged() == 1)
    #expect(throws: GymError.self) {
      try device.write { db in
        try StaplesWrites.upsertItem(db, name: "Eggs", changes: ItemChanges(category: "Dairy"), now: device.now())
        throw GymError.usage("changed my mind")
      }
    }
    #expect(try logged() == 1)
    #expect(try device.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grocery_item") } == 1)
    // A read-only write records nothing.
    try device.write { _ = try Stock.item($0, named: "Milk") }
    #expect(try logged() == 1)
    let refused = #expect(throws: StoreError.self) {
      try device.store.writeWithoutTransaction { db in
        try db.inTransaction {
          try db.execute(
            sql: "INSERT INTO grocery_item (seq, name, category, dateCreated) VALUES (1, 'Tofu', 'Dairy', 'x')")
          return .commit
        }
      }
    }
    #expect(refused?.description.contains("could not be recorded") == true)
    #expect(try device.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grocery_item") } == 1)
    #expect(try logged() == 1)
  }

  /// A base stands for the run of the log every device holds, up to the earliest of their clocks;
  /// a new device adopting it and the changes after it holds what the others hold. A change made
  /// before the base on a device that never published (its clock readings before a change the base
  /// holds) gets new readings after it, and every device, the new one included, converges.
  @Test func aBaseStandsForWhatAllHoldAndALateChangeMovesAfterIt() throws {
    let remote = Remote()
    let (a, b, c) = (try Device("a"), try Device("b"), try Device("c"))
    func buy(_ device: Device, _ item: String, _ amount: Double) throws {
      try device.write { db in
        try StaplesWrites.upsertItem(
          db, name: item, changes: ItemChanges(category: "Pantry", unit: "u"), now: device.now())
        try Stock.add(
          db, item: StaplesKeys.item(item), amount: amount, bestBefore: nil, location: nil, now: device.now())
      }
    }
    try buy(a, "Milk", 2)  // a 1
    try a.sync(remote)
    try b.sync(remote)
    try c.sync(remote, publishing: false)
    try buy(c, "Milk", 5)  // c 1: never published before the base
    usleep(2_000)
    try buy(a, "Milk", 1)  // a 2: after c's in the log
    try a.sync(remote)
    try b.sync(remote)
    try c.sync(remote, publishing: false)  // holds a 1 and a 2
    // The markers of a and b (c never published: unknown to them): each device's run from 1 that
    // both hold, and the earlier of their latest clock readings.
    func run(_ device: Device, _ of: String) throws -> Int64 {
      let held = try device.store.read { try ChangeLog.sequences($0, device: of) }
      return Int64((0...).first { !held.contains(Int64($0 + 1)) }!)
    }
    let applied = ["a": min(try run(a, "a"), try run(b, "a")), "b": min(try run(a, "b"), try run(b, "b"))]
    let floor = try [a, b].map { try $0.store.read { try ChangeLog.latestClock($0) }! }.min()!
    let tables = StaplesKeys.synced
    let base = try #require(
      try a.store.writeSyncing { try SyncBase.make($0, floor: floor, applied: applied, tables: tables) })
    // a's two changes; b made none (it began on an empty pantry).
    #expect(base.covers == ["a": 2])
    #expect(base.changeset.isEmpty == false)
    // Making it changed nothing on a.
    #expect(try a.total("Milk") == 3)
    // c's change sorts before a 2, which the base holds: it moves after the base.
    let late = try c.store.read { try ChangeLog.unpushed($0, device: "c") }
    #expect(late.count == 1 && late[0].hlc < base.hlc)
    #expect(
      try c.store.writeSyncing {
        try SyncBase.retime($0, device: "c", after: 0, notAfter: base.hlc, now: Date(), tables: tables)
      }
        == 1)
    let moved = try c.store.read { try ChangeLog.unpushed($0, device: "c") }
    #expect(moved.count == 1 && moved[0].hlc > base.hlc && moved[0].changeset == late[0].changeset)
    #expect(try c.total("Milk") == 8)  // 2 + 5 + 1, replayed in the new order
    try c.sync(remote)
    // A new device: the base, then only what follows it.
    let d = try Device("d")
    try d.store.writeSyncing { db in
      try SyncBase.adopt(db, base)
      let after = remote.published.flatMap { device, entries in
        entries.filter { $0.seq > base.covers[device] ?? 0 && device != "d" }
      }
      _ = try ChangeLog.integrate(db, [base.entry] + after, tables: tables)
    }
    #expect(try d.store.read { try ChangeLog.sequences($0, device: "a") } == [1, 2])
    for device in [a, b, d] { try device.sync(remote) }
    let contents = try a.contents()
    for device in [b, c, d] { #expect(try device.contents() == contents) }
    #expect(try d.total("Milk") == 8)
  }

  @Test func theSameItemMadeOnTwoDevicesIsOneAndTheLaterEditWins() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write {
      try StaplesWrites.upsertItem($0, name: "Milk", changes: ItemChanges(category: "Dairy", unit: "l"), now: a.now())
    }
    try b.write {
      try StaplesWrites.upsertItem($0, name: "milk", changes: ItemChanges(category: "Fridge", unit: "l"), now: b.now())
    }
    try a.write { try StaplesWrites.setItem($0, name: "Milk", changes: ItemChanges(notes: "oat"), now: a.now()) }
    try b.write { try StaplesWrites.setItem($0, name: "milk", changes: ItemChanges(notes: "whole"), now: b.now()) }
    try a.sync(remote)
    try b.sync(remote)
    try a.sync(remote)
    #expect(try a.contents() == b.contents())
    let item = try a.store.read { try Row.fetchAll($0, sql: "SELECT name, category, notes FROM grocery_item") }
    // One item; b's creation (category) and b's note were the later writes.
    #expect(item.count == 1)
    #expect(item.first?["category"] as String? == "Fridge")
    #expect(item.first?["notes"] as String? == "whole")
  }

  /// Changes that touch different rows are applied together when that changes nothing; these are
  /// the orders where it would, each applied as in the log. A lot bought for an item removed before
  /// it and made again after it is deleted by the removal's rule on every device (the lot and the
  /// item are linked tables: never applied together).
  @Test func aLotOfAnItemRemovedAndMadeAgainFollowsTheRemoval() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write {
      try StaplesWrites.upsertItem($0, name: "Milk", changes: ItemChanges(category: "Dairy", unit: "l"), now: a.now())
    }
    try a.sync(remote)
    try b.sync(remote)
    // In clock order, a few milliseconds apart: a removes Milk, b buys 2 l of it, a makes it again.
    #expect(try a.write { try StaplesWrites.removeItem($0, name: "Milk") })
    usleep(3000)
    try b.write { db in
      try Stock.add(db, item: StaplesKeys.item("Milk"), amount: 2, bestBefore: nil, location: nil, now: b.now())
    }
    usleep(3000)
    try a.write {
      try StaplesWrites.upsertItem($0, name: "Milk", changes: ItemChanges(category: "Dairy", unit: "l"), now: a.now())
    }
    try b.sync(remote)
    try a.sync(remote)
    try b.sync(remote)
    #expect(try a.contents() == b.contents())
    // The lot pointed at a removed item when it was applied: deleted (CASCADE); Milk is there again.
    #expect(try a.total("Milk") == 0)
    #expect(try a.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM stock_lot") } == 0)
    #expect(try a.store.read { try String.fetchAll($0, sql: "SELECT name FROM grocery_item") } == ["Milk"])
  }

  /// A rename to a name another item holds is refused (the unique name) even when a later change
  /// frees the name: applied in the log's order, the rename meets the other item still there.
  @Test func aRenameToATakenNameIsRefusedWhateverFreesItLater() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write { db in
      for name in ["Oats", "Rice"] {
        try StaplesWrites.upsertItem(db, name: name, changes: ItemChanges(category: "Dry"), now: a.now())
      }
    }
    try a.sync(remote)
    try b.sync(remote)
    try a.write { try $0.execute(sql: "UPDATE grocery_item SET name = 'Wheat' WHERE name = 'Oats'") }
    usleep(3000)
    try b.write { try $0.execute(sql: "UPDATE grocery_item SET name = 'Wheat' WHERE name = 'Rice'") }
    usleep(3000)
    #expect(try a.write { try StaplesWrites.removeItem($0, name: "Wheat") })
    try b.sync(remote)
    try a.sync(remote)
    try b.sync(remote)
    #expect(try a.contents() == b.contents())
    // Oats became Wheat, then Rice's rename met Wheat (refused), then Wheat was removed: Rice stays.
    #expect(try a.store.read { try String.fetchAll($0, sql: "SELECT name FROM grocery_item") } == ["Rice"])
  }

  @Test func takingsFromOneLotAddUpAndCooksCount() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write { db in
      try StaplesWrites.upsertItem(
        db, name: "Eggs", changes: ItemChanges(category: "Dairy", quantity: 10, unit: "pcs"), now: a.now())
      try StaplesWrites.addRecipe(
        db, name: "Omelette", servings: 1, favorite: false, notes: nil,
        ingredients: [try IngredientSpec(parsing: "Eggs:3 pcs")], createMissing: false, now: a.now())
    }
    try a.sync(remote)
    try b.sync(remote)
    // Apart: a cooks (3 eggs) and takes 1; b cooks (3 eggs). One lot of 10: 10 − 3 − 1 − 3 = 3 left.
    try a.write { _ = try Cooking.cook($0, recipe: "Omelette", servings: nil, force: false, now: a.now()) }
    try a.write { db in
      let item = try #require(try Stock.item(db, named: "Eggs"))
      let taken = try Stock.take(db, item: item.seq, amount: 1)
      try Stock.recordUse(db, item: item.seq, amount: taken, spoiled: true, now: a.now())
    }
    try b.write { _ = try Cooking.cook($0, recipe: "Omelette", servings: nil, force: false, now: b.now()) }
    try b.sync(remote)
    try a.sync(remote)
    try b.sync(remote)
    #expect(try a.contents() == b.contents())
    #expect(try a.total("Eggs") == 3)
    #expect(try a.store.read { try Int.fetchOne($0, sql: "SELECT usageCount FROM recipe") } == 2)
    #expect(try a.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM cooking") } == 2)
    #expect(try a.store.read { try Double.fetchOne($0, sql: "SELECT total(amount) FROM stock_use") } == 7)
  }

  @Test func aDeleteWinsOverAnEditMadeApart() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write {
      try StaplesWrites.upsertItem(
        $0, name: "Basil", changes: ItemChanges(category: "Herbs", quantity: 2, unit: "pots"), now: a.now())
    }
    try a.sync(remote)
    try b.sync(remote)
    // b edits and buys after a deletes (later writes), and before a deletes: both ways, deleted.
    for deleteFirst in [true, false] {
      let (deleter, editor) = deleteFirst ? (a, b) : (b, a)
      if !deleteFirst {
        try a.write {
          try StaplesWrites.upsertItem(
            $0, name: "Basil", changes: ItemChanges(category: "Herbs", unit: "pots"), now: a.now())
        }
        try a.sync(remote)
        try b.sync(remote)
        try editor.write {
          try StaplesWrites.setItem($0, name: "Basil", changes: ItemChanges(notes: "edited first"), now: editor.now())
        }
      }
      #expect(try deleter.write { try StaplesWrites.removeItem($0, name: "Basil") })
      if deleteFirst {
        try editor.write { db in
          try StaplesWrites.setItem(db, name: "Basil", changes: ItemChanges(notes: "edited later"), now: editor.now())
          try Stock.add(
            db, item: StaplesKeys.item("Basil"), amount: 1, bestBefore: nil, location: nil, now: editor.now())
        }
      }
      try a.sync(remote)
      try b.sync(remote)
      try a.sync(remote)
      #expect(try a.contents() == b.contents())
      #expect(
        try a.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grocery_item WHERE name = 'Basil'") } == 0)
      #expect(try a.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM stock_lot") } == 0)
    }
  }

  /// What points at a record deleted apart follows its key's ON DELETE: a cooking of a removed
  /// recipe goes, its takings stay with no cooking (SET NULL), and an ingredient line of a removed
  /// item goes (RESTRICT, which the remove met nowhere on its own device).
  @Test func whatPointsAtARecordDeletedApartFollowsItsKey() throws {
    let remote = Remote()
    let (a, b) = (try Device("a"), try Device("b"))
    try a.write { db in
      try StaplesWrites.upsertItem(
        db, name: "Eggs", changes: ItemChanges(category: "Dairy", quantity: 12, unit: "pcs"), now: a.now())
      try StaplesWrites.upsertItem(
        db, name: "Chives", changes: ItemChanges(category: "Herbs", quantity: 1, unit: "bunch"), now: a.now())
      try StaplesWrites.addRecipe(
        db, name: "Omelette", servings: 1, favorite: false, notes: nil,
        ingredients: [try IngredientSpec(parsing: "Eggs:3 pcs")], createMissing: false, now: a.now())
    }
    try a.sync(remote)
    try b.sync(remote)
    // Apart: a removes the recipe and Chives; b cooks the recipe and adds Chives to it.
    #expect(try a.write { try StaplesWrites.removeRecipe($0, name: "Omelette") })
    #expect(try a.write { try StaplesWrites.removeItem($0, name: "Chives") })
    try b.write { db in
      try StaplesWrites.addRecipe(
        db, name: "Omelette", servings: nil, favorite: false, notes: nil,
        ingredients: [try IngredientSpec(parsing: "Chives:1 bunch")], createMissing: false, now: b.now())
    }
    try b.write { _ = try Cooking.cook($0, recipe: "Omelette", servings: nil, force: false, now: b.now()) }
    try b.sync(remote)
    try a.sync(remote)
    try b.sync(remote)
    #expect(try a.contents() == b.contents())
    // In the log's order: a removes the recipe (its Eggs line with it) and Chives (its lot with it);
    // then b's line (Omelette, Chives) points at two missing records: gone; then b's cooking points
    // at the missing recipe: gone, its takings kept without it (SET NULL), except Chives' (its item
    // is gone); the recipe's count is an edit of a deleted record: dropped; Eggs' lot goes 12 → 9.
    try a.store.read { db in
      #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe") == 0)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM recipe_ingredient") == 0)
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM cooking") == 0)
      #expect(try String.fetchAll(db, sql: "SELECT name FROM grocery_item") == ["Eggs"])
      let uses = try Row.fetchAll(db, sql: "SELECT itemSeq, amount, cookingSeq FROM stock_use")
      #expect(uses.count == 1)
      #expect(uses.first?["itemSeq"] as Int64? == StaplesKeys.item("Eggs"))
      #expect(uses.first?["amount"] as Double? == 3)
      #expect(uses.first?["cookingSeq"] as Int64? == nil)
    }
    #expect(try a.total("Eggs") == 9)
  }

  /// Four devices, random pantry work while apart, random sync order: every device ends with the
  /// same rows, the stock of each item is what was bought less what was taken, recipes count every
  /// cook, syncing again changes nothing, and a fifth device that starts from nothing matches.
  @Test(arguments: 0..<3) func randomWorkApartConverges(round: Int) throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix(state: seed)
    let remote = Remote()
    let devices = try (0..<4).map { try Device("d\($0)") }
    let items = ["Milk", "Eggs", "Flour", "Butter", "Rice"]
    // Set-up on one device: every item with a lot of 1000, a recipe of three; everyone syncs.
    var bought = Dictionary(uniqueKeysWithValues: items.map { ($0, 1000.0) })
    var taken = Dictionary(uniqueKeysWithValues: items.map { ($0, 0.0) })
    var cooks = 0
    try devices[0].write { db in
      for item in items {
        try StaplesWrites.upsertItem(
          db, name: item, changes: ItemChanges(category: "Pantry", quantity: 1000, unit: "u"), now: devices[0].now())
      }
      try StaplesWrites.addRecipe(
        db, name: "Cake", servings: nil, favorite: false, notes: nil,
        ingredients: try ["Flour:2 u", "Eggs:3 u", "Butter:1 u"].map { try IngredientSpec(parsing: $0) },
        createMissing: false,
        now: devices[0].now())
    }
    for device in devices { try device.sync(remote) }
    for _ in 0..<3 {
      for _ in 0..<40 {
        let device = devices[Int.random(in: 0..<devices.count, using: &random)]
        let item = items[Int.random(in: 0..<items.count, using: &random)]
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
          let amount = Double(Int.random(in: 1...8, using: &random))
          try device.write { db in
            try Stock.add(
              db, item: StaplesKeys.item(item), amount: amount, bestBefore: nil, location: nil, now: device.now())
          }
          bought[item, default: 0] += amount
        case 1, 2:
          let amount = [0.25, 0.5, 1][Int.random(in: 0..<3, using: &random)]
          let spoiled = Bool.random(using: &random)
          let got = try device.write { db in
            let got = try Stock.take(db, item: StaplesKeys.item(item), amount: amount)
            try Stock.recordUse(db, item: StaplesKeys.item(item), amount: got, spoiled: spoiled, now: device.now())
            return got
          }
          taken[item, default: 0] += got
        case 3:
          try device.write { _ = try Cooking.cook($0, recipe: "Cake", servings: nil, force: false, now: device.now()) }
          cooks += 1
          for (ingredient, amount) in [("Flour", 2.0), ("Eggs", 3.0), ("Butter", 1.0)] {
            taken[ingredient, default: 0] += amount
          }
        case 4:
          let notes = ["fresh", "organic", "cheap", nil][Int.random(in: 0..<4, using: &random)]
          try device.write {
            try StaplesWrites.setItem($0, name: item, changes: ItemChanges(notes: notes ?? ""), now: device.now())
          }
        case 5:
          let category = ["Pantry", "Fridge", "Baking"][Int.random(in: 0..<3, using: &random)]
          try device.write {
            try StaplesWrites.setItem($0, name: item, changes: ItemChanges(category: category), now: device.now())
          }
        default:
          // A short-lived item made on one device and deleted on another.
          let name = "Temp \(Int.random(in: 0..<3, using: &random))"
          try device.write { db in
            if try Stock.item(db, named: name) == nil {
              try StaplesWrites.upsertItem(db, name: name, changes: ItemChanges(category: "Temp"), now: device.now())
            } else {
              _ = try StaplesWrites.removeItem(db, name: name)
            }
          }
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
          try devices[Int.random(in: 0..<devices.count, using: &random)].sync(remote)
        }
      }
      for device in devices.shuffled(using: &random) { try device.sync(remote) }
    }
    for device in devices { try device.sync(remote) }
    let expected = try devices[0].contents()
    for device in devices { #expect(try device.contents() == expected, "seed \(seed): \(device.name) differs") }
    for item in items {
      // What was bought less what was taken, to the rounding of adding quarters (exact in binary).
      #expect(try devices[0].total(item) == bought[item]! - taken[item]!, "seed \(seed): \(item)")
    }
    let counted = try devices[0].store.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT usageCount FROM recipe WHERE name = 'Cake'"),
        try Int.fetchOne(db, sql: "SELECT count(*) FROM cooking"),
        try Double.fetchOne(db, sql: "SELECT total(amount) FROM stock_use")
      )
    }
    #expect(counted.0 == cooks && counted.1 == cooks, "seed \(seed)")
    #expect(counted.2 == taken.values.reduce(0, +), "seed \(seed)")
    // Again: nothing new, nothing changes.
    for device in devices {
      let again = try device.sync(remote)
      #expect(again.added == 0 && again.replayed == 0)
      #expect(try device.contents() == expected)
    }
    let fresh = try Device("fresh")
    try fresh.sync(remote)
    #expect(try fresh.contents() == expected, "seed \(seed): a new device differs")
  }
}
