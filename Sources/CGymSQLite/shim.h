// The session extension (changesets, for `gym sync`): Debian's libsqlite3, shared and static, is
// built with it and the pre-update hook, but sqlite3.h declares its API only when asked to.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

/// Before SQLite's first use in the process; SQLITE_MISUSE (and no change) after it.
/// Connections without a mutex of their own: GRDB hands each connection to one thread at a time,
/// so the serialized mode's lock around every call (each bind, each step) only costs time. No
/// memory statistics: they take a process-wide mutex on every allocation, and gym never reads them.
static inline int gym_sqlite_configure(void) {
  int threading = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
  int statistics = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  return threading != SQLITE_OK ? threading : statistics;
}
