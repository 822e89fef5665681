#ifndef TEST_TIME_ZONE_H
#define TEST_TIME_ZONE_H

/// The zone the test process runs in, set once before main: "UTC".
const char *test_time_zone(void);

#endif
