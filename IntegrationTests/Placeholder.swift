import Testing
@Suite struct PlaceholderIT { @Test func builds() {} }
