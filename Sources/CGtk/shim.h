#pragma once
#include <gtk/gtk.h>

// What Swift cannot call itself: GLib's and GTK's macros and variadic functions.

// g_signal_connect is a macro. `release` lets go of `data` when the handler goes (with
// its widget).
static inline gulong gestured_connect(gpointer instance, const char *signal, GCallback handler, gpointer data,
                                      GClosureNotify release) {
    return g_signal_connect_data(instance, signal, handler, data, release, 0);
}

// gtk_accessible_update_property is variadic: the name a screen reader says (AT-SPI's).
static inline void gestured_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

// GIOCondition's flags are an enum Swift cannot or together: a bus connection's socket,
// read (and written, while it has output queued).
#include <glib-unix.h>
static inline guint gestured_watch_fd(int fd, gboolean writable, GUnixFDSourceFunc func, gpointer data) {
    return g_unix_fd_add(fd, G_IO_IN | G_IO_HUP | G_IO_ERR | (writable ? G_IO_OUT : 0), func, data);
}
