// The release build's `Foundation`: FoundationEssentials and nothing more.
//
// TOMLKit imports Foundation for Data, Date, Calendar and DateComponents only, all of
// them FoundationEssentials' types (Foundation merely re-exports them). Built against the
// real Foundation, a statically linked gestured carries CoreFoundation, ICU and their
// start-up initializers: about 3 MB more resident, idle. The Makefile compiles this file
// into a module named Foundation that the release build finds first (-I), so TOMLKit,
// unchanged, links FoundationEssentials alone. Debug builds and tests use the real one.
@_exported import FoundationEssentials
