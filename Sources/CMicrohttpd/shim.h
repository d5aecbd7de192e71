#ifndef EGGTIMER_CMICROHTTPD_SHIM_H
#define EGGTIMER_CMICROHTTPD_SHIM_H
/* libmicrohttpd's types and constants for WebServer, which loads the library itself with dlopen
   when `eggtimer kitchen --http` starts: the module map has no `link` and Package.swift no
   pkgConfig, so the shipped binary does not need libmicrohttpd (nor GnuTLS) unless it serves.
   Function pointer types are made with __typeof__ from the header's own declarations (which does
   not reference the symbols, so nothing here links against either library). GnuTLS's hash call
   is here too (libmicrohttpd-dev depends on libgnutls28-dev): WebServer is its only user. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <gnutls/crypto.h>

typedef __typeof__(&MHD_start_daemon) CMicrohttpd_start_daemon;
typedef __typeof__(&MHD_stop_daemon) CMicrohttpd_stop_daemon;
typedef __typeof__(&MHD_get_daemon_info) CMicrohttpd_get_daemon_info;
typedef __typeof__(&MHD_get_timeout) CMicrohttpd_get_timeout;
typedef __typeof__(&MHD_run) CMicrohttpd_run;
typedef __typeof__(&MHD_get_connection_values) CMicrohttpd_get_connection_values;
typedef __typeof__(&MHD_get_connection_info) CMicrohttpd_get_connection_info;
typedef __typeof__(&MHD_create_response_from_buffer) CMicrohttpd_create_response_from_buffer;
typedef __typeof__(&MHD_create_response_from_callback) CMicrohttpd_create_response_from_callback;
typedef __typeof__(&MHD_add_response_header) CMicrohttpd_add_response_header;
typedef __typeof__(&MHD_queue_response) CMicrohttpd_queue_response;
typedef __typeof__(&MHD_destroy_response) CMicrohttpd_destroy_response;
typedef __typeof__(&MHD_suspend_connection) CMicrohttpd_suspend_connection;
typedef __typeof__(&MHD_resume_connection) CMicrohttpd_resume_connection;
typedef __typeof__(&MHD_is_feature_supported) CMicrohttpd_is_feature_supported;
typedef __typeof__(&gnutls_hash_fast) CMicrohttpd_gnutls_hash_fast;

/* Macros Swift does not import (casts). */
static const uint64_t CMicrohttpd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t CMicrohttpd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t CMicrohttpd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;

/* MHD_start_daemon is variadic, which Swift cannot call through a pointer: this passes the
   options as one MHD_OPTION_ARRAY (terminated by MHD_OPTION_END) to the dlsym'd `start`. */
static inline struct MHD_Daemon *CMicrohttpd_start(
    CMicrohttpd_start_daemon start, unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler,
    void *handlerContext, const struct MHD_OptionItem *options) {
  return start(flags, port, NULL, NULL, handler, handlerContext, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The daemon's epoll descriptor, or -1 (MHD_get_daemon_info is variadic). */
static inline int CMicrohttpd_epoll_descriptor(CMicrohttpd_get_daemon_info info, struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *found = info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
  return found == NULL ? -1 : found->epoll_fd;
}

/* The connection's socket, or -1 (MHD_get_connection_info is variadic). */
static inline int CMicrohttpd_connection_descriptor(
    CMicrohttpd_get_connection_info info, struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *found = info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return found == NULL ? -1 : found->connect_fd;
}

/* The connection's peer address, or NULL. */
static inline const struct sockaddr *CMicrohttpd_connection_peer(
    CMicrohttpd_get_connection_info info, struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *found = info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return found == NULL ? NULL : found->client_addr;
}

/* The length of the request's head in bytes, request line to blank line, or 0 when unknown. */
static inline size_t CMicrohttpd_connection_header_size(
    CMicrohttpd_get_connection_info info, struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *found = info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  return found == NULL ? 0 : found->header_size;
}
#endif
