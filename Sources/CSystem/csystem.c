#define _GNU_SOURCE
#include "csystem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int csystem_start_writeback(int fd, long long offset, long long length) {
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
}

int csystem_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int csystem_peer_uid(int fd, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

int csystem_peer_pid(int fd, int *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    return 0;
}

int csystem_event_new(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int csystem_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

short csystem_spawn_new_session(void) { return POSIX_SPAWN_SETSID; }

int csystem_spawn_close_from(void *actions, int fd) { return posix_spawn_file_actions_addclosefrom_np(actions, fd); }

void csystem_name_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}

int csystem_lower_thread_priority(int increment) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    if (current == -1 && errno != 0) return -1;
    return setpriority(PRIO_PROCESS, (id_t)thread, current + increment);
}
