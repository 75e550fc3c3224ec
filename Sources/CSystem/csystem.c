#define _GNU_SOURCE
#include "csystem.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

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

short csystem_spawn_new_session(void) { return POSIX_SPAWN_SETSID; }

int csystem_spawn_close_from(void *actions, int fd) { return posix_spawn_file_actions_addclosefrom_np(actions, fd); }
