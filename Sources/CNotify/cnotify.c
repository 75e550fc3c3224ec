#include "cnotify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define SERVICE "org.freedesktop.Notifications"
#define PATH "/org/freedesktop/Notifications"

struct cnotify {
    sd_bus *bus;
    char last_error[512];
    // What the signal handler saw: the notification asked about, and what became of it.
    uint32_t watched;
    int event;
    char action[128];
};

// The error's name and message, kept for the caller; returns `r`.
static int failed(struct cnotify *c, const sd_bus_error *error, int r) {
    if (error && sd_bus_error_is_set(error)) {
        snprintf(c->last_error, sizeof c->last_error, "%s: %s", error->name, error->message ? error->message : "");
    } else {
        snprintf(c->last_error, sizeof c->last_error, "%s", strerror(-r));
    }
    return r;
}

// ActionInvoked (us) and NotificationClosed (uu) of the notification being waited for.
static int on_signal(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    struct cnotify *c = userdata;
    uint32_t id = 0;
    if (c->event != CNOTIFY_TIMED_OUT) return 0;
    if (sd_bus_message_is_signal(message, SERVICE, "ActionInvoked")) {
        const char *key = NULL;
        if (sd_bus_message_read(message, "us", &id, &key) < 0 || id != c->watched || !key) return 0;
        snprintf(c->action, sizeof c->action, "%s", key);
        c->event = CNOTIFY_ACTION_INVOKED;
    } else if (sd_bus_message_is_signal(message, SERVICE, "NotificationClosed")) {
        if (sd_bus_message_read(message, "u", &id) < 0 || id != c->watched) return 0;
        c->event = CNOTIFY_CLOSED;
    }
    return 0;
}

int cnotify_open(cnotify **client, const char *address, uint64_t call_timeout_usec) {
    struct cnotify *c = calloc(1, sizeof *c);
    if (!c) return -ENOMEM;
    int r;
    if (address) {
        r = sd_bus_new(&c->bus);
        if (r >= 0) r = sd_bus_set_address(c->bus, address);
        if (r >= 0) r = sd_bus_set_bus_client(c->bus, 1);
        if (r >= 0) r = sd_bus_start(c->bus);
    } else {
        r = sd_bus_open_user(&c->bus);
    }
    if (r >= 0) r = sd_bus_set_method_call_timeout(c->bus, call_timeout_usec);
    // Subscribed before Notify, so a click that comes at once is not missed.
    if (r >= 0) {
        r = sd_bus_add_match(c->bus, NULL,
                             "type='signal',path='" PATH "',interface='" SERVICE "',member='ActionInvoked'",
                             on_signal, c);
    }
    if (r >= 0) {
        r = sd_bus_add_match(c->bus, NULL,
                             "type='signal',path='" PATH "',interface='" SERVICE "',member='NotificationClosed'",
                             on_signal, c);
    }
    if (r < 0) {
        sd_bus_flush_close_unref(c->bus);
        free(c);
        return r;
    }
    *client = c;
    return 0;
}

void cnotify_free(cnotify *c) {
    if (!c) return;
    sd_bus_flush_close_unref(c->bus);
    free(c);
}

int cnotify_capabilities(cnotify *c) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(c->bus, SERVICE, PATH, SERVICE, "GetCapabilities", &error, &reply, "");
    if (r < 0) {
        failed(c, &error, r);
        sd_bus_error_free(&error);
        return r;
    }
    int bits = 0;
    r = sd_bus_message_enter_container(reply, 'a', "s");
    const char *capability = NULL;
    while (r >= 0 && (r = sd_bus_message_read(reply, "s", &capability)) > 0) {
        if (strcmp(capability, "actions") == 0) bits |= CNOTIFY_ACTIONS;
        if (strcmp(capability, "body-markup") == 0) bits |= CNOTIFY_BODY_MARKUP;
    }
    sd_bus_message_unref(reply);
    return r < 0 ? failed(c, NULL, r) : bits;
}

int cnotify_notify(cnotify *c, const char *app_name, const char *summary, const char *body,
                   const char *const *actions, int action_count, int32_t expire_timeout, uint32_t *id) {
    sd_bus_message *call = NULL;
    int r = sd_bus_message_new_method_call(c->bus, &call, SERVICE, PATH, SERVICE, "Notify");
    // Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions, a{sv} hints,
    // i expire_timeout) -> u id
    if (r >= 0) r = sd_bus_message_append(call, "susss", app_name, (uint32_t)0, "", summary, body);
    if (r >= 0) r = sd_bus_message_open_container(call, 'a', "s");
    for (int i = 0; r >= 0 && i < action_count; i++) r = sd_bus_message_append(call, "s", actions[i]);
    if (r >= 0) r = sd_bus_message_close_container(call);
    if (r >= 0) r = sd_bus_message_open_container(call, 'a', "{sv}");
    if (r >= 0) r = sd_bus_message_close_container(call);
    if (r >= 0) r = sd_bus_message_append(call, "i", expire_timeout);
    if (r < 0) {
        sd_bus_message_unref(call);
        return failed(c, NULL, r);
    }
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    r = sd_bus_call(c->bus, call, 0, &error, &reply);
    sd_bus_message_unref(call);
    if (r >= 0) r = sd_bus_message_read(reply, "u", id);
    sd_bus_message_unref(reply);
    if (r < 0) failed(c, &error, r);
    sd_bus_error_free(&error);
    return r < 0 ? r : 0;
}

static uint64_t now_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
}

int cnotify_wait(cnotify *c, uint32_t id, uint64_t timeout_usec, char *action, size_t size) {
    c->watched = id;
    c->event = CNOTIFY_TIMED_OUT;
    uint64_t deadline = now_usec() + timeout_usec;
    for (;;) {
        int r;
        while ((r = sd_bus_process(c->bus, NULL)) > 0 && c->event == CNOTIFY_TIMED_OUT) {}
        if (r < 0) return failed(c, NULL, r);
        if (c->event != CNOTIFY_TIMED_OUT) break;
        uint64_t now = now_usec();
        if (now >= deadline) break;
        r = sd_bus_wait(c->bus, deadline - now);
        if (r < 0 && r != -EINTR) return failed(c, NULL, r);
    }
    if (c->event == CNOTIFY_ACTION_INVOKED && size > 0) snprintf(action, size, "%s", c->action);
    return c->event;
}

const char *cnotify_last_error(cnotify *c) { return c->last_error; }
