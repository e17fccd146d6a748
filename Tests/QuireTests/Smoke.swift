import Testing
@testable import Quire
