import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files a command writes under a temporary name (an import's new database, a file before its
/// rename), removed when SIGINT, SIGTERM or SIGHUP ends the command: Ctrl-C during an import left a
/// 62 MB staging database beside the database for a day. The handler only unlinks paths copied out
/// beforehand (`unlink` is async-signal-safe), then ends the process by the same signal, as it would
/// have ended. A signal something else handles already (the schedulers' service lifecycle, which
/// finishes the work in progress) is left to it. A process killed otherwise leaves the files to
/// `StalePartials`.
public enum SignalCleanup {
  static let capacity = 64
  /// The registered paths as C strings; a slot is cleared when its file is published or removed.
  /// Never freed: the handler may be reading one while a slot is cleared.
  nonisolated(unsafe) static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
    return slots
  }()
  private static let state = Mutex<(installed: Bool, used: Set<Int>)>((false, []))

  /// Removes `files` if a signal ends the process before `unregister`; a file past the 64 slots is
  /// not registered (the next command's `StalePartials` removes it).
  public static func register(_ files: [String]) -> [Int] {
    state.withLock { state in
      if !state.installed {
        _ = paths  // made here, not by the handler's first touch (a lazy global's once is no signal-safe call)
        state.installed = true
        for signal in [SIGINT, SIGTERM, SIGHUP] { installIfUnhandled(signal) }
      }
      return files.compactMap { file in
        guard let slot = (0..<capacity).first(where: { !state.used.contains($0) }) else { return nil }
        state.used.insert(slot)
        paths[slot] = strdup(file)
        return slot
      }
    }
  }

  /// The files are published or removed: a signal no longer removes them.
  public static func unregister(_ slots: [Int]) {
    state.withLock { state in
      for slot in slots {
        paths[slot] = nil
        state.used.remove(slot)
      }
    }
  }

  private static func installIfUnhandled(_ signal: Int32) {
    var current = sigaction()
    guard sigaction(signal, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = removeRegisteredFiles
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(signal, &action, nil)
  }
}

/// The handler: each registered file unlinked, then the signal's default action.
private func removeRegisteredFiles(_ signal: Int32) {
  for slot in 0..<SignalCleanup.capacity {
    if let path = SignalCleanup.paths[slot] { unlink(path) }
  }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}
