/* The floor for the studio's start and idle: a GTK 4 window with one button and an
 * entry, nothing else (tests/bench/studio_start.py). */
#include <gtk/gtk.h>

static void activate(GtkApplication *app, gpointer data) {
    GtkWidget *window = gtk_application_window_new(app);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Add gesture"));
    gtk_box_append(GTK_BOX(box), gtk_entry_new());
    gtk_window_set_child(GTK_WINDOW(window), box);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    GtkApplication *app = gtk_application_new("org.gestured.Floor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    return g_application_run(G_APPLICATION(app), argc, argv);
}
