#ifndef CSYSTEM_H
#define CSYSTEM_H
// Linux calls Swift's Glibc module does not show (they need _GNU_SOURCE) or cannot call (ioctl
// is variadic). The header declares only podcli's own functions: defining _GNU_SOURCE here would
// make system headers differ from the Glibc and Dispatch modules' views of them (fd_set).

/// Starts writing back the given range of a file without waiting, so a later fsync has little
/// left to do. Returns 0, or -1 with errno set.
int csystem_start_writeback(int fd, long long offset, long long length);

/// The width in columns of the terminal on the descriptor (ioctl TIOCGWINSZ), or 0 when it is not
/// a terminal or the terminal does not say.
int csystem_terminal_columns(int fd);

/// The user ID of the process at the other end of a connected Unix socket (SO_PEERCRED, whose
/// struct ucred needs _GNU_SOURCE). Returns 0, or -1 with errno set.
int csystem_peer_uid(int fd, unsigned int *uid);

/// posix_spawn's flag for a child in a session of its own, POSIX_SPAWN_SETSID.
short csystem_spawn_new_session(void);

/// Adds "close every descriptor from `fd` up" to spawn actions (a posix_spawn_file_actions_t):
/// glibc 2.34's posix_spawn_file_actions_addclosefrom_np.
int csystem_spawn_close_from(void *actions, int fd);

/// The process at the other end of a connected Unix socket: for a client, the one that made the
/// listening socket (SO_PEERCRED). Returns 0, or -1 with errno set.
int csystem_peer_pid(int fd, int *pid);

/// A new eventfd (close-on-exec, non-blocking) counting from 0: readable once written to. Returns
/// the descriptor, or -1 with errno set.
int csystem_event_new(void);

/// A file in memory with no name on any file system (memfd_create, close-on-exec): what it holds
/// is gone with its last descriptor, however the process ends. Returns the descriptor, or -1 with
/// errno set.
int csystem_memory_file(const char *name);

/// Names the calling thread (pthread_setname_np; at most 15 bytes are kept), for ps and gdb.
void csystem_name_thread(const char *name);

/// Lowers the calling thread's CPU priority by `increment` (Linux keeps a nice value per thread:
/// setpriority on its thread ID, which needs gettid). Returns 0, or -1 with errno set.
int csystem_lower_thread_priority(int increment);

#endif
