// gestured's KWin script: at every window activation, ReportApp(source, app id, WM_CLASS
// class, instance), and whenever a window opens, closes, moves, restacks or another
// desktop shows, ReportWindows(source, layout) to gestured on the session bus: the user
// service (org.gestured.Gestured1), or the session agent that passes both to the system
// service (org.gestured.Agent1); whichever is not running is simply not there to answer.
// gestured loads it through KWin's scripting D-Bus interface (org.kde.KWin /Scripting).
var SERVICES = [["org.gestured.Gestured1", "/org/gestured/Gestured1"], ["org.gestured.Agent1", "/org/gestured/Agent1"]];
var MOST_WINDOWS = 256;

function call(method, args) {
    for (var i = 0; i < SERVICES.length; i++) {
        callDBus.apply(null, [SERVICES[i][0], SERVICES[i][1], SERVICES[i][0], method].concat(args));
    }
}

function names(window) {
    return [String(window.desktopFileName || ""), String(window.resourceClass || ""), String(window.resourceName || "")];
}

function report(window) {
    call("ReportApp", ["kwin"].concat(window ? names(window) : ["", "", ""]));
}

// Where the windows are: callDBus passes an array as an array of variants, which is no
// signature gestured takes, so the layout goes as JSON text: the screen the panel covers
// and the windows shown there, topmost first (see gestured.toml(5), apps_window).
function shown(window) {
    if (!window || window.deleted || window.minimized || window.hidden || window.desktopWindow) return false;
    if (window.onAllDesktops) return true;
    var current = workspace.currentDesktop;
    if (!window.desktops) return window.desktop === current;  // Plasma 5: numbers
    for (var i = 0; i < window.desktops.length; i++) {  // Plasma 6: virtual desktops
        if (window.desktops[i].id === current.id) return true;
    }
    return false;
}

// The output KWin maps a touchscreen to unless told otherwise: the built-in one, else
// the first; the whole desktop where KWin does not list its outputs (Plasma 5); null
// when it says neither.
function screen() {
    var outputs = workspace.screens;
    if (!outputs || !outputs.length) return workspace.virtualScreenGeometry || null;
    for (var i = 0; i < outputs.length; i++) {
        if (/^(eDP|LVDS|DSI)/.test(String(outputs[i].name))) return outputs[i].geometry;
    }
    return outputs[0].geometry;
}

function rectangle(r) {
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
}

var lastLayout = null;

// Bottom first. Plasma 5 lists the windows in no such order: each says its place.
function stacked() {
    if (workspace.stackingOrder) return workspace.stackingOrder;
    return workspace.clientList().slice().sort(function (a, b) { return a.stackingOrder - b.stackingOrder; });
}

// `closing`: a window on its way out, which may still be in the stacking order.
function reportWindows(closing) {
    var order = stacked();
    var windows = [];
    for (var i = order.length - 1; i >= 0 && windows.length < MOST_WINDOWS; i--) {
        var window = order[i];
        if (window === closing || !shown(window)) continue;
        // Said once the hand lets go: not at every step of a move.
        if (window.move || window.resize) return;
        windows.push(rectangle(window.frameGeometry).concat(names(window)));
    }
    var covered = screen();
    var layout = covered ? JSON.stringify({screen: rectangle(covered), windows: windows}) : "{}";
    if (layout === lastLayout) return;
    lastLayout = layout;
    call("ReportWindows", ["kwin", layout]);
}

function follow(window) {
    if (!window) return;
    var signals = ["frameGeometryChanged", "minimizedChanged", "hiddenChanged", "desktopsChanged", "desktopChanged",
                   "interactiveMoveResizeFinished", "clientFinishUserMovedResized", "windowShown", "windowHidden",
                   "stackingOrderChanged"];
    for (var i = 0; i < signals.length; i++) {
        if (window[signals[i]]) window[signals[i]].connect(function () { reportWindows(); });
    }
}

function connect(names, handler) {
    for (var i = 0; i < names.length; i++) {
        if (workspace[names[i]]) return workspace[names[i]].connect(handler);
    }
}

// Plasma 6 names them windowActivated, activeWindow, windowAdded; Plasma 5 clientActivated,
// activeClient, clientAdded, and says a change of the stacking order window by window.
connect(["windowActivated", "clientActivated"], function (window) { report(window); reportWindows(); });
report(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
connect(["windowAdded", "clientAdded"], function (window) { follow(window); reportWindows(); });
connect(["windowRemoved", "clientRemoved"], reportWindows);
var changes = ["stackingOrderChanged", "currentDesktopChanged", "screensChanged", "virtualScreenGeometryChanged"];
for (var c = 0; c < changes.length; c++) connect([changes[c]], function () { reportWindows(); });
var present = stacked();
for (var i = 0; i < present.length; i++) follow(present[i]);
reportWindows();
