#define _XOPEN_SOURCE 700
#include <wchar.h>

/// Terminal columns of one code point: 2 for East Asian wide and fullwidth, 0 for combining marks,
/// -1 for control characters (under a UTF-8 LC_CTYPE).
static inline int gym_wcwidth(unsigned int codePoint) { return wcwidth((wchar_t)codePoint); }
