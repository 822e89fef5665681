#define _XOPEN_SOURCE 700
#define _GNU_SOURCE
#include <locale.h>
#include <wchar.h>

/// A UTF-8 character type (C.UTF-8 is built into glibc); NULL where it cannot be made.
static inline locale_t gym_utf8_ctype(void) { return newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

/// Terminal columns of one code point under `utf8`: 2 for East Asian wide and fullwidth, 0 for
/// combining marks, -1 for control characters. The locale is taken for this call on this thread
/// only (uselocale), so the process's own locale is never changed.
static inline int gym_wcwidth(unsigned int codePoint, locale_t utf8) {
  locale_t previous = uselocale(utf8);
  int width = wcwidth((wchar_t)codePoint);
  uselocale(previous);
  return width;
}
