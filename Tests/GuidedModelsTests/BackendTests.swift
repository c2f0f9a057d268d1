import GuidedModels
import Testing

@Suite("Backend")
struct BackendTests {
    @Test func enforcementGuarantees() {
        #expect(EnforcementMode.allCases.filter(\.guaranteesSchema) == [.tokenMask, .serverStrict])
        let c = BackendCapabilities(enforcement: .serverBestEffort, toolCalling: true)
        #expect(c.enforcement == .serverBestEffort && c.toolCalling && !c.reasoning)
    }
}
