#pragma once
#include <linebreak.h>
#include <linebreakdef.h>
#include <wordbreak.h>

/// libunibreak's own property tables (linebreakdef.h), for the Latin fast path's class
/// table (QuireTypeset/Inline/LineBreakOpportunities.swift): the default ranges, ended by
/// an `LBP_Undefined` entry, and the per-language tailorings, ended by a NULL name.
static inline const struct LineBreakProperties *quire_lb_default_properties(void) {
  return lb_prop_default;
}
static inline const struct LineBreakPropertiesLang *quire_lb_language_properties(void) {
  return lb_prop_lang_map;
}
