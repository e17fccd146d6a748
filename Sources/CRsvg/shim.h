#pragma once
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <gio/gio.h>
