/* A process-wide mutex taken with the calling thread's signals blocked, for the POSIX port's thread
 * registries (calls in progress, port_posix.c Q3; the XRay runtime's writers): a signal handler
 * that records on a thread holding the mutex never waits for it, and a handler's first record on
 * a thread may take it to register. Private to src/ports/posix. */
#ifndef EVT_POSIX_MASKED_LOCK_H
#define EVT_POSIX_MASKED_LOCK_H

#include <pthread.h>
#include <signal.h>

static inline void evt_posix_masked_lock(pthread_mutex_t *mu, sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, old);
    pthread_mutex_lock(mu);
}

static inline void evt_posix_masked_unlock(pthread_mutex_t *mu, const sigset_t *old)
{
    pthread_mutex_unlock(mu);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

#endif
