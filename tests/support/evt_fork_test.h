/* Fork helper for the tests that fork while other threads record (test_port_fork,
 * test_etw_owned_fork): one child run, its end as one number. */
#ifndef EVT_FORK_TEST_H
#define EVT_FORK_TEST_H

/* Sleeps 1 ms (the recording threads run on), forks, runs child() in the child (it must _exit;
 * give it an alarm so that a hang ends it), waits for it. Returns its exit status (0-255), 256 +
 * the signal that ended it (SIGALRM: it hung), or -1 if fork or waitpid failed. */
int evt_test_fork_run(void (*child)(void));

/* As evt_test_fork_run, without the 1 ms sleep, for a child that may hang with every signal
 * blocked (an alarm cannot end it): after `seconds` the parent kills it (256 + SIGKILL). */
int evt_test_fork_run_for(void (*child)(void), unsigned seconds);

/* "exit" or "killed by signal (hung: alarm)" for a result of evt_test_fork_run; its number is
 * result & 255. */
const char *evt_test_fork_how(int result);

#endif
