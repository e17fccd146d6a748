// Quire: the façade that ties the stages together.
import Foundation
@_exported import QuireIngest
@_exported import QuireTypeset
@_exported import QuireRaster
@_exported import QuireCache
@_exported import QuireMotion
