import Testing

@testable import QuireTypeset
