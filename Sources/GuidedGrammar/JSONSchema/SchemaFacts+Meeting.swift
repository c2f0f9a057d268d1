/// The facts of a conjunction from the facts of its parts.
extension SchemaFacts {
    /// What holds of an instance that satisfies both `self` and `other`: each keyword's constraint as
    /// merging both parts' locations into one analysis would leave it (types, listed values and bounds
    /// intersected; lists of patterns, parts, members and negations joined). The combination search
    /// (`SchemaLowering.admissibleCombinations`) bounds a partial combination by meeting the facts of
    /// its alternatives, each analysed once, instead of analysing the growing conjunction again at every
    /// step.
    func meeting(_ other: SchemaFacts) -> SchemaFacts {
        var f = self
        f.types.formIntersection(other.types)
        f.unsatisfiable = unsatisfiable || other.unsatisfiable
        if let values = other.enumValues { f.restrictEnum(values) }
        f.excluded += other.excluded
        if f.excludedPointer.isEmpty { f.excludedPointer = other.excludedPointer }
        for n in other.negated where !f.negated.contains(n) { f.negated.append(n) }

        if let b = other.lower { f.restrictLower(b) }
        if let b = other.upper { f.restrictUpper(b) }
        f.multipleOf += other.multipleOf
        f.notMultipleOf += other.notMultipleOf
        if f.numberPointer.isEmpty { f.numberPointer = other.numberPointer }

        f.minLength = Swift.max(minLength, other.minLength)
        if let m = other.maxLength { f.maxLength = Swift.min(maxLength ?? m, m) }
        f.patterns += other.patterns
        f.formats += other.formats
        f.negatedPatterns += other.negatedPatterns
        f.negatedFormats += other.negatedFormats

        f.arrayParts += other.arrayParts
        f.minItems = Swift.max(minItems, other.minItems)
        if let m = other.maxItems { f.maxItems = Swift.min(maxItems ?? m, m) }
        if f.uniqueItems == nil { f.uniqueItems = other.uniqueItems }
        f.contains += other.contains
        if f.arrayPointer.isEmpty { f.arrayPointer = other.arrayPointer }

        f.objectParts += other.objectParts
        for k in other.required where !f.required.contains(k) { f.required.append(k) }
        f.dependentRequired += other.dependentRequired
        f.minProperties = Swift.max(minProperties, other.minProperties)
        if let m = other.maxProperties { f.maxProperties = Swift.min(maxProperties ?? m, m) }
        f.propertyNames += other.propertyNames
        for k in other.forbiddenKeys where !f.forbiddenKeys.contains(k) { f.forbiddenKeys.append(k) }
        f.someMembers += other.someMembers
        f.witnesses += other.witnesses
        if f.objectPointer.isEmpty { f.objectPointer = other.objectPointer }
        return f
    }
}
