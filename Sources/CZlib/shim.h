#ifndef ARCADE_CZLIB_SHIM_H
#define ARCADE_CZLIB_SHIM_H
#include <zlib.h>
#endif
