import Testing

@testable import QuireIngest
