#ifndef HAMMOCK_TERMINAL_RESTORE_H
#define HAMMOCK_TERMINAL_RESTORE_H
#include <stddef.h>

/* Restoring the terminal from a fatal signal, async-signal-safely.

   `tr_save_modes` keeps the terminal's modes (the termios of `fd`) from before curses changes
   them. `tr_arm` keeps the bytes that undo what curses set (leave the alternate screen, show
   the cursor, keypad off, plain attributes), to be written to `output_fd`, then installs a handler for every signal whose default action ends the process and is not
   handled elsewhere (SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGSYS, SIGXCPU,
   SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGSTKFLT, SIGPWR), on an alternate
   stack so a stack overflow is caught too. The handler writes the bytes, restores the modes,
   puts back the action that was there before (the Swift runtime's backtracer, or the default)
   and raises the signal again: exit status, core dumps and backtraces stay what they would
   have been. Call `tr_arm` after curses has started; `tr_disarm` once the terminal is restored.
   The alternate stack is the calling thread's: a stack overflow elsewhere still ends the process,
   with the default action. */
int tr_save_modes(int fd);
int tr_arm(int output_fd, const char *reset, size_t reset_length);
void tr_disarm(void);

#endif
