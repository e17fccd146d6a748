// Motion: an offline Core Animation and the page-turn effects built on it.
// (Design essay to be written by the Motion owner.)
import Foundation
import QuireRaster
import CWebP
