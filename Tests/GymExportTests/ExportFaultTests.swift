import GRDB
import Testing

@testable import GymExport

/// Which of SQLite's refusals are the export's (exit 65, "edited or damaged") and which the machine's
/// (a full disk, a file-size limit, a lock: exit 74 or 75, the export left alone).
@Suite struct ExportFaultTests {
  @Test func whatTheExportHoldsIsItsFaultAndWritingIsNot() {
    // CHECK, NOT NULL and UNIQUE failures come as extended codes of CONSTRAINT; a damaged snapshot
    // schema as CORRUPT or NOTADB; a table or column the schema lacks as ERROR.
    for code in [
      ResultCode.SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL, .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_MISMATCH,
      .SQLITE_ERROR, .SQLITE_CORRUPT, .SQLITE_NOTADB,
    ] {
      #expect(ImportJob.isExportsFault(DatabaseError(resultCode: code)), "\(code)")
    }
    for code in [
      ResultCode.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_IOERR_WRITE, .SQLITE_BUSY, .SQLITE_READONLY, .SQLITE_CANTOPEN,
    ] {
      #expect(!ImportJob.isExportsFault(DatabaseError(resultCode: code)), "\(code)")
    }
  }
}
