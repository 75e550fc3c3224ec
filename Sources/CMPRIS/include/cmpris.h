#ifndef CMPRIS_H
#define CMPRIS_H
// An MPRIS server (org.mpris.MediaPlayer2 and .Player) on sd-bus. The vtables and the variadic
// sd-bus calls can only be written in C; Swift gives the state and takes the commands.
#include <stdint.h>

typedef struct cmpris cmpris;

/// A method call (or a Volume write) from the bus: "Play", "Pause", "PlayPause", "Stop",
/// "Next", "Previous", "Seek" (argument: offset, µs), "SetPosition" (µs), "Volume" (percent),
/// "Rate" (hundredths: 150 is 1.5×; a Rate of 0 or less comes as "Pause"), "Quit". Called on the bus thread.
typedef void (*cmpris_command_handler)(void *context, const char *command, int64_t argument);

/// What the player shows. Strings may be NULL (not shown); they are copied.
typedef struct {
    const char *status;   // "Playing", "Paused" or "Stopped"
    const char *track_id; // an object path naming the episode
    const char *title;
    const char *album;    // the podcast
    const char *artist;
    const char *url;
    const char *art_url;
    int64_t length;       // µs; -1 when unknown
    double volume;        // 0 to 1
    double rate;          // the speed: 1 as published
    int can_go_next;
    int can_go_previous;
} cmpris_state;

/// Connects to the session bus (or to `address`) and takes the name
/// org.mpris.MediaPlayer2.podcli (or, when another podcli has it, .podcli.instance<pid>).
/// NULL when there is no bus.
cmpris *cmpris_new(const char *address, cmpris_command_handler handler, void *context);
/// Serves the bus on the calling thread (a thread of its own) until `stop` (a descriptor) becomes
/// readable; then `cmpris_free` may free the server.
void cmpris_run(cmpris *server, int stop);
/// Closes the connection and frees the server, once `cmpris_run` has returned (or never ran).
void cmpris_free(cmpris *server);
/// Takes the bus name again (`present`) or lets it go, so that while the process is stopped
/// (Ctrl-Z) no client waits 25 s for an answer that cannot come: it finds no player. Waits up to
/// `timeout_ms` for the bus thread to have done it; returns whether it has.
int cmpris_set_present(cmpris *server, int present, int timeout_ms);
/// Sets what is shown; what changed is announced (PropertiesChanged) by the bus thread.
void cmpris_set_state(cmpris *server, const cmpris_state *state);
/// The position (µs), read when asked; never announced.
void cmpris_set_position(cmpris *server, int64_t position);
/// Announces a jump to `position` (µs): the Seeked signal.
void cmpris_seeked(cmpris *server, int64_t position);

#endif
