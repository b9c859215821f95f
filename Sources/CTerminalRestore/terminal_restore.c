#include "terminal_restore.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static const int tr_signals[] = {
    SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGSYS, SIGXCPU, SIGXFSZ,
    SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGSTKFLT, SIGPWR,
};
#define TR_COUNT (sizeof(tr_signals) / sizeof(tr_signals[0]))

static struct sigaction tr_previous[TR_COUNT];
static struct termios tr_modes;
static int tr_modes_fd = -1;
static int tr_output_fd = -1;
static char tr_reset[512];
static size_t tr_reset_length;
static volatile sig_atomic_t tr_armed;

static void tr_restore(void) {
    if (tr_reset_length > 0) {
        size_t done = 0;
        while (done < tr_reset_length) {
            ssize_t n = write(tr_output_fd, tr_reset + done, tr_reset_length - done);
            if (n <= 0) break;
            done += (size_t)n;
        }
    }
    if (tr_modes_fd >= 0) tcsetattr(tr_modes_fd, TCSANOW, &tr_modes);
}

static void tr_handler(int sig) {
    if (tr_armed) {
        tr_armed = 0;
        tr_restore();
    }
    for (size_t i = 0; i < TR_COUNT; i++) {
        if (tr_signals[i] == sig) {
            sigaction(sig, &tr_previous[i], NULL);
            break;
        }
    }
    /* Pending until this handler returns; a fault re-raises itself on return anyway. */
    raise(sig);
}

int tr_save_modes(int fd) {
    if (tcgetattr(fd, &tr_modes) != 0) return -1;
    tr_modes_fd = fd;
    return 0;
}

int tr_arm(int output_fd, const char *reset, size_t reset_length) {
    tr_output_fd = output_fd;
    tr_reset_length = reset_length < sizeof(tr_reset) ? reset_length : sizeof(tr_reset);
    memcpy(tr_reset, reset, tr_reset_length);

    static char *alternate_stack;
    if (alternate_stack == NULL) {
        size_t size = 64 * 1024;
        alternate_stack = malloc(size);
        if (alternate_stack != NULL) {
            stack_t stack = {.ss_sp = alternate_stack, .ss_size = size, .ss_flags = 0};
            sigaltstack(&stack, NULL);
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = tr_handler;
    action.sa_flags = SA_ONSTACK;
    sigfillset(&action.sa_mask);
    tr_armed = 1;
    for (size_t i = 0; i < TR_COUNT; i++) sigaction(tr_signals[i], &action, &tr_previous[i]);
    return 0;
}

void tr_disarm(void) {
    if (!tr_armed) return;
    tr_armed = 0;
    for (size_t i = 0; i < TR_COUNT; i++) sigaction(tr_signals[i], &tr_previous[i], NULL);
}
