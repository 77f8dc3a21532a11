// The values and their formats are the store's vocabulary: `import LayeredDefaults` brings them.
@_exported import LayeredDefaultsValues
