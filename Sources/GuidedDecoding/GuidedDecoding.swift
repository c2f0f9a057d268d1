// The umbrella module: one import for the whole toolkit.
@_exported import GuidedSchema
@_exported import GuidedGrammar
@_exported import GuidedTokenizers
@_exported import GuidedMask
@_exported import GuidedModels
