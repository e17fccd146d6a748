import Testing
@testable import QuireMotion
