#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
/* Wide-character API (wget_wch, cchar_t). SwiftPM drops pkg-config's -D flags, so define here. */
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <ncursesw/curses.h>

/* C globals as functions: Swift 6 rejects direct use of stdscr/LINES/COLS/stdout. */
static inline WINDOW *nc_stdscr(void) { return stdscr; }
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }
static inline int nc_color_pairs(void) { return COLOR_PAIRS; }

/* A screen on the process's own stdin/stdout; NULL (not exit) when the terminal is unusable. */
static inline SCREEN *nc_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }

/* Attributes: NCURSES_BITS() macros do not import. */
static const attr_t NC_A_NORMAL = A_NORMAL, NC_A_BOLD = A_BOLD, NC_A_DIM = A_DIM;
static const attr_t NC_A_REVERSE = A_REVERSE, NC_A_UNDERLINE = A_UNDERLINE;

static inline int nc_key_f(int n) { return KEY_F(n); }

/* A terminfo string capability, or NULL when the terminal has none. */
static inline const char *nc_string_capability(const char *name) {
    char *value = tigetstr(name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

/* Mouse reporting (button presses and the wheel, SGR encoding), when the session asked for it:
   turned on with curses mode and off whenever the screen is left, so a shell never gets reports. */
static int nc_mouse_wanted = 0;
static const char nc_mouse_on_bytes[] = "\033[?1000h\033[?1006h";
static const char nc_mouse_off_bytes[] = "\033[?1006l\033[?1000l";
static inline void nc_want_mouse(int wanted) { nc_mouse_wanted = wanted; }
static inline const char *nc_mouse_off_sequence(void) { return nc_mouse_off_bytes; }
static inline void nc_mouse_reporting(int on) {
    if (!nc_mouse_wanted) return;
    fputs(on ? nc_mouse_on_bytes : nc_mouse_off_bytes, stdout);
    fflush(stdout);
}

/* Leaves curses mode with the screen cleared first. A terminal that reflows lines on resize
   (tmux) narrows the alternate screen back to the size it was entered at when leaving it, and
   the lines that no longer fit went into the shell's scrollback and back into view. */
static inline void nc_leave_screen(void) {
    nc_mouse_reporting(0);
    const char *clear = nc_string_capability("clear");
    if (clear != NULL) {
        /* Out now, before endwin's own bytes: ncurses has flushed what it drew, and putp's stdio
           buffer would otherwise go out after them, onto the shell's screen. */
        tputs(clear, LINES, putchar);
        fflush(stdout);
    }
    endwin();
}

/* Restores the terminal if curses is active; safe to call at any time, including from atexit. */
static inline void nc_endwin_if_active(void) { if (stdscr != NULL && !isendwin()) nc_leave_screen(); }

/* Variadic ioctl does not import: window size and bytes waiting on a descriptor. */
static inline int nc_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}
static inline int nc_bytes_available(int fd) {
    int n = 0;
    if (ioctl(fd, FIONREAD, &n) != 0) return -1;
    return n;
}
static inline int nc_codeset_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}
#include <string.h>
#endif
