// Placeholder until its issue lands: the GuidedModels layer has no code yet.
