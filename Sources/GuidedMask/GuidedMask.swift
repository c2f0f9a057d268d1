// Placeholder until its issue lands: the GuidedMask layer has no code yet.
