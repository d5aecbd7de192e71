#ifndef EGGTIMER_CMPG123_SHIM_H
#define EGGTIMER_CMPG123_SHIM_H
#include <sys/types.h>
#include <mpg123.h>
#endif
