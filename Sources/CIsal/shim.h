#pragma once
// Intel ISA-L's igzip deflate (BSD-3): the fast PNG page compressor (PNGEncoder).
#include <isa-l/igzip_lib.h>

// The level buffer isal_deflate_stateless wants for `level` (ISAL_DEF_LVLn_DEFAULT, macros
// Swift cannot import), 0 for level 0 or an unknown level.
static inline unsigned int cisal_level_buffer_size(int level) {
  switch (level) {
  case 1: return ISAL_DEF_LVL1_DEFAULT;
  case 2: return ISAL_DEF_LVL2_DEFAULT;
  case 3: return ISAL_DEF_LVL3_DEFAULT;
  default: return 0;
  }
}
