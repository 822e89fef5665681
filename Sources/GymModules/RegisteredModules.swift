import GymCLI
import GymCore
import GymHistory
import GymLibrary
import GymStaples

/// The feature modules gym knows, in migration order: a module is its folder, its target in
/// Package.swift's `featureModules`, and one line here. The executable registers this list (its
/// commands, its tables, its report sections); the tests check its migrations against the manifest.
public let registeredFeatures: [FeatureModule] = [historyFeature, libraryFeature, staplesFeature]

/// The store's part of each, for code that opens a store without the command line, then the
/// store's own change log for `gym sync`.
public let registeredModules: [GymModule] = registeredFeatures.map(\.module) + [syncModule]

/// What each adds to `gym report`, in the report's order.
public let registeredReports: [ReportContribution] = registeredFeatures.compactMap(\.report)
