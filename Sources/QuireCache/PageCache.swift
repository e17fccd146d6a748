// Cache: a window of rendered pages around the current one, prefetched in the background.
// (Design essay to be written by the Cache owner.)
import Foundation
import QuireRaster
