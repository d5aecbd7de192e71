#ifndef EGGTIMER_CMICROHTTPD_SHIM_H
#define EGGTIMER_CMICROHTTPD_SHIM_H
/* libmicrohttpd's types and constants for WebServer, which loads the library itself with dlopen
   when `eggtimer kitchen --http` starts: the module map has no `link` and Package.swift no
   pkgConfig, so the shipped binary does not need libmicrohttpd (nor GnuTLS) unless it serves.
   Function pointer types are made with __typeof__ from the header's own declarations. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

typedef __typeof__(&MHD_start_daemon) CMicrohttpd_start_daemon;
#endif
