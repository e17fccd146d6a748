import Testing
@testable import QuireCache
