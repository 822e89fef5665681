import GymCLI
import GymCore
import GymHistory
import GymLibrary
import GymStaples

/// The feature modules gym knows, in migration order: add a module here, once. The executable
/// registers this list; the tests check its migrations against the released manifest.
public let registeredModules: [GymModule] = [historyModule, libraryModule, staplesModule]

/// What each of them adds to `gym report`, in the report's order.
public let registeredReports: [ReportContribution] = [historyReport, libraryReport, staplesReport]
