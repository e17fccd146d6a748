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
