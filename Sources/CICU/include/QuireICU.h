#pragma once
// ICU's line break iterator behind one function with plain C types. ICU's own headers are
// not exposed to Swift: Foundation ships a private copy of ICU whose C types clash with
// the system's in the importer, and ICU renames every function per version (ubrk_open →
// ubrk_open_72), which only its headers know.
#include <stdint.h>

/// Writes the line break boundaries of the UTF-16 `text` (offsets 1…length−1, ascending) to
/// `boundaries` (at most `capacity`); returns how many, or −1 when ICU fails.
int32_t quire_icu_line_boundaries(const uint16_t *text, int32_t length, int32_t *boundaries,
                                  int32_t capacity);
