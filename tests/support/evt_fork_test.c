/* Fork helper for the fork tests (see evt_fork_test.h). */
#include "evt_fork_test.h"

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int evt_test_fork_run(void (*child)(void))
{
    nanosleep(&(struct timespec){0, 1000000}, NULL);
    pid_t p = fork();
    if (p < 0) return -1;
    if (p == 0) {
        child();
        _exit(127); /* child() must not return */
    }
    int status;
    if (waitpid(p, &status, 0) != p) return -1;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 256 + WTERMSIG(status) : -1;
}

const char *evt_test_fork_how(int result)
{
    return result >= 256 ? "killed by signal (hung: alarm)" : result < 0 ? "fork/waitpid failed" : "exit";
}
