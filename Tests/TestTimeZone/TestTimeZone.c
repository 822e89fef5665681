// The unit tests read local days and hours in UTC. The zone is set here, once, before main and so
// before any test runs: no test changes the process environment while others run.
#include <stdlib.h>
#include <time.h>
#include "TestTimeZone.h"

__attribute__((constructor)) static void set_test_time_zone(void) {
  setenv("TZ", "UTC", 1);
  tzset();
}

const char *test_time_zone(void) { return getenv("TZ"); }
