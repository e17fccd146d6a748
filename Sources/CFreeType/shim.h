#pragma once
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_GLYPH_H
#include FT_TRUETYPE_TABLES_H
#include FT_SFNT_NAMES_H

// Structured macros that Swift cannot import.
static inline int cft_load_target_light(void) { return FT_LOAD_TARGET_LIGHT; }
static inline int cft_load_target_normal(void) { return FT_LOAD_TARGET_NORMAL; }
// A tag-built enum constant; Swift's importer sometimes misses it depending on how the
// module's files are batched, so it is read through a function.
static inline FT_Glyph_Format cft_glyph_format_outline(void) { return FT_GLYPH_FORMAT_OUTLINE; }
