// Raster: display lists → pixels; PNG and JPEG in and out.
// (Design essay to be written by the Raster owner.)
import Foundation
import CPNG
import CJPEG
import CDeflate
import CZlib
import CFreeType
