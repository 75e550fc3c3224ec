#include "cmpris.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#define PATH "/org/mpris/MediaPlayer2"
#define ROOT "org.mpris.MediaPlayer2"
#define PLAYER "org.mpris.MediaPlayer2.Player"

struct cmpris {
    sd_bus *bus;
    cmpris_command_handler handler;
    void *context;
    int wake; // an eventfd: the bus thread has something to announce
    char *name; // the bus name taken
    pthread_mutex_t lock;
    pthread_cond_t presence_changed; // the bus thread took or let go of the name
    // Guarded by lock:
    int want_name, have_name;
    char *status, *track_id, *title, *album, *artist, *url, *art_url;
    int64_t length, position, seeked_to;
    double volume, rate;
    int can_go_next, can_go_previous;
    int status_changed, metadata_changed, volume_changed, rate_changed, controls_changed, seeked;
};

// --- properties -------------------------------------------------------------------------------

static int get_string(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)userdata, (void)error;
    if (strcmp(property, "Identity") == 0) return sd_bus_message_append(reply, "s", "podcli");
    if (strcmp(property, "DesktopEntry") == 0) return sd_bus_message_append(reply, "s", "podcli");
    return sd_bus_message_append(reply, "s", "");
}

static int get_true(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                    void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)userdata, (void)error;
    return sd_bus_message_append(reply, "b", 1);
}

static int get_false(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
                     void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)userdata, (void)error;
    return sd_bus_message_append(reply, "b", 0);
}

// The speeds podcli plays at (Playback's PlaybackSpeed.range).
static int get_rate_limit(sd_bus *bus, const char *path, const char *interface, const char *property,
                          sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)userdata, (void)error;
    return sd_bus_message_append(reply, "d", strcmp(property, "MinimumRate") == 0 ? 0.5 : 3.0);
}

static int get_schemes(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)userdata, (void)error;
    if (strcmp(property, "SupportedMimeTypes") == 0) return sd_bus_message_append(reply, "as", 1, "audio/mpeg");
    return sd_bus_message_append(reply, "as", 3, "file", "http", "https");
}

static int get_player(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)error;
    struct cmpris *m = userdata;
    int r = 0;
    pthread_mutex_lock(&m->lock);
    if (strcmp(property, "PlaybackStatus") == 0) {
        r = sd_bus_message_append(reply, "s", m->status ? m->status : "Stopped");
    } else if (strcmp(property, "Volume") == 0) {
        r = sd_bus_message_append(reply, "d", m->volume);
    } else if (strcmp(property, "Rate") == 0) {
        r = sd_bus_message_append(reply, "d", m->rate);
    } else if (strcmp(property, "Position") == 0) {
        r = sd_bus_message_append(reply, "x", m->position);
    } else if (strcmp(property, "CanGoNext") == 0) {
        r = sd_bus_message_append(reply, "b", m->can_go_next);
    } else if (strcmp(property, "CanGoPrevious") == 0) {
        r = sd_bus_message_append(reply, "b", m->can_go_previous);
    } else if (strcmp(property, "Metadata") == 0) {
        r = sd_bus_message_open_container(reply, 'a', "{sv}");
        if (r >= 0 && m->track_id) r = sd_bus_message_append(reply, "{sv}", "mpris:trackid", "o", m->track_id);
        if (r >= 0 && m->length >= 0) r = sd_bus_message_append(reply, "{sv}", "mpris:length", "x", m->length);
        if (r >= 0 && m->title) r = sd_bus_message_append(reply, "{sv}", "xesam:title", "s", m->title);
        if (r >= 0 && m->album) r = sd_bus_message_append(reply, "{sv}", "xesam:album", "s", m->album);
        if (r >= 0 && m->artist) r = sd_bus_message_append(reply, "{sv}", "xesam:artist", "as", 1, m->artist);
        if (r >= 0 && m->url) r = sd_bus_message_append(reply, "{sv}", "xesam:url", "s", m->url);
        if (r >= 0 && m->art_url) r = sd_bus_message_append(reply, "{sv}", "mpris:artUrl", "s", m->art_url);
        if (r >= 0) r = sd_bus_message_close_container(reply);
    }
    pthread_mutex_unlock(&m->lock);
    return r;
}

static int set_volume(sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)error;
    struct cmpris *m = userdata;
    double volume = 0;
    int r = sd_bus_message_read(value, "d", &volume);
    if (r < 0) return r;
    if (volume < 0) volume = 0;
    if (volume > 1) volume = 1;
    m->handler(m->context, "Volume", (int64_t)(volume * 100 + 0.5));
    return 1;
}

// The spec: a rate of 0 (or less) is a Pause; the player keeps any other within its range.
static int set_rate(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *value,
                    void *userdata, sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)error;
    struct cmpris *m = userdata;
    double rate = 0;
    int r = sd_bus_message_read(value, "d", &rate);
    if (r < 0) return r;
    if (!(rate > 0)) {
        m->handler(m->context, "Pause", 0);
    } else {
        if (rate > 100) rate = 100;
        m->handler(m->context, "Rate", (int64_t)(rate * 100 + 0.5));
    }
    return 1;
}

// --- methods ----------------------------------------------------------------------------------

static int command(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    (void)error;
    struct cmpris *m = userdata;
    const char *member = sd_bus_message_get_member(call);
    int64_t argument = 0;
    if (strcmp(member, "Seek") == 0) {
        int r = sd_bus_message_read(call, "x", &argument);
        if (r < 0) return r;
    } else if (strcmp(member, "SetPosition") == 0) {
        const char *track = NULL;
        int r = sd_bus_message_read(call, "ox", &track, &argument);
        if (r < 0) return r;
        // The spec: a SetPosition for another track is ignored.
        pthread_mutex_lock(&m->lock);
        int current = m->track_id && track && strcmp(m->track_id, track) == 0;
        pthread_mutex_unlock(&m->lock);
        if (!current) return sd_bus_reply_method_return(call, "");
    }
    m->handler(m->context, member, argument);
    return sd_bus_reply_method_return(call, "");
}

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", command, 0),
    SD_BUS_METHOD("Quit", "", "", command, 0),
    SD_BUS_PROPERTY("CanQuit", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanRaise", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("HasTrackList", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Identity", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("DesktopEntry", "s", get_string, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", get_schemes, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", get_schemes, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", command, 0),
    SD_BUS_METHOD("Previous", "", "", command, 0),
    SD_BUS_METHOD("Pause", "", "", command, 0),
    SD_BUS_METHOD("PlayPause", "", "", command, 0),
    SD_BUS_METHOD("Stop", "", "", command, 0),
    SD_BUS_METHOD("Play", "", "", command, 0),
    SD_BUS_METHOD("Seek", "x", "", command, 0),
    SD_BUS_METHOD("SetPosition", "ox", "", command, 0),
    SD_BUS_METHOD("OpenUri", "s", "", command, 0),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", get_player, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", get_player, set_rate, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("MinimumRate", "d", get_rate_limit, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("MaximumRate", "d", get_rate_limit, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Metadata", "a{sv}", get_player, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", get_player, set_volume, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Position", "x", get_player, 0, 0),
    SD_BUS_PROPERTY("CanGoNext", "b", get_player, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CanGoPrevious", "b", get_player, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("CanPlay", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanPause", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanSeek", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("CanControl", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

// --- life -------------------------------------------------------------------------------------

// Takes org.mpris.MediaPlayer2.podcli, or .podcli.instance<pid> when another podcli has it.
static int take_name(struct cmpris *m) {
    char name[64] = "org.mpris.MediaPlayer2.podcli";
    int r = sd_bus_request_name(m->bus, name, 0);
    if (r == -EEXIST) {
        snprintf(name, sizeof name, "org.mpris.MediaPlayer2.podcli.instance%d", (int)getpid());
        r = sd_bus_request_name(m->bus, name, 0);
    }
    if (r < 0) return r;
    free(m->name);
    m->name = strdup(name);
    return m->name ? 0 : -ENOMEM;
}

cmpris *cmpris_new(const char *address, cmpris_command_handler handler, void *context) {
    struct cmpris *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->handler = handler;
    m->context = context;
    m->length = -1;
    m->volume = 1;
    m->rate = 1;
    m->want_name = m->have_name = 1;
    pthread_mutex_init(&m->lock, NULL);
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&m->presence_changed, &monotonic);
    pthread_condattr_destroy(&monotonic);
    int r;
    if (address) {
        r = sd_bus_new(&m->bus);
        if (r >= 0) r = sd_bus_set_address(m->bus, address);
        if (r >= 0) r = sd_bus_set_bus_client(m->bus, 1);
        if (r >= 0) r = sd_bus_start(m->bus);
    } else {
        r = sd_bus_open_user(&m->bus);
    }
    if (r >= 0) r = sd_bus_add_object_vtable(m->bus, NULL, PATH, ROOT, root_vtable, m);
    if (r >= 0) r = sd_bus_add_object_vtable(m->bus, NULL, PATH, PLAYER, player_vtable, m);
    if (r >= 0) r = take_name(m);
    m->wake = -1;
    if (r >= 0) m->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (r < 0 || m->wake < 0) {
        cmpris_free(m);
        return NULL;
    }
    return m;
}

void cmpris_free(cmpris *m) {
    sd_bus_flush_close_unref(m->bus);
    if (m->wake >= 0) close(m->wake);
    pthread_cond_destroy(&m->presence_changed);
    pthread_mutex_destroy(&m->lock);
    char *strings[] = {m->name, m->status, m->track_id, m->title, m->album, m->artist, m->url, m->art_url};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) free(strings[i]);
    free(m);
}

// Takes or lets go of the name as the player asked (on the bus thread: sd-bus is not shared).
static void update_presence(struct cmpris *m) {
    pthread_mutex_lock(&m->lock);
    int want = m->want_name, have = m->have_name;
    pthread_mutex_unlock(&m->lock);
    if (want == have) return;
    int r = want ? take_name(m) : sd_bus_release_name(m->bus, m->name);
    pthread_mutex_lock(&m->lock);
    // A name that cannot be taken back (the bus is gone) leaves the player off the bus.
    m->have_name = r >= 0 ? want : 0;
    pthread_cond_broadcast(&m->presence_changed);
    pthread_mutex_unlock(&m->lock);
}

static void announce(struct cmpris *m) {
    pthread_mutex_lock(&m->lock);
    const char *changed[6];
    int count = 0;
    if (m->status_changed) changed[count++] = "PlaybackStatus";
    if (m->metadata_changed) changed[count++] = "Metadata";
    if (m->volume_changed) changed[count++] = "Volume";
    if (m->rate_changed) changed[count++] = "Rate";
    int controls = m->controls_changed;
    int seeked = m->seeked;
    int64_t seeked_to = m->seeked_to;
    m->status_changed = m->metadata_changed = m->volume_changed = m->rate_changed = m->controls_changed = m->seeked = 0;
    pthread_mutex_unlock(&m->lock);
    // The getters take the lock again: it is not held while sd-bus builds the signal.
    for (int i = 0; i < count; i++) sd_bus_emit_properties_changed(m->bus, PATH, PLAYER, changed[i], NULL);
    if (controls) sd_bus_emit_properties_changed(m->bus, PATH, PLAYER, "CanGoNext", "CanGoPrevious", NULL);
    if (seeked) sd_bus_emit_signal(m->bus, PATH, PLAYER, "Seeked", "x", seeked_to);
}

void cmpris_run(cmpris *m, int stop) {
    for (;;) {
        announce(m);
        update_presence(m);
        int r;
        while ((r = sd_bus_process(m->bus, NULL)) > 0) {}
        if (r < 0) return;
        uint64_t timeout = UINT64_MAX;
        int events = sd_bus_get_events(m->bus);
        // Unknown, it is no deadline: a 0 would make this loop spin.
        if (sd_bus_get_timeout(m->bus, &timeout) < 0) timeout = UINT64_MAX;
        struct pollfd fds[3] = {
            {.fd = sd_bus_get_fd(m->bus), .events = events < 0 ? 0 : events},
            {.fd = m->wake, .events = POLLIN},
            {.fd = stop, .events = POLLIN},
        };
        int wait_ms = -1;
        if (timeout != UINT64_MAX) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            uint64_t now_us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
            wait_ms = timeout > now_us ? (int)((timeout - now_us + 999) / 1000) : 0;
        }
        if (poll(fds, 3, wait_ms) < 0 && errno != EINTR) return;
        if (fds[2].revents & POLLIN) return;
        uint64_t count;
        if (fds[1].revents & POLLIN) (void)read(m->wake, &count, sizeof count);
    }
}

static void replace(char **field, const char *value, int *changed) {
    if ((*field == NULL && value == NULL) || (*field && value && strcmp(*field, value) == 0)) return;
    free(*field);
    *field = value ? strdup(value) : NULL;
    *changed = 1;
}

static void wake(struct cmpris *m) {
    uint64_t one = 1;
    (void)write(m->wake, &one, sizeof one);
}

void cmpris_set_state(cmpris *m, const cmpris_state *state) {
    pthread_mutex_lock(&m->lock);
    int metadata = 0;
    replace(&m->status, state->status, &m->status_changed);
    replace(&m->track_id, state->track_id, &metadata);
    replace(&m->title, state->title, &metadata);
    replace(&m->album, state->album, &metadata);
    replace(&m->artist, state->artist, &metadata);
    replace(&m->url, state->url, &metadata);
    replace(&m->art_url, state->art_url, &metadata);
    if (m->length != state->length) {
        m->length = state->length;
        metadata = 1;
    }
    if (metadata) m->metadata_changed = 1;
    if (m->volume != state->volume) {
        m->volume = state->volume;
        m->volume_changed = 1;
    }
    if (m->rate != state->rate) {
        m->rate = state->rate;
        m->rate_changed = 1;
    }
    if (m->can_go_next != state->can_go_next || m->can_go_previous != state->can_go_previous) {
        m->can_go_next = state->can_go_next;
        m->can_go_previous = state->can_go_previous;
        m->controls_changed = 1;
    }
    int any = m->status_changed || m->metadata_changed || m->volume_changed || m->rate_changed || m->controls_changed;
    pthread_mutex_unlock(&m->lock);
    if (any) wake(m);
}

void cmpris_set_position(cmpris *m, int64_t position) {
    pthread_mutex_lock(&m->lock);
    m->position = position;
    pthread_mutex_unlock(&m->lock);
}

void cmpris_seeked(cmpris *m, int64_t position) {
    pthread_mutex_lock(&m->lock);
    m->position = position;
    m->seeked = 1;
    m->seeked_to = position;
    pthread_mutex_unlock(&m->lock);
    wake(m);
}

int cmpris_set_present(cmpris *m, int present, int timeout_ms) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&m->lock);
    m->want_name = present ? 1 : 0;
    pthread_mutex_unlock(&m->lock);
    wake(m);
    pthread_mutex_lock(&m->lock);
    while (timeout_ms > 0 && m->have_name != m->want_name) {
        if (pthread_cond_timedwait(&m->presence_changed, &m->lock, &deadline) == ETIMEDOUT) break;
    }
    int done = m->have_name == m->want_name;
    pthread_mutex_unlock(&m->lock);
    return done;
}
