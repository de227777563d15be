extension Configuration {
    /// Used when no configuration file is given: the gestures a laptop owner might try,
    /// announced on D-Bus and running nothing.
    public static let defaultText = """
        [daemon]
        bus = "system"

        [[gesture]]
        name = "checkmark"
        type = "checkmark"
        signal = true

        [[gesture]]
        name = "chevron-right"
        type = "chevron"
        direction = "right"
        signal = true

        [[gesture]]
        name = "chevron-left"
        type = "chevron"
        direction = "left"
        signal = true

        [[gesture]]
        name = "chevron-up"
        type = "chevron"
        direction = "up"
        signal = true

        [[gesture]]
        name = "chevron-down"
        type = "chevron"
        direction = "down"
        signal = true

        [[gesture]]
        name = "three-finger-swipe"
        type = "swipe"
        fingers = 3
        signal = true

        [[gesture]]
        name = "edge-left"
        type = "edge-swipe"
        edge = "left"
        signal = true

        [[gesture]]
        name = "edge-right"
        type = "edge-swipe"
        edge = "right"
        signal = true

        [[gesture]]
        name = "edge-top"
        type = "edge-swipe"
        edge = "top"
        signal = true

        [[gesture]]
        name = "edge-bottom"
        type = "edge-swipe"
        edge = "bottom"
        signal = true
        """
}
