// The release build's `Foundation`: FoundationEssentials and nothing more.
//
// TOMLKit (in the TOML parser's process) imports Foundation for Data, Date, Calendar and
// DateComponents, and the desktops' followers (sway, Hyprland) for JSONDecoder: all of
// them FoundationEssentials' types (Foundation merely re-exports them). Built against the
// real Foundation, a statically linked program carries CoreFoundation, ICU and their
// start-up initializers: megabytes more of binary and resident memory. The Makefile
// compiles this file into a module named Foundation that the release build finds first
// (-I), so both link FoundationEssentials alone. Debug builds and tests use the real one.
@_exported import FoundationEssentials
