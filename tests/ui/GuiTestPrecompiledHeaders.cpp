// The translation unit that builds the GUI suites' shared precompiled header
// (tests/ui/CMakeLists.txt); it has no code of its own.
