import Foundation
import Quire

FileHandle.standardError.write("quire: under construction\n".data(using: .utf8)!)
exit(70)
