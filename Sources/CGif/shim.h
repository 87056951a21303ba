#ifndef ARCADE_CGIF_SHIM_H
#define ARCADE_CGIF_SHIM_H
#include <stdbool.h>
#include <gif_lib.h>

/* giflib's extension codes are macros of int type; named here for Swift. */
static inline int arcade_gif_graphics_ext(void) { return GRAPHICS_EXT_FUNC_CODE; }
static inline int arcade_gif_application_ext(void) { return APPLICATION_EXT_FUNC_CODE; }
#endif
