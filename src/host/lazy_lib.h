/* Shared libraries loaded on first use (dlopen), not at every start. libcurl (the ClickHouse
 * export over HTTP) and libmicrohttpd (the live view's server) bring about 35 libraries with them
 * (TLS, Kerberos, LDAP): linked normally, loading them took 12.4 ms of every `evtrace` start on
 * the project's VM, where a command that needs neither starts in about 3 ms. A library's user
 * keeps a struct of typed function pointers (`__typeof__(curl_easy_init) *easy_init;`), lists
 * its symbols once in an X-macro that gives the names and the members' addresses, and calls
 * evt_lazy_load before its first call (http_client.c, live/live_http.c). Every symbol is
 * resolved at once, so a library that loads is complete, and one that does not is an error
 * message, never a crash later. */
#ifndef EVT_LAZY_LIB_H
#define EVT_LAZY_LIB_H

#include <pthread.h>
#include <stddef.h>

typedef struct evt_lazy_lib {
    const char *what;            /* "libcurl", for messages */
    const char *const *sonames;  /* tried in order, NULL-terminated (the build's soname first) */
    const char *const *syms;     /* symbol names, NULL-terminated ... */
    void *const *slots;          /* ... and where each goes (a function pointer's storage) */
    pthread_mutex_t mu;          /* PTHREAD_MUTEX_INITIALIZER */
    int state;                   /* 0 not tried, 1 loaded, -1 failed (msg says why) */
    char msg[512];
} evt_lazy_lib;

/* Load lib once (thread-safe; later calls return the first call's answer). 0 when every symbol
 * is resolved; -1 with the reason in err (the library or the symbol that is missing). */
int evt_lazy_load(evt_lazy_lib *lib, char *err, size_t errlen);

#endif
