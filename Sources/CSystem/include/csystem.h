#ifndef CSYSTEM_H
#define CSYSTEM_H
// Linux calls Swift's Glibc module does not show (they need _GNU_SOURCE) or cannot call (ioctl is variadic).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <spawn.h>

/// Starts writing back the given range of a file without waiting, so a later fsync has little
/// left to do. Returns 0, or -1 with errno set.
int csystem_start_writeback(int fd, long long offset, long long length);

/// The width in columns of the terminal on the descriptor (ioctl TIOCGWINSZ), or 0 when it is not
/// a terminal or the terminal does not say.
int csystem_terminal_columns(int fd);

/// The user ID of the process at the other end of a connected Unix socket (SO_PEERCRED, whose
/// struct ucred needs _GNU_SOURCE). Returns 0, or -1 with errno set.
int csystem_peer_uid(int fd, unsigned int *uid);

/// posix_spawn's flag for a child in a session of its own (glibc shows it only with _GNU_SOURCE).
static inline short csystem_spawn_new_session(void) { return POSIX_SPAWN_SETSID; }

/// Adds "close every descriptor from `fd` up" to spawn actions (glibc 2.34's
/// posix_spawn_file_actions_addclosefrom_np, shown only with _GNU_SOURCE).
static inline int csystem_spawn_close_from(posix_spawn_file_actions_t *actions, int fd) {
    return posix_spawn_file_actions_addclosefrom_np(actions, fd);
}

#endif
