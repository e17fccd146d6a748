import Testing
@testable import QuireRaster
