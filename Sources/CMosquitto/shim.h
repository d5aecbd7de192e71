#ifndef EGGTIMER_CMOSQUITTO_SHIM_H
#define EGGTIMER_CMOSQUITTO_SHIM_H
/* libmosquitto's types and constants for HouseBus, which loads the library itself with dlopen
   the first time a BusClient is made: the module map has no `link` and Package.swift no pkgConfig,
   so the shipped binary does not need libmosquitto (nor the libssl and libcrypto it pulls in).

   Each function HouseBus calls gets a pointer type made from its own declaration with
   __typeof__, so a dlsym'd pointer has exactly the header's signature. __typeof__ does not
   reference the symbol, so nothing here links against the library. */
#include <mosquitto.h>
#include <mqtt_protocol.h>

typedef __typeof__(&mosquitto_lib_init) CMosquitto_lib_init;
typedef __typeof__(&mosquitto_lib_version) CMosquitto_lib_version;
typedef __typeof__(&mosquitto_new) CMosquitto_new;
typedef __typeof__(&mosquitto_destroy) CMosquitto_destroy;
typedef __typeof__(&mosquitto_int_option) CMosquitto_int_option;
typedef __typeof__(&mosquitto_username_pw_set) CMosquitto_username_pw_set;
typedef __typeof__(&mosquitto_will_set) CMosquitto_will_set;
typedef __typeof__(&mosquitto_tls_set) CMosquitto_tls_set;
typedef __typeof__(&mosquitto_connect) CMosquitto_connect;
typedef __typeof__(&mosquitto_disconnect) CMosquitto_disconnect;
typedef __typeof__(&mosquitto_publish) CMosquitto_publish;
typedef __typeof__(&mosquitto_publish_v5) CMosquitto_publish_v5;
typedef __typeof__(&mosquitto_property_add_int32) CMosquitto_property_add_int32;
typedef __typeof__(&mosquitto_property_free_all) CMosquitto_property_free_all;
typedef __typeof__(&mosquitto_reason_string) CMosquitto_reason_string;
typedef __typeof__(&mosquitto_subscribe) CMosquitto_subscribe;
typedef __typeof__(&mosquitto_unsubscribe) CMosquitto_unsubscribe;
typedef __typeof__(&mosquitto_socket) CMosquitto_socket;
typedef __typeof__(&mosquitto_want_write) CMosquitto_want_write;
typedef __typeof__(&mosquitto_loop_read) CMosquitto_loop_read;
typedef __typeof__(&mosquitto_loop_write) CMosquitto_loop_write;
typedef __typeof__(&mosquitto_loop_misc) CMosquitto_loop_misc;
typedef __typeof__(&mosquitto_connect_callback_set) CMosquitto_connect_callback_set;
typedef __typeof__(&mosquitto_disconnect_callback_set) CMosquitto_disconnect_callback_set;
typedef __typeof__(&mosquitto_message_callback_set) CMosquitto_message_callback_set;
typedef __typeof__(&mosquitto_publish_callback_set) CMosquitto_publish_callback_set;
typedef __typeof__(&mosquitto_unsubscribe_callback_set) CMosquitto_unsubscribe_callback_set;
typedef __typeof__(&mosquitto_strerror) CMosquitto_strerror;
typedef __typeof__(&mosquitto_connack_string) CMosquitto_connack_string;
typedef __typeof__(&mosquitto_user_data_set) CMosquitto_user_data_set;

/* The callbacks' own types (the setters' parameter types), for Swift closures. */
typedef void (*CMosquitto_on_connect)(struct mosquitto *, void *, int);
typedef void (*CMosquitto_on_disconnect)(struct mosquitto *, void *, int);
typedef void (*CMosquitto_on_message)(struct mosquitto *, void *, const struct mosquitto_message *);
typedef void (*CMosquitto_on_publish)(struct mosquitto *, void *, int);
typedef void (*CMosquitto_on_unsubscribe)(struct mosquitto *, void *, int);
#endif
