// gestured's KWin script: at every window activation, ReportApp(source, app id, WM_CLASS
// class, instance) to gestured on the session bus: the user service
// (org.gestured.Gestured1), or the session agent that passes it to the system service
// (org.gestured.Agent1); whichever is not running is simply not there to answer.
// gestured loads it through KWin's scripting D-Bus interface (org.kde.KWin /Scripting).
function report(window) {
    var appId = window ? String(window.desktopFileName || "") : "";
    var windowClass = window ? String(window.resourceClass || "") : "";
    var instance = window ? String(window.resourceName || "") : "";
    callDBus("org.gestured.Gestured1", "/org/gestured/Gestured1", "org.gestured.Gestured1", "ReportApp",
             "kwin", appId, windowClass, instance);
    callDBus("org.gestured.Agent1", "/org/gestured/Agent1", "org.gestured.Agent1", "ReportApp",
             "kwin", appId, windowClass, instance);
}

// Plasma 6 names it windowActivated and activeWindow; Plasma 5 clientActivated and activeClient.
if (workspace.windowActivated) {
    workspace.windowActivated.connect(report);
    report(workspace.activeWindow);
} else {
    workspace.clientActivated.connect(report);
    report(workspace.activeClient);
}
